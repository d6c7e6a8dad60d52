import BenchSupport
import Foundation
import TandemAPI
import TandemServer
import TandemServerStore

extension BenchServerCommand {
    /// get-session with a different cookie per request (`ColdSessions`) against the bare routes
    /// under the same load: the same wrk script sends the bare routes the rotating cookies too,
    /// so the client's per-request work is the same on both sides.
    func measureCold(
        cookies: [String], store: any ServerStore, rawReader: RawSessionReader?, secret: String, wrk: String,
        tandemPort: Int, barePort: Int,
        sameAnswer: SameAnswer, directory: URL
    ) async throws -> String {
        guard let server = URL(string: "http://127.0.0.1:\(tandemPort)") else {
            throw CLIError("bench: bad port \(tandemPort)")
        }
        let getSession = server.appendingPathComponent(String(APIPath.getSession.dropFirst()))
        // Seeded cookies resolve (the copy throws on anything but a 200 session answer); the
        // last one's answer is what the same-answer route sends.
        for index in [0, cookies.count / 2, cookies.count - 1] {
            try await sameAnswer.copy(from: getSession, cookie: cookies[index])
        }
        let load = try ColdSessions.writeLoad(cookies: cookies, in: directory)
        let runner = WrkRunner(path: wrk, duration: duration, connections: connections, threads: threads)
        func run(_ url: String, from offset: Int) throws -> WrkRunner.Result {
            try runner.run(url: url, cookie: nil, script: load.script, scriptArguments: [load.cookies, "\(offset)"])
        }
        var bareRuns: [WrkRunner.Result] = []
        var sameRuns: [WrkRunner.Result] = []
        var sessionRuns: [WrkRunner.Result] = []
        var queryRuns: [WrkRunner.Result] = []
        var readRuns: [WrkRunner.Result] = []
        var rawRuns: [WrkRunner.Result] = []
        // Each get-session run goes on where the last run that read sessions stopped (plus the
        // requests wrk had in flight), so a cookie is asked again only after every other seeded
        // cookie was: more than the largest cache holds, which empties itself when full.
        var offset = cookies.count - 1
        for _ in 0..<2 {
            bareRuns.append(try run("http://127.0.0.1:\(barePort)/bare", from: 0))
            sameRuns.append(try run("http://127.0.0.1:\(barePort)/bare-same-answer", from: 0))
            if databaseURL != nil { queryRuns.append(try run("http://127.0.0.1:\(barePort)/bare-one-query", from: 0)) }
            let result = try run(server.absoluteString + APIPath.getSession, from: offset)
            sessionRuns.append(result)
            offset = (offset + result.requests + connections) % cookies.count
            // The reads alone go on from there, so no cookie is read again, by either route,
            // before every other seeded cookie was.
            let read = try run("http://127.0.0.1:\(barePort)/bare-one-read", from: offset)
            readRuns.append(read)
            offset = (offset + read.requests + connections) % cookies.count
            if databaseURL == nil {
                let raw = try run("http://127.0.0.1:\(barePort)/bare-raw-read", from: offset)
                rawRuns.append(raw)
                offset = (offset + raw.requests + connections) % cookies.count
            }
        }
        let steps = try await Self.coldSteps(
            cookies: cookies, from: offset, count: min(20_000, cookies.count / 8), store: store, rawReader: rawReader,
            secret: secret)
        let failed = (sessionRuns + readRuns + rawRuns).map(\.non2xx).reduce(0, +)
        guard failed == 0 else { throw CLIError("bench: \(failed) answers of get-session or its reads were not 2xx") }
        // A cookie that did not resolve is answered `null`: far smaller than a session answer.
        let smallest = sessionRuns.map(\.bytesPerRequest).min() ?? 0
        guard smallest >= 0.9 * Double(sameAnswer.byteCount) else {
            throw CLIError(
                "bench: get-session answers averaged \(Int(smallest)) bytes, under the \(sameAnswer.byteCount)-byte session answer: some cookies did not resolve"
            )
        }
        let best = { (runs: [WrkRunner.Result]) in runs.max { $0.requestsPerSecond < $1.requestsPerSecond } ?? runs[0] }
        let bareBest = best(bareRuns).requestsPerSecond
        let sameBest = best(sameRuns).requestsPerSecond
        let session = best(sessionRuns)
        let total = (sessionRuns + readRuns + rawRuns).map(\.requests).reduce(0, +)
        let runsText = { (runs: [WrkRunner.Result]) in
            runs.map { String(Int($0.requestsPerSecond)) }.joined(separator: ", ")
        }
        let cpu = { (runs: [WrkRunner.Result]) in
            runs.map { String(format: "%.0f", $0.cpuMicrosecondsPerRequest) }.joined(separator: ", ")
        }
        let ratio = { (value: Double, base: Double) in String(format: "%.2f×", value / base) }
        let queryRows =
            queryRuns.isEmpty
            ? ""
            : """
            | the same answer after one `SELECT 1` round trip, req/s (best of 2): the floor of asking the database once per request | \(Int(best(queryRuns).requestsPerSecond)) |
            | get-session ÷ that route | \(ratio(session.requestsPerSecond, best(queryRuns).requestsPerSecond)) |

            """
        let rawRows =
            rawRuns.isEmpty
            ? ""
            : """
            | the same answer after the cookie check and the same joined statement through SQLite's C API (no GRDB, no cache), req/s (best of 2): the floor of reading SQLite per request | \(Int(best(rawRuns).requestsPerSecond)) |
            | that floor ÷ bare | \(ratio(best(rawRuns).requestsPerSecond, bareBest)) |
            | get-session ÷ that floor | \(ratio(session.requestsPerSecond, best(rawRuns).requestsPerSecond)) |

            """
        return """
            | measurement (\(backendName), a different cookie per request) | value |
            |---|---:|
            | bare Hummingbird route, req/s (best of 2) | \(Int(bareBest)) |
            | get-session, every request a session not asked for in the last \(cookies.count - 1)\(cookies.count > ColdSessions.largestCache ? "" : " (its rows in the row cache after the first pass)"), req/s (best of 2) | \(Int(session.requestsPerSecond)) |
            | get-session ÷ bare | \(ratio(session.requestsPerSecond, bareBest)) |
            | bare route answering get-session's bytes and headers (\(sameAnswer.byteCount) B), req/s (best of 2) | \(Int(sameBest)) |
            | get-session ÷ that route | \(ratio(session.requestsPerSecond, sameBest)) |
            | the same answer after get-session's cookie check and its one read, req/s (best of 2) | \(Int(best(readRuns).requestsPerSecond)) |
            | get-session ÷ that route | \(ratio(session.requestsPerSecond, best(readRuns).requestsPerSecond)) |
            | that route ÷ bare | \(ratio(best(readRuns).requestsPerSecond, bareBest)) |
            \(rawRows)\(queryRows)| p50 / p99 latency: get-session; bare | \(session.p50) / \(session.p99); \(best(bareRuns).p50) / \(best(bareRuns).p99) |
            | the full path's steps alone, µs per request (this process, one at a time, \(steps.count) sessions not read since the runs' caches were filled): cookie HMAC + token hash / both rows in one read / the two rows read one after the other\(rawReader == nil ? "" : " / the joined statement through SQLite's C API") | \(steps.text) |
            | server CPU per request, µs: bare / same answer /\(rawRuns.isEmpty ? "" : " cookie check and C read /") cookie check and read / get-session (this process, wrk apart) | \(cpu(bareRuns)) / \(cpu(sameRuns)) /\(rawRuns.isEmpty ? "" : " " + cpu(rawRuns) + " /") \(cpu(readRuns)) / \(cpu(sessionRuns)) |

            Runs in order, req/s: bare \(runsText(bareRuns)); same answer \(runsText(sameRuns));\(queryRuns.isEmpty ? "" : " one query " + runsText(queryRuns) + ";") cookie check and read \(runsText(readRuns));\(rawRuns.isEmpty ? "" : " cookie check and C read " + runsText(rawRuns) + ";") get-session \(runsText(sessionRuns)).
            Sessions seeded: \(cookies.count) (one user each); requests that read a session (get-session and the reads alone, both runs): \(total) (\(String(format: "%.2f", Double(total) / Double(cookies.count))) per session, each cookie sent again only after all \(cookies.count - 1) others); mean answer \(Int(session.bytesPerRequest)) B with headers.
            wrk: \(threads) thread(s), \(connections) connections, \(duration) s per run, loopback, a Lua script choosing each request's cookie (the bare routes are sent the same cookies).
            """
    }

