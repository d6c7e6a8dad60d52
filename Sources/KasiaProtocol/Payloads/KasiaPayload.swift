/// One Kaspa transaction payload in the Kasia protocol (kasia-protocol §4), without its root:
/// the bytes after `ciph_msg:` or `kchat:` are the same under both (§16), so the cases below
/// name the `ciph_msg:` forms and ``KasiaEnvelope`` (or ``encoded(root:)``) adds the root.
///
/// Parsing accepts every form a client has written, under either root; building writes exactly
/// what KaChat writes today (binary sealed bodies, base64 `comm` bodies).
public enum KasiaPayload: Sendable, Equatable {
    /// `ciph_msg:1:handshake:` + sealed handshake JSON, encrypted to the recipient.
    case handshake(sealed: [UInt8])
    /// `ciph_msg:1:comm:<alias>:` + sealed message text. The alias tags the conversation.
    case contextualMessage(alias: Alias, sealed: [UInt8], encoding: BodyEncoding)
    /// A payment memo: `ciph_msg:1:pay:` (KaChat), `ciph_msg:1:payment:` (web) or the
    /// unversioned `ciph_msg:pay:` that KaChat's decoder also reads.
    case payment(sealed: [UInt8], form: PaymentForm)
    /// `ciph_msg:1:self_stash:[<scope>:]` + sealed data encrypted to the sender's own address.
    case selfStash(scope: String?, sealed: [UInt8])
    /// `ciph_msg:1:bcast:<channel>:` + plaintext (newer web only).
    case broadcast(channel: String, text: String)
    /// `ciph_msg:` + sealed bytes with no version: old web's handshake or message, whose
    /// plaintext may itself start with `ciph_msg:1:handshake:`.
    case legacy(sealed: [UInt8])

    /// How a body's sealed bytes were written on chain.
    public enum BodyEncoding: String, Sendable, Equatable {
        case binary
        case hex
        case base64
    }

    /// Which payment prefix carried the memo.
    public enum PaymentForm: Sendable, Equatable {
        /// `ciph_msg:1:pay:` with binary sealed bytes (KaChat).
        case kachat
        /// `ciph_msg:1:payment:` with hex text (Aug-2025 web) or binary (newer web parser).
        case web(BodyEncoding)
        /// `ciph_msg:pay:` without a version (read by KaChat as a legacy payment).
        case unversioned
    }

    /// The sealed bytes, for every kind that has them.
    public var sealed: [UInt8]? {
        switch self {
        case .handshake(let s), .contextualMessage(_, let s, _), .payment(let s, _), .selfStash(_, let s),
            .legacy(let s):
            s
        case .broadcast: nil
        }
    }

    /// The name used in the CLI's JSON and the vectors' `kind`: the operation's wire string,
    /// except `broadcast` and `legacy` (no operation), and `payment` for both payment prefixes.
    public var kindName: String {
        switch self {
        case .handshake: KasiaOperation.handshake.rawValue
        case .contextualMessage: KasiaOperation.comm.rawValue
        case .payment: KasiaOperation.payment.rawValue
        case .selfStash: KasiaOperation.selfStash.rawValue
        case .broadcast: "broadcast"
        case .legacy: "legacy"
        }
    }
}

extension KasiaPayload.PaymentForm {
    /// The name of the form in the CLI's JSON (`payment_form`): the operation that carried the
    /// memo, `unversioned_pay` for `ciph_msg:pay:`.
    public var name: String {
        switch self {
        case .kachat: KasiaOperation.pay.rawValue
        case .web: KasiaOperation.payment.rawValue
        case .unversioned: "unversioned_" + KasiaOperation.pay.rawValue
        }
    }
}
