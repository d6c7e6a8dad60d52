import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `tandem-simnode` (issue 24): a simulated Kaspa node on loopback ports, driven through
/// its control API (`/sim/fund`, `/sim/mine`, `/sim/switch`, `/sim/state`). Its ports are read
/// from the JSON line it prints once listening, so nothing waits on a timer.
final class SimNodeProcess: Sendable {
    let child: ChildProcess
    let ports: [Int]

    static var binary: URL { Vectors.productsDirectory.appendingPathComponent("tandem-simnode") }

    var url: String { url(0) }
    func url(_ index: Int) -> String { "ws://127.0.0.1:\(ports[index])" }

    /// Starts a node on `portCount` free ports; returns once it listens.
    static func start(network: String = "testnet-10", portCount: Int = 1, arguments: [String] = []) async throws
        -> SimNodeProcess
    {
        let child = try await ChildProcess.launch(
            binary, ["--network", network] + (0..<portCount).flatMap { _ in ["--port", "0"] } + arguments)
        do {
            guard let line = try await child.firstLine(within: 60) else { throw SimNodeProcessError.notListening }
            struct Line: Decodable { var ports: [Int] }
            return SimNodeProcess(child: child, ports: try JSONDecoder().decode(Line.self, from: Data(line.utf8)).ports)
        } catch {
            await child.kill()
            throw error
        }
    }

    private init(child: ChildProcess, ports: [Int]) {
        self.child = child
        self.ports = ports
    }

    /// The node ends with the test; its task reaps it.
    deinit { child.send(SIGTERM) }

    /// `POST /sim/<path>` with a JSON body on port `index`; the answer's JSON object.
    @discardableResult
    func control(_ path: String, _ body: [String: any Sendable] = [:], port index: Int = 0) async throws
        -> [String: Any]
    {
        guard let url = URL(string: "http://127.0.0.1:\(ports[index])/sim/\(path)") else {
            throw SimNodeProcessError.badAnswer(path)
        }
        var request = URLRequest(url: url, timeoutInterval: 30)
        request.httpMethod = path == "state" ? "GET" : "POST"
        if path != "state" {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SimNodeProcessError.badAnswer("\(path): HTTP \(status)")
        }
        return object
    }

    func fund(_ address: String, sompi: UInt64) async throws {
        try await control("fund", ["address": address, "amount": sompi])
    }

    func mine(_ blocks: Int = 1) async throws { try await control("mine", ["blocks": blocks]) }

    /// Transaction ids in the mempool.
    func mempool() async throws -> [String] { try await control("state")["mempool"] as? [String] ?? [] }
}

enum SimNodeProcessError: Error {
    case notListening
    case badAnswer(String)
}
