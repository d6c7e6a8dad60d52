public import Foundation
import SecretFiles
public import TandemProfile

/// The BetterAuth cookies of one profile, kept in `session-cookies.json` (0600) in the profile
/// directory so a session survives restarts. Like the Expo client (betterauth-api.md §5): only
/// cookies named `better-auth.*` (optionally `__Secure-`) are kept; `Max-Age` wins over
/// `Expires`; `Max-Age<=0` or a past expiry deletes; expired cookies are never sent.
///
/// The cookies are bound to the origin that set them (issue 14 audit: `--server http://other`
/// sent the saved session there): the file is `{"origin": …, "cookies": {…}}`, and cookies are
/// only read for that origin. A file in the earlier format (the cookie map alone) is bound to
/// nothing, so its session is never sent and the user signs in again.
public struct SessionCookieStore: Sendable {
    public struct StoredCookie: Codable, Sendable, Equatable {
        public var value: String
        /// nil for a browser-session cookie (kept until sign-out on this device).
        public var expiresAt: Date?
    }

    /// The file's shape: the origin the cookies came from, and the cookies.
    private struct SavedSession: Codable {
        var origin: String
        var cookies: [String: StoredCookie]
    }

    /// Whose cookies the file holds.
    public enum Binding: Sendable, Equatable {
        /// No saved session.
        case none
        /// Cookies set by this origin (`scheme://host[:port]`).
        case origin(String)
        /// A file written before sessions were bound to their server.
        case unbound
    }

    /// Where the cookies live in a plain profile (a protected one keeps them in its keystore).
    public let fileURL: URL
    private let vault: ProfileVault
    private var name: String { Profile.File.sessionCookies.rawValue }

    public init(profile: Profile) {
        fileURL = profile.url(.sessionCookies)
        vault = profile.vault
    }

    /// Which origin the saved cookies belong to. A file that is not the JSON this store
    /// writes is ``ProfileError/corruptFile(path:reason:)``, never an empty session.
    public func binding() throws(ProfileError) -> Binding {
        switch try read() {
        case nil: .none
        case let saved?: saved.origin.map(Binding.origin) ?? .unbound
        }
    }

    /// Cookies `origin` set that are still valid at `now`; none when there is no file or the
    /// file holds another origin's (or an unbound) session.
    public func load(for origin: String, now: Date) throws(ProfileError) -> [String: StoredCookie] {
        guard let saved = try read(), saved.origin == origin else { return [:] }
        return saved.cookies.filter { $0.value.expiresAt.map { $0 > now } ?? true }
    }

    /// The `Cookie` header for a request to `origin`, or nil when it has no live cookie here.
    public func cookieHeader(for origin: String, now: Date) throws(ProfileError) -> String? {
        let cookies = try load(for: origin, now: now)
        guard !cookies.isEmpty else { return nil }
        return cookies.keys.sorted().compactMap { name in cookies[name].map { "\(name)=\($0.value)" } }.joined(
            separator: "; ")
    }

    /// Applies the `Set-Cookie` values of a response from `origin`; cookies from another
    /// origin than the saved one replace the saved session rather than joining it.
    public func apply(setCookies: [String], from origin: String, now: Date) throws(ProfileError) {
        guard !setCookies.isEmpty else { return }
        var cookies = try load(for: origin, now: now)
        var changed = false
        for line in setCookies {
            let parts = line.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let first = parts.first, let equals = first.firstIndex(of: "=") else { continue }
            let name = String(first[..<equals])
            let bare = name.hasPrefix("__Secure-") ? String(name.dropFirst("__Secure-".count)) : name
            guard bare.hasPrefix("better-auth") else { continue }
            let value = String(first[first.index(after: equals)...])
            var maxAge: Int?
            var expires: Date?
            for attribute in parts.dropFirst() {
                let pair = attribute.split(separator: "=", maxSplits: 1).map(String.init)
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "max-age": maxAge = Int(pair[1])
                case "expires": expires = Self.httpDate(pair[1])
                default: break
                }
            }
            let expiry = maxAge.map { now.addingTimeInterval(TimeInterval($0)) } ?? expires
            changed = true
            if value.isEmpty || (expiry.map { $0 <= now } ?? false) {
                cookies[name] = nil
            } else {
                cookies[name] = StoredCookie(value: value, expiresAt: expiry)
            }
        }
        if changed { try save(cookies, origin: origin) }
    }

    /// Forgets every cookie (sign-out, or the server said 401).
    public func clear() throws(ProfileError) {
        try vault.use { [name] store throws(SecretStoreError) in try store.remove(name) }
    }

    /// The file's origin (nil for the unbound earlier format) and cookies, or nil with no file.
    private func read() throws(ProfileError) -> (origin: String?, cookies: [String: StoredCookie])? {
        guard let data = try vault.use({ [name] store throws(SecretStoreError) in try store.secret(name) }) else {
            return nil
        }
        if let saved = try? Self.decoder.decode(SavedSession.self, from: data) { return (saved.origin, saved.cookies) }
        if let legacy = try? Self.decoder.decode([String: StoredCookie].self, from: data) { return (nil, legacy) }
        throw .corruptFile(path: fileURL.path, reason: "not a saved session (\(data.count) bytes)")
    }

    private func save(_ cookies: [String: StoredCookie], origin: String) throws(ProfileError) {
        if cookies.isEmpty { return try clear() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let data: Data
        do { data = try encoder.encode(SavedSession(origin: origin, cookies: cookies)) } catch {
            throw .fileSystem(path: fileURL.path, reason: "cannot encode cookies")
        }
        try vault.use { [name] store throws(SecretStoreError) in try store.set(name, data) }
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}

extension Profile {
    /// The session cookies of the accounts client (``Profile/File/sessionCookies``).
    public var sessionCookies: SessionCookieStore { SessionCookieStore(profile: self) }
}
