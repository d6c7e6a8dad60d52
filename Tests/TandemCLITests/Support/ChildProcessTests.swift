import Foundation
import TandemBasics
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

/// ``ProcessSlots``: the bound on commands at once (issue 45 item 2).
@Suite struct ProcessSlotsTests {
    /// Five holders on two slots: two run, three wait suspended, and each release lets exactly
    /// the next one in, first come first served, until all five have run.
    @Test func twoSlotsLetTwoHoldersInAtATimeInArrivalOrder() async throws {
        let slots = ProcessSlots(count: 2)
        let running = Locked(0)
        let peak = Locked(0)
        let held = Locked<[CheckedContinuation<Void, Never>]>([])
        let (entered, enteredIn) = AsyncStream.makeStream(of: Int.self)
        var holders: [Task<Void, Never>] = []
        for index in 0..<5 {
            holders.append(
                Task {
                    await slots.withSlot {
                        let now = running.withLock { value -> Int in
                            value += 1
                            return value
                        }
                        peak.withLock { $0 = max($0, now) }
                        await withCheckedContinuation { continuation in
                            held.withLock { $0.append(continuation) }
                            enteredIn.yield(index)
                        }
                        running.withLock { $0 -= 1 }
                    }
                })
            // Each holder asks for its slot before the next one starts, so arrival order is index order.
            let asked = await eventually(within: .seconds(60)) {
                index < 2 ? held.withLock { $0.count } == index + 1 : slots.snapshot.waiting == index - 1
            }
            try #require(asked)
        }
        var order: [Int] = []
        var arrivals = entered.makeAsyncIterator()
        for _ in 0..<2 { order.append(try #require(await arrivals.next())) }
        #expect(slots.snapshot.free == 0)
        #expect(slots.snapshot.waiting == 3)
        for _ in 0..<3 {
            held.withLock { $0.removeFirst() }.resume()
            order.append(try #require(await arrivals.next()))
        }
        for continuation in held.withLock({ $0 }) { continuation.resume() }
        for holder in holders { await holder.value }
        #expect(order == [0, 1, 2, 3, 4])
        #expect(peak.withLock { $0 } == 2)
        #expect(slots.snapshot.free == 2)
        #expect(slots.snapshot.waiting == 0)
    }
}
