import ArgumentParser
import BenchSupport
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import MicroBenchmarks
import ServiceLifecycle
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemProfile
import TandemServer
import TandemServerStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tandem-bench server`: get-session throughput against a bare Hummingbird route, both served
/// by this process on loopback and loaded side by side by `wrk`; sign-in latency (scrypt-bound)
/// and get-session p99. With `--sessions N`, get-session where nothing is remembered
/// (`ColdSessions`); with `--database-url`, on PostgreSQL.
struct BenchServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract:
            "get-session req/s vs a bare Hummingbird route (wrk over loopback), sign-in latency, get-session p99.",
        discussion: "Needs wrk on PATH (apt-get install wrk). Build with -c release."
    )

    @Option(name: .long, help: "Seconds per wrk run.") var duration = 10
    @Option(name: .long, help: "wrk connections.") var connections = 32
    @Option(name: .long, help: "wrk threads.") var threads = 1
    @Option(name: .long, help: "Sequential sign-ins timed.") var signIns = 20
    @Option(
        name: .long,
        help:
            "Seed this many users with a session each and load get-session with a different cookie per request (0: one cookie, asked again; up to 100000 the rows stay in the row cache)."
    )
    var sessions = 0
    @Option(name: .long, help: "Serve from this PostgreSQL database instead of a new SQLite file.")
    var databaseURL: String?
    @Option(name: .long, help: "SQLite's memory map per connection, MiB (default: the store's; 0 reads through pread).")
    var sqliteMemoryMapMib: Int?

    var backendName: String { databaseURL == nil ? "SQLite" : "PostgreSQL" }

    func validate() throws {
        guard sessions == 0 || sessions > ColdSessions.answerCache else {
            throw ValidationError(
                "--sessions must exceed \(ColdSessions.answerCache), the server's cache of answers (over \(ColdSessions.largestCache): its row cache too)"
            )
        }
    }

    /// The verified token of the load's one cookie, `better-auth.session_token=…` (nil: none).
    static func sessionToken(in request: Request, signer: CookieSigner) -> SessionToken? {
        let prefix = AuthCookie.sessionTokenName + "="
        let header = request.headers[.cookie] ?? ""
        guard header.hasPrefix(prefix) else { return nil }
        return signer.token(fromCookieValue: String(header.dropFirst(prefix.count)))
    }

    func run() async throws {
        guard let wrk = WrkRunner.locate() else { throw CLIError("wrk is not on PATH (apt-get install wrk)") }
        // The handler `tandem serve` installs for its text log format, for both servers.
        var logger = Logger(label: "bench") { DeferredMetadataLogHandler(StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = .critical
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tandem-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let backend = databaseURL.map { StorageBackend.postgres(url: $0) } ?? .sqlite(dataDirectory: directory)
        let secret = "tandem-bench \(UUID().uuidString)"
        let cold =
            sessions > 0
            ? try await ColdSessions(count: sessions, secret: secret).seed(backend, logger: logger) : nil
        let store: any ServerStore =
            if databaseURL == nil, let mib = sqliteMemoryMapMib {
                try SQLiteServerStore(
                    fileURL: directory.appendingPathComponent("tandem.sqlite"), memoryMapBytes: mib << 20)
            } else {
                try await StoreFactory.open(backend, logger: logger)
            }
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, storage: backend, dataDirectory: directory, secret: secret, rateLimiting: false,
            connections: .loadGenerator)
        let ports = PortCollector()
        let tandem = try buildApplication(configuration: configuration, store: store, logger: logger) {
            await ports.add("tandem", $0)
        }
        let bareRouter = Router()
        bareRouter.get("/bare") { _, _ in try JSONResponseBody(HealthResponse(status: "ok")) }
        // The second baseline: a bare route that answers get-session's own bytes and headers
        // (copied from a real answer before the runs), so the two differ only in the work done.
        let sameAnswer = SameAnswer()
        bareRouter.get("/bare-same-answer") { _, _ in sameAnswer.response() }
        // get-session's reads alone: the same answer after the cookie's check and the session
        // with its user read from the server's store (what the route adds is the JSON and what it
        // remembers).
        let signer = CookieSigner(secret: secret)
        bareRouter.get("/bare-one-read") { request, _ in
            guard let token = Self.sessionToken(in: request, signer: signer),
                try await store.sessionWithUser(tokenHash: token.hash)?.user != nil
            else { return Response(status: .unauthorized) }
            return sameAnswer.response()
        }
        // The floor of a read per request on SQLite: the same answer after the cookie's check and
        // the same joined statement stepped through SQLite's C API (`RawSessionReader`).
        let rawReader =
            databaseURL != nil
            ? nil
            : RawSessionReader(
                path: directory.appendingPathComponent("tandem.sqlite").path,
                memoryMapBytes: sqliteMemoryMapMib.map { $0 << 20 } ?? SQLiteServerStore.defaultMemoryMapBytes)
        if let reader = rawReader {
            bareRouter.get("/bare-raw-read") { request, _ in
                guard let token = Self.sessionToken(in: request, signer: signer),
                    try reader.sessionHasUser(tokenHashHex: token.hash.hex)
                else { return Response(status: .unauthorized) }
                return sameAnswer.response()
            }
        }
        // The floor of any design that asks PostgreSQL once per request: the same answer after
        // one trivial round trip (`SELECT 1`) through the store's client.
        if databaseURL != nil {
            bareRouter.get("/bare-one-query") { _, _ in
                try await store.ping()
                return sameAnswer.response()
            }
        }
        let bare = Application(
            router: bareRouter, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { await ports.add("bare", $0.localAddress?.port ?? 0) }, logger: logger)
        let group = ServiceGroup(services: [tandem, bare], logger: logger)

        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let tandemPort = await ports.wait(for: "tandem")
            let barePort = await ports.wait(for: "bare")
            let report =
                if let cold {
                    try await measureCold(
                        cookies: cold, store: store, rawReader: rawReader, secret: secret, wrk: wrk,
                        tandemPort: tandemPort,
                        barePort: barePort, sameAnswer: sameAnswer,
                        directory: directory)
                } else {
                    try await measure(
                        wrk: wrk, tandemPort: tandemPort, barePort: barePort, sameAnswer: sameAnswer,
                        directory: directory)
                }
            CommandIO.write(report + "\n")
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    private func measure(
        wrk: String, tandemPort: Int, barePort: Int, sameAnswer: SameAnswer, directory: URL
    ) async throws -> String {
        guard let server = URL(string: "http://127.0.0.1:\(tandemPort)") else {
            throw CLIError("bench: bad port \(tandemPort)")
        }
        let profile = Profile(directory: directory.appendingPathComponent("profile"))
        let client = AccountClient(server: server, profile: profile, transport: URLSessionTransport())
        // A name of this run's own: a PostgreSQL database may hold an earlier run's user.
        let username = "bench_\(UUID().uuidString.prefix(8).lowercased())"
        _ = try await client.signUp(
            username: username, email: "\(username)@example.com", name: "Bench", password: "bench password 1")

        var signInTimes: [Duration] = []
        let clock = ContinuousClock()
        for _ in 0..<signIns {
            let start = clock.now
            _ = try await client.signIn(username: username, password: "bench password 1")
            signInTimes.append(clock.now - start)
        }
        guard
            let cookie = try SessionCookieStore(profile: profile).cookieHeader(
                for: "http://127.0.0.1:\(tandemPort)", now: Date())
        else {
            throw CLIError("bench: sign-in left no session cookie")
        }
        try await sameAnswer.copy(
            from: server.appendingPathComponent(String(APIPath.getSession.dropFirst())), cookie: cookie)
        let runner = WrkRunner(path: wrk, duration: duration, connections: connections, threads: threads)
        // Each route twice, interleaved, and the best run of each: the same treatment for the
        // routes and their baselines, whatever this machine's other load does meanwhile.
        var bareRuns: [WrkRunner.Result] = []
        var sameRuns: [WrkRunner.Result] = []
        var sessionRuns: [WrkRunner.Result] = []
        for _ in 0..<2 {
            bareRuns.append(try runner.run(url: "http://127.0.0.1:\(barePort)/bare", cookie: nil))
            sameRuns.append(try runner.run(url: "http://127.0.0.1:\(barePort)/bare-same-answer", cookie: cookie))
            sessionRuns.append(try runner.run(url: server.absoluteString + APIPath.getSession, cookie: cookie))
        }
        let best = { (runs: [WrkRunner.Result]) in runs.max { $0.requestsPerSecond < $1.requestsPerSecond } ?? runs[0] }
        let bareResult = best(bareRuns)
        let sessionResult = best(sessionRuns)
        let bareBest = bareResult.requestsPerSecond
        let sameBest = best(sameRuns).requestsPerSecond
        let runsText = { (runs: [WrkRunner.Result]) in
            runs.map { String(Int($0.requestsPerSecond)) }.joined(separator: ", ")
        }

        signInTimes.sort()
        let median = signInTimes[signInTimes.count / 2]
        let p99 = signInTimes[min(signInTimes.count - 1, Int((Double(signInTimes.count) * 0.99).rounded(.up)) - 1)]
        return """
            | measurement | value |
            |---|---:|
            | bare Hummingbird route, req/s (best of 2 runs) | \(Int(bareBest)) |
            | get-session (valid cookie, \(backendName)), req/s (best of 2) | \(Int(sessionResult.requestsPerSecond)) |
            | get-session ÷ bare | \(String(format: "%.0f%%", 100 * sessionResult.requestsPerSecond / bareBest)) |
            | bare route answering get-session's bytes and headers (\(sameAnswer.byteCount) B), req/s (best of 2) | \(Int(sameBest)) |
            | get-session ÷ that route | \(String(format: "%.0f%%", 100 * sessionResult.requestsPerSecond / sameBest)) |
            | get-session p50 / p99 latency | \(sessionResult.p50) / \(sessionResult.p99) |
            | bare route p50 / p99 latency | \(bareResult.p50) / \(bareResult.p99) |
            | sign-in latency median / p99 (\(signIns) sequential, scrypt N=16384 r=16) | \(format(median)) / \(format(p99)) |

            Runs in order, req/s: bare \(runsText(bareRuns)); same answer \(runsText(sameRuns)); get-session \(runsText(sessionRuns)).
            wrk: \(threads) thread(s), \(connections) connections, \(duration) s per run, loopback; get-session non-2xx: \(sessionRuns.map(\.non2xx).reduce(0, +)).
            """
    }

    private func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}

/// get-session's answer, copied once from the real server, for the second baseline route.
final class SameAnswer: Sendable {
    private struct Copy {
        var headers = HTTPFields()
        var body = ByteBuffer()
    }

    private let copied = Locked(Copy())

    var byteCount: Int { copied.withLock { $0.body.readableBytes } }

    func copy(from url: URL, cookie: String) async throws {
        var request = URLRequest(url: url)
        request.setValue(cookie, forHTTPHeaderField: "Cookie")
        let (data, answer) = try await URLSession.shared.data(for: request)
        guard let http = answer as? HTTPURLResponse, http.statusCode == 200, data.count > 100 else {
            throw CLIError("bench: get-session did not answer a session to copy")
        }
        var headers = HTTPFields()
        for name in ["Content-Type", "Cache-Control", "Pragma", "X-Request-Id"] {
            if let value = http.value(forHTTPHeaderField: name), let field = HTTPField.Name(name) {
                headers[field] = value
            }
        }
        copied.withLock { $0 = Copy(headers: headers, body: ByteBuffer(bytes: data)) }
    }

    func response() -> Response {
        copied.withLock { Response(status: .ok, headers: $0.headers, body: .init(byteBuffer: $0.body)) }
    }
}

/// Collects the ports the servers bound, for code that waits on them.
actor PortCollector {
    private var ports: [String: Int] = [:]
    private var waiters: [String: [CheckedContinuation<Int, Never>]] = [:]

    func add(_ name: String, _ port: Int) {
        ports[name] = port
        for waiter in waiters.removeValue(forKey: name) ?? [] { waiter.resume(returning: port) }
    }

    func wait(for name: String) async -> Int {
        if let port = ports[name] { return port }
        return await withCheckedContinuation { waiters[name, default: []].append($0) }
    }
}

/// A response body for the bare route: the same JSON encoder path as any small handler.
struct JSONResponseBody: ResponseGenerator {
    let data: Data

    init(_ value: some Encodable) throws { data = try JSONEncoder().encode(value) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
