import BenchSupport
import Foundation
import Logging
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore

/// get-session where nothing is remembered (issue 49 item 6): many users, one session each, and a
/// load that sends each request with the next session's cookie, so no cookie comes back before
/// the server's caches have forgotten it. Every request takes the full path: the cookie's HMAC,
/// the token's SHA-256, the session row and the user row read from the database, and the JSON.
struct ColdSessions {
    /// The rows the server's caches hold at most: `SQLiteRowCache` (100,000 sessions, emptied
    /// when full) and `SessionAnswers` (10,000). A cookie asked again only after more distinct
    /// cookies than this were asked finds nothing remembered.
    static let largestCache = 100_000
    /// `SessionAnswers`' capacity. Between the two (`--sessions` over this and at most
    /// `largestCache`) every row stays in the row cache after the first pass and only the
    /// answers are forgotten: the design that keeps every session in memory.
    static let answerCache = 10_000

    let count: Int
    let secret: String
    /// Keeps this run's usernames and e-mails apart from an earlier run's in the same database.
    let runTag = String(UUID().uuidString.prefix(8)).lowercased()

    /// Seeds the users and sessions through a store of its own (so the server's store starts
    /// with nothing cached), `concurrency` writes in flight, and returns one `Cookie` header value
    /// per session in seeding order.
    func seed(_ backend: StorageBackend, logger: Logger, concurrency: Int = 8) async throws -> [String] {
        let store = try await StoreFactory.open(backend, logger: logger)
        let signer = CookieSigner(secret: secret)
        let clock = ContinuousClock()
        let start = clock.now
        return try await store.withServices {
            try await store.prepare()
            var cookies = [String](repeating: "", count: count)
            try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var next = 0
                var done = 0
                func add() {
                    let index = next
                    next += 1
                    group.addTask { (index, try await seedOne(index, in: store, signer: signer)) }
                }
                while next < min(concurrency, count) { add() }
                while let (index, cookie) = try await group.next() {
                    cookies[index] = cookie
                    done += 1
                    if done % max(1, count / 10) == 0 {
                        let seconds = (clock.now - start).seconds
                        let line =
                            "server: seeded \(done) of \(count) sessions (\(String(format: "%.0f", seconds)) s)\n"
                        FileHandle.standardError.write(Data(line.utf8))
                    }
                    if next < count { add() }
                }
            }
            return cookies
        }
    }

    /// One user with its credential account, chat profile and a remembered session, written as
    /// sign-up writes them (the password hash is a placeholder: nobody signs in as these users).
    private func seedOne(_ index: Int, in store: any ServerStore, signer: CookieSigner) async throws -> String {
        let now = Date()
        let id = "cold\(runTag)\(index)"
        let user = AuthUser(
            id: id, name: "Cold \(index)", email: "\(id)@example.com", emailVerified: false, image: nil,
            createdAt: now, updatedAt: now, username: id, displayUsername: id)
        let account = CredentialAccount(
            id: "account-\(id)", accountId: id, userID: AccountID(id), passwordHash: "00:00",
            createdAt: UnixMillis(now), updatedAt: UnixMillis(now))
        let profile = ChatProfile(userId: id, displayName: user.name, kaspaAddress: nil, publicKeys: [], updatedAt: now)
        try await store.createUser(user, account: account, profile: profile)
        let token = SessionToken.generate()
        let millis = UnixMillis(now)
        try await store.createSession(
            StoredSession(
                id: SessionID("session-\(id)"), tokenHash: token.hash, userID: AccountID(id),
                expiresAt: millis.advanced(by: .seconds(AuthCookie.sessionLifetimeSeconds)), createdAt: millis,
                updatedAt: millis, ipAddress: "", userAgent: "tandem-bench", rememberMe: true))
        return "\(AuthCookie.sessionTokenName)=\(signer.cookieValue(for: token))"
    }

    /// Writes the cookies, one per line, and the wrk script that sends request `n` with cookie
    /// `offset + n` (wrapping), for `wrk -s script URL -- cookies offset`.
    static func writeLoad(cookies: [String], in directory: URL) throws -> (script: String, cookies: String) {
        let cookiesURL = directory.appendingPathComponent("cold-cookies.txt")
        try Data((cookies.joined(separator: "\n") + "\n").utf8).write(to: cookiesURL)
        let scriptURL = directory.appendingPathComponent("cold-cookies.lua")
        let script = """
            local cookies = {}
            local count = 0
            local index = 0
            function init(args)
              for line in io.lines(args[1]) do
                if #line > 0 then
                  count = count + 1
                  cookies[count] = line
                end
              end
              index = tonumber(args[2]) or 0
            end
            function request()
              index = index % count + 1
              return wrk.format(nil, nil, { ["Cookie"] = cookies[index] })
            end
            """
        try Data(script.utf8).write(to: scriptURL)
        return (scriptURL.path, cookiesURL.path)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
