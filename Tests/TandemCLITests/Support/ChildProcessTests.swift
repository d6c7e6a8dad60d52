import Foundation
import TandemTesting
import TestSupport
import Testing

/// ``ChildProcess/collect(_:_:stdin:environment:)`` with children that do not take their input:
/// every CLI test runs through it, so a child's choice must never end the test process.
@Suite struct ChildProcessTests {
    private static let shell = URL(fileURLWithPath: "/bin/sh")

    /// A child that exits without reading its input. Through a pipe (before `collect` used a
    /// file) the write failed with EPIPE, or was still waiting for room when the child was
    /// reaped, and session 22's CI lost the whole test process to it (swift-subprocess left the
    /// pipe open, and its descriptor's deinit is a fatal error). One MiB is more than a pipe
    /// holds, so with a pipe the write could not finish before the child exits.
    @Test(arguments: [0, 1, 1 << 20])
    func aChildThatIgnoresItsInputIsCollected(bytes: Int) async throws {
        let collected = try await ChildProcess.collect(
            Self.shell, ["-c", "echo gone; exit 3"], stdin: Data(repeating: UInt8(ascii: "a"), count: bytes))
        #expect(collected.status == 3)
        #expect(String(decoding: collected.stdout, as: UTF8.self) == "gone\n")
    }

    /// A child that reads part of its input and exits.
    @Test func aChildThatReadsOneLineAndExitsIsCollected() async throws {
        let input = Data((0..<100_000).map { "line \($0)\n" }.joined().utf8)
        let collected = try await ChildProcess.collect(Self.shell, ["-c", "read first; echo \"$first\""], stdin: input)
        #expect(collected.status == 0)
        #expect(String(decoding: collected.stdout, as: UTF8.self) == "line 0\n")
    }

    /// A child that reads all of its input gets every byte, in order.
    @Test func aChildThatReadsItAllGetsEveryByte() async throws {
        var generator = SeededRandom(seed: 23)
        let input = Data((0..<(3 << 20)).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let collected = try await ChildProcess.collect(URL(fileURLWithPath: "/bin/cat"), [], stdin: input)
        #expect(collected.status == 0)
        #expect(collected.stdout == input)
    }
}