    /// Times the steps of get-session's full path one after another, outside the HTTP server, on
    /// cookies the runs have not reached yet (or reached longest ago): the cookie's check, then
    /// both rows in one read (what the route does), then, on `count` other cookies, the two rows
    /// read one after the other (the route before issue 49's session 46), and, with a raw reader, the
    /// joined statement through SQLite's C API on a third `count`.
    static func coldSteps(
        cookies: [String], from offset: Int, count: Int, store: any ServerStore, rawReader: RawSessionReader?,
        secret: String
    ) async throws -> (count: Int, text: String) {
        let signer = CookieSigner(secret: secret)
        let prefix = AuthCookie.sessionTokenName + "="
        let slices = rawReader == nil ? 2 : 3
        let values = (0..<(slices * count)).map {
            String(cookies[(offset + $0) % cookies.count].dropFirst(prefix.count))
        }
        let clock = ContinuousClock()
        var hashes: [SessionTokenHash] = []
        hashes.reserveCapacity(values.count)
        let verify = clock.measure {
            for value in values { if let token = signer.token(fromCookieValue: value) { hashes.append(token.hash) } }
        }
        guard hashes.count == values.count else { throw CLIError("bench: a seeded cookie did not verify") }
        var start = clock.now
        var found = 0
        for hash in hashes[..<count] where try await store.sessionWithUser(tokenHash: hash)?.user != nil { found += 1 }
        let joined = clock.now - start
        start = clock.now
        for hash in hashes[count..<(2 * count)] {
            if let session = try await store.session(tokenHash: hash), try await store.user(id: session.userID) != nil {
                found += 1
            }
        }
        let separate = clock.now - start
        var raw: Duration?
        if let rawReader {
            start = clock.now
            for hash in hashes[(2 * count)...] where try rawReader.sessionHasUser(tokenHashHex: hash.hex) { found += 1 }
            raw = clock.now - start
        }
        guard found == values.count else { throw CLIError("bench: a seeded session or user was not found") }
        let micros = { (time: Duration, runs: Int) in
            let total = Double(time.components.seconds) * 1e6 + Double(time.components.attoseconds) / 1e12
            return String(format: "%.1f", total / Double(runs))
        }
        let rawText = raw.map { " / " + micros($0, count) } ?? ""
        return (
            count, "\(micros(verify, values.count)) / \(micros(joined, count)) / \(micros(separate, count))\(rawText)"
        )
    }
}
