import Foundation
import Testing

/// `tandem kasia routing root ADDRESS kchat|ciph_msg|auto` and the root in `routing show`
/// (issue 43 item 2).
@Suite(.serialized) struct KasiaRootCLITests {
    @Test func rootPinsAndShowsWhy() async throws {
        let (alice, _, _, bobAddress) = try await ChatDiscreteCLITests.profiles()
        func root(_ word: String) async throws -> (TandemProcess.Output, [String: Any]?) {
            let output = try await TandemProcess.run([
                "kasia", "routing", "root", bobAddress, word, "--json", "--profile", alice,
            ])
            return (output, try? JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        }
        let (pinned, kchat) = try await root("kchat")
        #expect(pinned.status == 0, "\(pinned.stderrText)")
        #expect(kchat?["root"] as? String == "kchat")
        #expect(kchat?["rootReason"] as? String == "pinned")
        #expect(kchat?["rootPreference"] as? String == "kchat")
        #expect(kchat?["rootEvidence"] is NSNull, "no evidence yet: the member is there, null")
        #expect(kchat?["paymentForm"] as? String == "pay")
        #expect(kchat?["peerApp"] is NSNull)

        let (_, ciphMsg) = try await root("ciph_msg")
        #expect(ciphMsg?["root"] as? String == "ciph_msg")
        #expect(ciphMsg?["rootReason"] as? String == "pinned")

        let (_, auto) = try await root("auto")
        #expect(auto?["root"] as? String == "ciph_msg", "without evidence, the root both networks read")
        #expect(auto?["rootReason"] as? String == "no_evidence")
        let shown = try await TandemProcess.run(["kasia", "routing", "show", "--json", "--profile", alice])
        let rows = try JSONSerialization.jsonObject(with: shown.stdout) as? [[String: Any]]
        #expect(rows?.first?["root"] as? String == "ciph_msg")
        #expect(rows?.first?["rootPreference"] as? String == "auto")
        let plain = try await TandemProcess.run(["kasia", "routing", "show", "--profile", alice])
        #expect(plain.stdoutText.contains("root=ciph_msg (no_evidence)"))

        for bad in ["KCHAT", "both", ""] {
            let (refused, _) = try await root(bad)
            #expect(refused.status == 1, "\(bad)")
            #expect(refused.stderrLines.count == 1, "\(bad): \(refused.stderrText)")
        }
        let badAddress = try await TandemProcess.run([
            "kasia", "routing", "root", "kaspa:nope", "kchat", "--profile", alice,
        ])
        #expect(badAddress.status == 1)
        #expect(badAddress.stderrLines.count == 1)
    }
}
