import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import TandemServerStore

/// What the chain ingester keeps of an accepted transaction: the row kasia-indexer
/// (K-Kluster) would serve for it, by its rules, read from the payload's bytes as they are
/// (kasia-protocol §4 notes, §10).
///
/// The rules, as upstream applies them: the payload starts with `ciph_msg:` and something
/// follows. Without `1:` next, the rest is a legacy handshake. After `1:`, `payment:`,
/// `handshake:`, `comm:<alias>:` (the alias runs to the first `:`; without a second `:` the
/// transaction is skipped) and `self_stash:[<scope>:]` are kept, anything else (KaChat's `pay:`,
/// broadcasts, group operations, unknown operations) is skipped. Nothing in a body is checked:
/// the stored body is the bytes after the prefix, empty ones included. An alias is cut to 16
/// bytes and a scope to 255, as upstream stores them.
///
/// Where the server differs from upstream, by design: it keeps only accepted transactions (the
/// chain walk's), so a row always has its acceptance; the sender is the one the node reports
/// for the first input (`""` when it reports none) instead of resolved later; and a receiver is
/// kept for handshakes and payments only, as for relayed rows (nil when the first output is
/// missing or not a standard address, where upstream stores an empty address or fails).
enum KasiaChainRowReader {
    static let magic = Array("ciph_msg:".utf8)
    static let version1 = Array("1:".utf8)
    static let maxAliasBytes = 16
    static let maxScopeBytes = 255

    /// The indexer's operation for `payload`: its kind, tag bytes (alias or scope) and the
    /// stored body; nil when upstream skips it.
    static func operation(_ payload: [UInt8]) -> (kind: KasiaRecordKind, tag: [UInt8], body: [UInt8])? {
        guard payload.starts(with: magic) else { return nil }
        let rest = payload[magic.count...]
        guard !rest.isEmpty else { return nil }
        guard rest.starts(with: version1) else { return (.handshake, [], Array(rest)) }
        let operation = rest.dropFirst(version1.count)
        if let body = after("payment:", operation) { return (.payment, [], Array(body)) }
        if let body = after("handshake:", operation) { return (.handshake, [], Array(body)) }
        if let remaining = after("comm:", operation) {
            guard let colon = remaining.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let alias = remaining[..<colon].prefix(maxAliasBytes)
            return (.contextualMessage, Array(alias), Array(remaining[(colon + 1)...]))
        }
        if let remaining = after("self_stash:", operation) {
            guard let colon = remaining.firstIndex(of: UInt8(ascii: ":")) else {
                return (.selfStash, [], Array(remaining))
            }
            return (.selfStash, Array(remaining[..<colon].prefix(maxScopeBytes)), Array(remaining[(colon + 1)...]))
        }
        return nil
    }

    private static func after(_ prefix: String, _ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let prefix = Array(prefix.utf8)
        guard bytes.starts(with: prefix) else { return nil }
        return bytes.dropFirst(prefix.count)
    }

    /// The row for `transaction`, accepted by `acceptance`, or nil when it carries no indexed
    /// operation or no transaction id (a walk below level Low). `fallbackTime` is the
    /// accepting block's time, for a transaction without its including block's.
    static func row(
        _ transaction: RPCTransaction, acceptance: KasiaAcceptance, fallbackTime: UInt64, network: KaspaNetwork
    ) -> KasiaChainRow? {
        guard let payload = transaction.payload, let (kind, tag, body) = operation(payload),
            let verbose = transaction.verboseData, verbose.transactionId.count == 32
        else { return nil }
        let first = transaction.inputs.first
        let sender =
            first?.verboseData?.utxoEntry.flatMap { entry in
                entry.verboseData.map { canonical($0.scriptPublicKeyAddress) }
                    ?? entry.scriptPublicKey?.value.address(network: network)?.description
            } ?? ""
        var receiver: String?
        var amount: Int64 = 0
        if kind == .handshake || kind == .payment, let output = transaction.outputs.first {
            receiver =
                output.verboseData.map { canonical($0.scriptPublicKeyAddress) }
                ?? output.scriptPublicKey.value.address(network: network)?.description
            amount = Int64(clamping: output.value)
        }
        var signature = ""
        if let script = first?.signatureScript, script.count >= 65 { signature = Hex.encode(script[1..<65]) }
        let draft = KasiaRecordDraft(
            txID: Hex.encode(verbose.transactionId), kind: kind, sender: sender, receiver: receiver, amount: amount,
            tag: Hex.encode(tag), body: body, payload: payload, nonce: 0, signature: signature)
        let time = verbose.blockTime > 0 ? verbose.blockTime : fallbackTime
        return KasiaChainRow(draft: draft, blockTime: UnixMillis(Int64(clamping: time)), acceptance: acceptance)
    }

    /// The address as the relay stores addresses (canonical text), or the node's text when it
    /// does not parse.
    private static func canonical(_ text: String) -> String {
        (try? KaspaAddress(text))?.description ?? text
    }
}
