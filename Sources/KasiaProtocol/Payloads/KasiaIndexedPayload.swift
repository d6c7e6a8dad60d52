/// How a kasia-indexer files a transaction payload (kasia-protocol §4 notes, §10, §16), as KaChat's
/// indexer fork reads it: both roots, and KaChat's `pay:` payments beside the web's `payment:`.
/// The one reading the server's chain ingest and the simulated node's indexer share.
///
/// The rules: the payload starts with a root and something follows. Without `1:` next, the rest
/// is a legacy handshake (KaChat's unversioned `pay:` included: the indexer does not tell it
/// apart). After `1:`, `payment:` and `pay:`, `handshake:`, `comm:<alias>:` (the alias runs to
/// the first `:`; without a second `:` nothing is kept) and `self_stash:[<scope>:]` are kept;
/// anything else (broadcasts, group operations, unknown operations) is not. Nothing in a body is
/// checked: the stored body is the bytes after the prefix, as written. An alias is cut to 16
/// bytes and a scope to 255, as the indexer stores them.
public struct KasiaIndexedPayload: Sendable, Hashable {
    /// The indexer's table.
    public enum Kind: Sendable, Hashable {
        case handshake
        case contextualMessage
        case payment
        case selfStash
    }

    public static let maximumAliasBytes = 16
    public static let maximumScopeBytes = 255

    public var root: KasiaRoot
    public var kind: Kind
    /// The alias of a `comm` or the scope of a `self_stash` (empty without one), as written and
    /// cut to what the indexer keeps; empty for the other kinds.
    public var tag: [UInt8]
    /// What the indexer stores and serves as hex: the bytes after the operation's prefix.
    public var body: [UInt8]

    public init(root: KasiaRoot, kind: Kind, tag: [UInt8] = [], body: [UInt8]) {
        self.root = root
        self.kind = kind
        self.tag = tag
        self.body = body
    }

    /// The indexer's reading of `payload`, or nil when it keeps nothing for it.
    public init?(_ payload: some Collection<UInt8>) {
        let payload = Array(payload)
        guard let root = KasiaRoot(startOf: payload) else { return nil }
        let rest = payload[root.prefix.count...]
        guard !rest.isEmpty else { return nil }
        guard rest.starts(with: KasiaPayload.version1) else {
            self.init(root: root, kind: .handshake, body: Array(rest))
            return
        }
        let operation = rest.dropFirst(KasiaPayload.version1.count)
        func after(_ operationName: KasiaOperation) -> ArraySlice<UInt8>? {
            let prefix = operationName.prefix
            return operation.starts(with: prefix) ? operation.dropFirst(prefix.count) : nil
        }
        if let body = after(.payment) ?? after(.pay) {
            self.init(root: root, kind: .payment, body: Array(body))
        } else if let body = after(.handshake) {
            self.init(root: root, kind: .handshake, body: Array(body))
        } else if let remaining = after(.comm) {
            guard let colon = remaining.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            self.init(
                root: root, kind: .contextualMessage, tag: Array(remaining[..<colon].prefix(Self.maximumAliasBytes)),
                body: Array(remaining[(colon + 1)...]))
        } else if let remaining = after(.selfStash) {
            guard let colon = remaining.firstIndex(of: UInt8(ascii: ":")) else {
                self.init(root: root, kind: .selfStash, body: Array(remaining))
                return
            }
            self.init(
                root: root, kind: .selfStash, tag: Array(remaining[..<colon].prefix(Self.maximumScopeBytes)),
                body: Array(remaining[(colon + 1)...]))
        } else {
            return nil
        }
    }
}
