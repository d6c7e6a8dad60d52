import BenchSupport
import Foundation
import TandemAccounts
import TandemNIOTransport
import TandemWallet

/// A `tandem-simnode` process on one loopback port for the wallet-node bench (issue 24), driven
/// through its HTTP control API. It runs apart from the bench so that the node's CPU is not
/// counted in the client's.
final class SimNodeProcess {
    let port: Int
    /// The node's wRPC JSON URL.
    let url: URL
    private let server: ServerProcess
    private let transport = HTTPClientTransport(timeout: .seconds(30), userAgent: "tandem-bench")

    /// Starts `executable` on a free port of `network` (a ``ServerProcess``); returns once it
    /// listens (its first stdout line is `{"ports":[…],"network":…}`), scheduled as `priority` says.
    init(executable: String, network: String, priority: ServerProcess.Priority = .normal) throws {
        server = try ServerProcess(
            "wallet-node bench", executable: URL(fileURLWithPath: executable),
            arguments: ["--network", network, "--port", "0"], priority: priority)
        struct Listening: Decodable { var ports: [Int] }
        guard let listening = try? JSONDecoder().decode(Listening.self, from: Data(server.firstLine.utf8)),
            let port = listening.ports.first, port > 0, let url = URL(string: "ws://127.0.0.1:\(port)")
        else {
            server.terminate()
            throw CLIError("wallet-node bench: \(executable) did not start (said \"\(server.firstLine)\")")
        }
        self.port = port
        self.url = url
    }

    /// `POST /sim/<path>` with `body`; throws unless the node answers 200.
    @discardableResult
    func control(_ path: String, _ body: some Encodable) async throws -> Data {
        guard let url = URL(string: "http://127.0.0.1:\(port)/sim/\(path)") else {
            throw CLIError("wallet-node bench: bad control path \(path)")
        }
        let response = try await transport.send(
            TransportRequest(
                method: "POST", url: url, headers: [(name: "Content-Type", value: "application/json")],
                body: try JSONEncoder().encode(body)))
        guard response.status == 200 else {
            throw CLIError(
                "wallet-node bench: /sim/\(path) answered \(response.status): \(String(decoding: response.body, as: UTF8.self))"
            )
        }
        return response.body
    }

    /// `GET /sim/state`'s JSON object.
    func state() async throws -> [String: Any] {
        guard let url = URL(string: "http://127.0.0.1:\(port)/sim/state") else {
            throw CLIError("simnode: bad state URL")
        }
        let response = try await transport.send(TransportRequest(method: "GET", url: url))
        guard response.status == 200,
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        else { throw CLIError("simnode: /sim/state answered \(response.status)") }
        return object
    }

    func fund(_ address: String, sompi: UInt64) async throws {
        struct Fund: Encodable {
            var address: String
            var amount: UInt64
        }
        try await control("fund", Fund(address: address, amount: sompi))
    }

    func mine(blocks: Int = 1) async throws {
        struct Mine: Encodable { var blocks: Int }
        try await control("mine", Mine(blocks: blocks))
    }

    /// Closes every WebSocket of the node at the TCP level, as a node that dies would.
    func dropConnections() async throws {
        struct Switch: Encodable { var drop: Bool }
        try await control("switch", Switch(drop: true))
    }

    /// SIGTERM, then waits for the exit.
    func stop() { server.terminate() }
}
