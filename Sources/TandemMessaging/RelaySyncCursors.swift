public import Foundation
import SecretFiles

/// The messaging service's position in every relay route it reads (kasia-protocol §10 paging),
/// kept in the profile's ``Profile/File/relayCursors`` so a restart resumes instead of
/// re-reading history. Losing the file costs only a re-read: every row is de-duplicated by
/// `tx_id` on the way in.
public struct RelaySyncCursors: Sendable, Equatable, Codable {
    /// Keyed by ``Route/key``.
    public var routes: [String: IndexerCursor]
    /// The last `id:` of the live stream, for `Last-Event-ID` after a restart.
    public var lastEventID: String?

    public init(routes: [String: IndexerCursor] = [:], lastEventID: String? = nil) {
        self.routes = routes
        self.lastEventID = lastEventID
    }

    /// One indexer route with its parameters.
    public enum Route: Sendable, Hashable {
        case handshakesToMe
        /// Our own handshakes (their placeholder rows, kasia-protocol §8).
        case handshakesFromMe
        case savedHandshakes
        case paymentsToMe
        /// A peer's messages on one alias we watch.
        case messages(sender: String, aliasHex: String)
        /// Our own messages on one of our send aliases.
        case ownMessages(aliasHex: String)

        public var key: String {
            switch self {
            case .handshakesToMe: "handshakes/by-receiver"
            case .handshakesFromMe: "handshakes/by-sender"
            case .savedHandshakes: "self-stash/saved_handshake"
            case .paymentsToMe: "payments/by-receiver"
            case .messages(let sender, let alias): "contextual-messages/\(sender)/\(alias)"
            case .ownMessages(let alias): "contextual-messages/self/\(alias)"
            }
        }
    }

    public subscript(route: Route) -> IndexerCursor {
        get { routes[route.key] ?? .start }
        set { routes[route.key] = newValue }
    }

    /// Reads the file; a missing file is a fresh start.
    public static func load(from url: URL) throws -> RelaySyncCursors {
        guard FileManager.default.fileExists(atPath: url.path) else { return RelaySyncCursors() }
        return try JSONDecoder().decode(RelaySyncCursors.self, from: Data(contentsOf: url))
    }

    /// Replaces the file atomically, so a crash leaves the old cursors or the new ones.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try SecretFile.replace(url, contents: try encoder.encode(self), durably: false)
    }
}
