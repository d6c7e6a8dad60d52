import Foundation
import KaspaCrypto
import TandemMessaging
import TandemProfile
import TandemWallet
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

    @Test(
        .tags(.idleCPU),
        .enabled(if: IdleCPUChecks.enabled, "set \(IdleCPUChecks.variable)=1 (run with the benchmarks)"))
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

        let listen = try await ChildProcess.launch(
            TandemProcess.binary,
            ["chat", "listen", "--json", "--server", server.baseURL, "--profile", listener.directory.path])
        func waitUntilPrinted(_ text: String) async {
            if !(await listen.waitForOutput(containing: text, within: 30)) {
                Issue.record("listen did not print \(text)")
            }
        }

        do {
            // When Bob's handshake has arrived (the listener then streams with his aliases) and
            // a first message has come through the stream
            try await bob.startConversation(with: address)
            await waitUntilPrinted("\"handshake\"")
            try await bob.send("before the quiet", to: address)
            await waitUntilPrinted("before the quiet")

            // Then five quiet seconds cost almost no CPU
            try await Task.sleep(for: .seconds(1))
            let start = try #require(ProcessCPU.seconds(listen.processIdentifier))
            try await Task.sleep(for: .seconds(Self.idleSeconds))
            let used = try #require(ProcessCPU.seconds(listen.processIdentifier)) - start
            #expect(used < Self.idleBudget, "idle listen used \(used) s of CPU in \(Self.idleSeconds) s")

            // And a message sent after the quiet still arrives
            try await bob.send("after the quiet", to: address)
            await waitUntilPrinted("after the quiet")
        } catch {
            _ = try? await listen.terminate(within: 10)
            await server.stopped()
            throw error
        }
        _ = try await listen.terminate(within: 10)
        await server.stopped()
    }
}
