import Foundation
import KaspaCrypto

extension KasiaPayload {
    /// The scope KaChat writes for the handshake it stashes for itself.
    public static let savedHandshakeScope = "saved_handshake"

    /// The bytes KaChat writes for this payload today: binary sealed bodies after
    /// `handshake:`, `pay:` and `self_stash:`, standard padded base64 after `comm:<alias>:`.
    ///
    /// The web-only forms are written in their own encoding so a parsed payload re-encodes to
    /// what was on chain.
    public var encoded: [UInt8] {
        var out = Self.magic
        switch self {
        case .handshake(let sealed):
            out += Self.version1 + Array("handshake:".utf8) + sealed
        case .contextualMessage(let alias, let sealed, let encoding):
            out += Self.version1 + Array("comm:\(alias.rawValue):".utf8)
            out += encoding == .hex ? Array(Hex.encode(sealed).utf8) : Array(Data(sealed).base64EncodedString().utf8)
        case .payment(let sealed, .kachat):
            out += Self.version1 + Array("pay:".utf8) + sealed
        case .payment(let sealed, .web(let encoding)):
            out += Self.version1 + Array("payment:".utf8)
            out += encoding == .hex ? Array(Hex.encode(sealed).utf8) : sealed
        case .payment(let sealed, .unversioned):
            out += Array("pay:".utf8) + sealed
        case .selfStash(let scope, let sealed):
            out += Self.version1 + Array("self_stash:".utf8)
            if let scope { out += Array("\(scope):".utf8) }
            out += sealed
        case .broadcast(let channel, let text):
            out += Self.version1 + Array("bcast:\(channel):\(text)".utf8)
        case .legacy(let sealed):
            out += sealed
        }
        return out
    }

    /// What the Kasia indexer stores for this payload (its `message_payload` / `stashed_data`
    /// field decoded from hex): the body after the operation prefix, as written on chain.
    public var indexerStoredBody: [UInt8] {
        let full = encoded
        let prefixLength: Int
        switch self {
        case .handshake: prefixLength = Self.magic.count + Self.version1.count + "handshake:".utf8.count
        case .contextualMessage(let alias, _, _):
            prefixLength = Self.magic.count + Self.version1.count + "comm:\(alias.rawValue):".utf8.count
        case .payment(_, .kachat): prefixLength = Self.magic.count + Self.version1.count + "pay:".utf8.count
        case .payment(_, .web): prefixLength = Self.magic.count + Self.version1.count + "payment:".utf8.count
        case .payment(_, .unversioned): prefixLength = Self.magic.count + "pay:".utf8.count
        case .selfStash(let scope, _):
            prefixLength = Self.magic.count + Self.version1.count + "self_stash:".utf8.count
                + (scope.map { $0.utf8.count + 1 } ?? 0)
        case .broadcast(let channel, _):
            prefixLength = Self.magic.count + Self.version1.count + "bcast:\(channel):".utf8.count
        case .legacy: prefixLength = Self.magic.count
        }
        return Array(full[prefixLength...])
    }
}

extension Alias {
    /// The indexer's `alias` query parameter: hex of the alias's UTF-8 bytes (kasia-protocol §10).
    public var indexerQueryParameter: String { Hex.encode(rawValue.utf8) }
}
