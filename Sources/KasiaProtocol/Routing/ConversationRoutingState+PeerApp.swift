public import TandemBasics

/// Which app a peer runs, as far as its payloads show (issue 43 item 3): it decides the form of
/// a payment memo, since KaChat reads only `pay:` and Kasia web only `payment:`.
public enum PeerApp: String, Sendable, Codable, CaseIterable {
    case kachat
    case kasiaWeb = "kasia_web"
}

/// The app a peer's newest telling payload came from, and that payload's block time.
public struct PeerAppEvidence: Sendable, Equatable, Codable {
    public var app: PeerApp
    public var at: UnixMillis

    public init(app: PeerApp, at: UnixMillis) {
        self.app = app
        self.at = at
    }
}

extension ConversationRoutingState {
    /// Records that a payload of the peer's at `time` came from `app`; older evidence never
    /// replaces newer (rows arrive out of order).
    public mutating func recordApp(_ app: PeerApp, at time: UnixMillis) {
        if let current = peerApp, time < current.at { return }
        peerApp = PeerAppEvidence(app: app, at: time)
    }

    /// The payment form this peer reads (kasia-protocol §4, §5.3): Kasia web's `payment:` (the
    /// sealed memo as hex text, its amount in KAS) where the evidence says web, else KaChat's
    /// `pay:` (binary, the amount in sompi).
    public var paymentForm: KasiaPayload.PaymentForm {
        peerApp?.app == .kasiaWeb ? .web(.hex) : .kachat
    }
}

extension HandshakePayload {
    /// The app whose handshake `plaintext` is: KaChat writes each camelCase member again in
    /// snake_case (`conversation_id`, `recipient_address`, `send_to_recipient`, `is_response`;
    /// kasia-protocol §5.1), Kasia web never does. Nil when it is not a handshake object.
    public static func app(ofPlaintext plaintext: String) -> PeerApp? {
        var text = Substring(plaintext)
        if let prefix = envelopePrefixes.first(where: { text.hasPrefix($0) }) { text = text.dropFirst(prefix.count) }
        guard let object = try? parseObject(text) else { return nil }
        let kachatOnly = ["conversation_id", "recipient_address", "send_to_recipient", "is_response"]
        return kachatOnly.contains { object[$0] != nil } ? .kachat : .kasiaWeb
    }
}
