import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `tandem-simnode` (issue 24): a simulated Kaspa node on loopback ports, driven through
/// its control API (`/sim/fund`, `/sim/mine`, `/sim/switch`, `/sim/state`). Its ports are read
/// from the JSON line it prints once listening, so nothing waits on a timer.
final class SimNodeProcess {
    let process: Process
    private(set) var ports: [Int] = []
    private let scratch: TemporaryDirectory

    static var binary: URL { Vectors.productsDirectory.appendingPathComponent("tandem-simnode") }

    var url: String { url(0) }
    func url(_ index: Int) -> String { "ws://127.0.0.1:\(ports[index])" }

    /// Starts a node on `portCount` free ports; blocks until it listens.
    init(network: String = "testnet-10", portCount: Int = 1) throws {
        scratch = try TemporaryDirectory()
        let outputURL = scratch.url.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        process = Process()
        process.executableURL = Self.binary
        process.arguments = ["--network", network] + (0..<portCount).flatMap { _ in ["--port", "0"] }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while true {
            let data = (try? Data(contentsOf: outputURL)) ?? Data()
            if let newline = data.firstIndex(of: UInt8(ascii: "\n")) {
                struct Line: Decodable { var ports: [Int] }
                ports = try JSONDecoder().decode(Line.self, from: data[..<newline]).ports
                return
            }
            guard process.isRunning, Date() < deadline else { throw SimNodeProcessError.notListening }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        scratch.remove()
    }

    /// `POST /sim/<path>` with a JSON body on port `index`; the answer's JSON object.
    @discardableResult
    func control(_ path: String, _ body: [String: Any] = [:], port index: Int = 0) throws -> [String: Any] {
        guard let url = URL(string: "http://127.0.0.1:\(ports[index])/sim/\(path)") else {
            throw SimNodeProcessError.badAnswer(path)
        }
        var request = URLRequest(url: url)
        request.httpMethod = path == "state" ? "GET" : "POST"
        if path != "state" {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let box = AnswerBox()
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, _ in
            box.set(data, (response as? HTTPURLResponse)?.statusCode ?? 0)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + 30) == .success else { throw SimNodeProcessError.badAnswer(path) }
        let (data, status) = box.get()
        guard status == 200, let data,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { throw SimNodeProcessError.badAnswer("\(path): HTTP \(status)") }
        return object
    }

    func fund(_ address: String, sompi: UInt64) throws {
        try control("fund", ["address": address, "amount": sompi])
    }

    func mine(_ blocks: Int = 1) throws { try control("mine", ["blocks": blocks]) }

    /// Transaction ids in the mempool.
    func mempool() throws -> [String] { try control("state")["mempool"] as? [String] ?? [] }
}

/// The answer of one control call. `@unchecked Sendable`: written once by URLSession's callback
/// before the semaphore is signalled, read after the wait.
private final class AnswerBox: @unchecked Sendable {
    private var data: Data?
    private var status = 0
    func set(_ data: Data?, _ status: Int) {
        self.data = data
        self.status = status
    }
    func get() -> (Data?, Int) { (data, status) }
}

enum SimNodeProcessError: Error {
    case notListening
    case badAnswer(String)
}
