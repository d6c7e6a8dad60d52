public import KaspaCrypto
import TandemBasics

/// A kasia-indexer read route, at the root as K-Kluster's kasia-indexer serves them
/// (kasia-protocol §10); a Tandem server serves the same under `/kasia`.
public enum KasiaIndexRoute: String, Sendable, CaseIterable {
    case handshakesBySender = "/handshakes/by-sender"
    case handshakesByReceiver = "/handshakes/by-receiver"
    case contextualMessagesBySender = "/contextual-messages/by-sender"
    case paymentsBySender = "/payments/by-sender"
    case paymentsByReceiver = "/payments/by-receiver"
    case selfStashByOwner = "/self-stash/by-owner"
}

/// One request of a route, its query parameters read as kasia-indexer reads them
/// (kasia-protocol §10), by the server's `/kasia` routes and the simulated node's indexer alike:
/// `limit` defaults to 10 and is capped at 50, `block_time` (the inclusive cursor) to 0; the
/// address (`owner` for self-stashes) must be a Kaspa address; `alias` and `scope` are hex of their
/// bytes (either case), at most 32 and 510 characters. The refusals are kasia-indexer's texts.
public struct KasiaIndexRequest: Sendable, Hashable {
    public static let defaultLimit = 10
    public static let maximumLimit = 50
    public static let maximumAliasHexLength = 32
    public static let maximumScopeHexLength = 510

    public let route: KasiaIndexRoute
    public let selection: KasiaIndexSelection
    public let blockTime: UInt64
    public let limit: Int
    /// The parameter the rows echo as given: `alias` for contextual messages, `scope` for
    /// self-stashes, `address` for payments by sender.
    public let echo: String?

    /// How the route's rows present the echoed parameter.
    public var presentation: KasiaIndexPresentation {
        switch route {
        case .contextualMessagesBySender: KasiaIndexPresentation(aliasEcho: echo)
        case .selfStashByOwner: KasiaIndexPresentation(scopeEcho: echo)
        case .paymentsBySender: KasiaIndexPresentation(paymentSenderEcho: echo)
        default: .stored
        }
    }

    /// Reads a query string's `pairs` for `route`, as the indexer does: the first value of each
    /// name counts.
    public init(_ route: KasiaIndexRoute, pairs: some Sequence<(String, String)>)
        throws(KasiaIndexRequestError)
    {
        var parameters: [String: String] = [:]
        for (name, value) in pairs where parameters[name] == nil { parameters[name] = value }
        try self.init(route, parameters: parameters)
    }

    /// Reads `parameters` (the first value of each name) for `route`.
    public init(_ route: KasiaIndexRoute, parameters: [String: String]) throws(KasiaIndexRequestError) {
        self.route = route
        func number(_ name: String) throws(KasiaIndexRequestError) -> UInt64? {
            guard let text = parameters[name] else { return nil }
            guard let value = UInt64(text) else { throw .invalidNumber(name: name, text: text) }
            return value
        }
        limit = Int(min(try number("limit") ?? UInt64(Self.defaultLimit), UInt64(Self.maximumLimit)))
        blockTime = try number("block_time") ?? 0
        func required(_ name: String) throws(KasiaIndexRequestError) -> String {
            guard let text = parameters[name] else { throw .missingParameter(name) }
            return text
        }
        func address(_ name: String) throws(KasiaIndexRequestError) -> KaspaAddress {
            let text = try required(name)
            do { return try KaspaAddress(text) } catch { throw .invalidAddress(text, reason: error.description) }
        }
        func hexBytes(_ name: String, maximumLength: Int) throws(KasiaIndexRequestError) -> (String, [UInt8]) {
            let text = try required(name)
            guard text.utf8.count <= maximumLength else { throw .hexTooLong(name: name, maximum: maximumLength) }
            do { return (text, try Hex.decode(text.lowercased())) } catch {
                throw .invalidHex(reason: error.description)
            }
        }
        switch route {
        case .handshakesBySender, .handshakesByReceiver, .paymentsBySender, .paymentsByReceiver:
            let party = try address("address")
            selection =
                switch route {
                case .handshakesBySender: .handshakesBySender(party)
                case .handshakesByReceiver: .handshakesByReceiver(party)
                case .paymentsBySender: .paymentsBySender(party)
                default: .paymentsByReceiver(party)
                }
            echo = route == .paymentsBySender ? parameters["address"] : nil
        case .contextualMessagesBySender:
            let sender = try address("address")
            let (text, alias) = try hexBytes("alias", maximumLength: Self.maximumAliasHexLength)
            selection = .contextualMessagesBySender(sender, alias: alias)
            echo = text
        case .selfStashByOwner:
            let owner = try address("owner")
            let (text, scope) = try hexBytes("scope", maximumLength: Self.maximumScopeHexLength)
            selection = .selfStashesByOwner(owner, scope: scope)
            echo = text
        }
    }
}

/// Why a route's query parameters cannot be read: a 400 with kasia-indexer's text.
public enum KasiaIndexRequestError: Error, Equatable, Sendable, CustomStringConvertible {
    case missingParameter(String)
    case invalidNumber(name: String, text: String)
    case invalidAddress(String, reason: String)
    /// `alias` or `scope` longer than the indexer accepts.
    case hexTooLong(name: String, maximum: Int)
    /// `alias` or `scope` not hex (odd length or a bad digit).
    case invalidHex(reason: String)

    public var description: String {
        switch self {
        case .missingParameter(let name): "Failed to deserialize query string: missing field `\(name)`"
        case .invalidNumber(let name, let text):
            "Failed to deserialize query string: \(name): '\(text)' is not a non-negative integer"
        case .invalidAddress(_, let reason): "Invalid address: \(reason)"
        case .hexTooLong(let name, let maximum):
            "\(name.prefix(1).uppercased() + name.dropFirst()) hex length cannot exceed \(maximum) characters"
        // kasia-indexer names the alias for a bad scope too.
        case .invalidHex(let reason): "Invalid alias hex: \(reason)"
        }
    }
}
