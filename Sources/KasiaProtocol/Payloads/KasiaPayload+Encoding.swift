import Foundation
import KaspaCrypto
import TandemBasics

extension KasiaPayload {
    /// The scope KaChat writes for the handshake it stashes for itself.
    public static let savedHandshakeScope = "saved_handshake"

    /// The bytes KaChat writes for this payload today under `root`: binary sealed bodies
    /// after `handshake:`, `pay:` and `self_stash:`, standard padded base64 after
    /// `comm:<alias>:`.
    ///
    /// The web-only forms are written in their own encoding so a parsed payload re-encodes to
    /// what was on chain.
    public func encoded(root: KasiaRoot) -> [UInt8] { root.prefix + operationPrefix + indexerStoredBody }

    /// Everything between the root and the body: the version and the operation with its
    /// alias, scope or channel.
    var operationPrefix: [UInt8] {
        let versioned = Self.version1
        switch self {
        case .handshake: return versioned + KasiaOperation.handshake.prefix
        case .contextualMessage(let alias, _, _):
            return versioned + KasiaOperation.comm.prefix + Array("\(alias.rawValue):".utf8)
        case .payment(_, .kachat): return versioned + KasiaOperation.pay.prefix
        case .payment(_, .web): return versioned + KasiaOperation.payment.prefix
        case .payment(_, .unversioned): return KasiaOperation.pay.prefix
        case .selfStash(let scope, _):
            return versioned + KasiaOperation.selfStash.prefix + Array((scope.map { $0 + ":" } ?? "").utf8)
        case .broadcast(let channel, _): return versioned + KasiaOperation.broadcast.prefix + Array("\(channel):".utf8)
        case .legacy: return []
        }
    }

    /// What the Kasia indexer stores for this payload (its `message_payload` / `stashed_data`
    /// field decoded from hex): the body after the operation prefix, as written on chain.
    public var indexerStoredBody: [UInt8] {
        switch self {
        case .handshake(let sealed), .payment(let sealed, .kachat), .payment(let sealed, .unversioned),
            .selfStash(_, let sealed), .legacy(let sealed):
            return sealed
        case .contextualMessage(_, let sealed, let encoding):
            return encoding == .hex ? Array(Hex.encode(sealed).utf8) : Array(Data(sealed).base64EncodedString().utf8)
        case .payment(let sealed, .web(let encoding)):
            return encoding == .hex ? Array(Hex.encode(sealed).utf8) : sealed
        case .broadcast(_, let text):
            return Array(text.utf8)
        }
    }
}

extension Alias {
    /// The indexer's `alias` query parameter: hex of the alias's UTF-8 bytes (kasia-protocol §10).
    public var indexerQueryParameter: String { Hex.encode(rawValue.utf8) }
}
