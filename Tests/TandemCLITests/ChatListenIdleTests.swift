import Foundation
import KaspaCrypto
import TandemClient
import TestSupport
import Testing

/// `tandem chat listen` as a process against a real `tandem serve` (issue 16 item 5, issue 11
/// item 3): connected and idle, it must not use the CPU, and it still delivers.
///
/// A resource regression test, not a benchmark: FoundationNetworking's URLSession waited for
/// the stream in a poll loop that took ~90% of a core; the CLI's AsyncHTTPClient transport waits
/// in epoll. The budget leaves room for the relay's heartbeat comments and a loaded machine.
@Suite(.serialized)
struct ChatListenIdleTests {
    /// CPU seconds an idle listener may use over ``idleSeconds``.
    static let idleBudget = 0.3
    static let idleSeconds = 5.0

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func anIdleListenerUsesAlmostNoCPUAndStillDelivers() async throws {
        // Given a real relay, a listening profile and Bob in this process
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let listener = Profile(directory: directory.url.appendingPathComponent("listener"))
        let address = KaspaAddress(publicKey: try listener.createWalletKey().xOnlyPublicKey)
        let bobProfile = Profile(directory: directory.url.appendingPathComponent("bob"))
        _ = try bobProfile.createWalletKey()
        let bob = try Messenger(profile: bobProfile, server: try #require(URL(string: server.baseURL)))

        let outputURL = directory.url.appendingPathComponent("listen.out")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = TandemProcess.binary
        process.arguments = [
            "chat", "listen", "--json", "--server", server.baseURL, "--profile", listener.directory.path,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exit = ProcessExit(watching: process)
        try process.run()
        func printed(_ text: String) -> Bool {
            String(decoding: (try? Data(contentsOf: outputURL)) ?? Data(), as: UTF8.self).contains(text)
        }
        func waitUntilPrinted(_ text: String) async throws {
            let deadline = Date().addingTimeInterval(30)
            while !printed(text) {
                guard Date() < deadline, !exit.hasExited else {
                    Issue.record("listen did not print \(text)")
                    return
                }
                try await Task.sleep(for: .milliseconds(50))
            }
        }

        do {
            // When Bob's handshake has arrived (the listener then streams with his aliases) and
            // a first message has come through the stream
            try await bob.startConversation(with: address)
            try await waitUntilPrinted("\"handshake\"")
            try await bob.send("before the quiet", to: address)
            try await waitUntilPrinted("before the quiet")

            // Then five quiet seconds cost almost no CPU
            try await Task.sleep(for: .seconds(1))
            let start = try #require(ProcessCPU.seconds(process.processIdentifier))
            try await Task.sleep(for: .seconds(Self.idleSeconds))
            let used = try #require(ProcessCPU.seconds(process.processIdentifier)) - start
            #expect(used < Self.idleBudget, "idle listen used \(used) s of CPU in \(Self.idleSeconds) s")

            // And a message sent after the quiet still arrives
            try await bob.send("after the quiet", to: address)
            try await waitUntilPrinted("after the quiet")
        } catch {
            process.terminate()
            _ = try? await exit.status(within: 10, killing: process.processIdentifier)
            _ = await server.shutDown()
            throw error
        }
        process.terminate()
        _ = try await exit.status(within: 10, killing: process.processIdentifier)
        _ = await server.shutDown()
    }
}
