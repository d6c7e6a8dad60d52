import Foundation
import TandemClient
import TandemNIOTransport

/// A `tandem-simnode` process on one loopback port for the wallet-node bench (issue 24), driven
/// through its HTTP control API. It runs apart from the bench so that the node's CPU is not
/// counted in the client's.
final class SimNodeProcess {
    let port: Int
    /// The node's wRPC JSON URL.
    let url: URL
    private let process: Process
    private let transport = HTTPClientTransport(timeout: .seconds(30), userAgent: "tandem-bench")

    /// Starts `executable` on a free port of `network`; returns once it listens (its first
    /// stdout line is `{"ports":[…],"network":…}`). With `niceness`, it runs under `nice -n`.
    init(executable: String, network: String, niceness: Int? = nil) throws {
        let process = Process()
        let arguments = ["--network", network, "--port", "0"]
        if let niceness {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/nice")
            process.arguments = ["-n", String(niceness), executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Blocking reads at set-up only: nothing is measured yet.
        var line: [UInt8] = []
        while line.last != UInt8(ascii: "\n") {
            guard let byte = output.fileHandleForReading.readData(ofLength: 1).first else { break }
            line.append(byte)
        }
        struct Listening: Decodable { var ports: [Int] }
        guard let listening = try? JSONDecoder().decode(Listening.self, from: Data(line)),
            let port = listening.ports.first, port > 0, let url = URL(string: "ws://127.0.0.1:\(port)")
        else {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            throw CLIError(
                "wallet-node bench: \(executable) did not start (said \"\(String(decoding: line, as: UTF8.self))\")")
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
    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}
