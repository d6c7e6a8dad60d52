import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP control API under `/sim/` (what `tandem-simnode` scripts drive): JSON in and out,
/// a 400 with `{"error"}` for bad input.
@Suite struct ControlAPITests {
    static func call(
        _ server: RunningNodeServer, _ path: String, method: String = "POST", body: String? = nil
    ) async throws -> (status: Int, json: [String: Any]) {
        guard let url = URL(string: "\(server.controlURL)/\(path)") else { throw URLError(.badURL) }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:])
    }

    @Test func fundsMinesSwitchesAndReports() async throws {
        let node = SimulatedKaspaNode()
        let alice = try TestWallet(seed: 0x11)
        try await node.serve([.init(), .init()], logger: LoopbackTests.logger) { servers in
            // Fund and mine through the first port
            let funded = try await Self.call(
                servers[0], "fund", body: #"{"address":"\#(alice.address)","amount":500000000}"#)
            #expect(funded.status == 200)
            #expect((funded.json["transactionId"] as? String)?.count == 64)
            let mined = try await Self.call(servers[0], "mine", body: #"{"blocks":3}"#)
            let score = await node.virtualDaaScore
            #expect(mined.json["virtualDaaScore"] as? Int == Int(score))
            #expect(await node.read { $0.balance(of: alice.address) } == 500_000_000)

            // Switch the second port from the first
            let flipped = try await Self.call(
                servers[0], "switch", body: #"{"port":\#(servers[1].port),"networkId":"testnet-11","synced":false}"#)
            #expect(flipped.json["port"] as? Int == servers[1].port)
            #expect(await servers[1].switches.state.reportedNetwork == KaspaNetworkID("testnet-11"))
            #expect(await servers[1].switches.state.isSynced == false)
            #expect(await servers[0].switches.state.isSynced == true)

            // Reorg and read the state
            _ = try await Self.call(servers[1], "reorg", body: #"{"depth":2}"#)
            let state = try await Self.call(servers[1], "state", method: "GET")
            #expect(state.json["virtualDaaScore"] as? Int == Int(score - 2))
            #expect(state.json["ports"] as? [Int] == servers.map(\.port).sorted())
        }
    }

    @Test(arguments: [
        ("fund", #"{"address":"kaspa:nope","amount":1}"#),
        ("fund", #"{"address":"kaspatest:qq","amount":1"#),
        ("fund", "[]"),
        ("mine", #"{"blocks":0}"#),
        ("reorg", #"{"depth":1}"#),
        ("switch", #"{"networkId":"moonnet"}"#),
        ("switch", #"{"port":1}"#),
        ("switch", #"{"rejectNext":{"count":-1,"message":"x"}}"#),
    ])
    func refusesBadInputWithA400(path: String, body: String) async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: LoopbackTests.logger) { servers in
            let answer = try await Self.call(servers[0], path, body: body)
            #expect(answer.status == 400)
            #expect(answer.json["error"] is String)
        }
    }
}
