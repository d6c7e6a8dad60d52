public import TandemBasics

/// The user's choice of root for one conversation (issue 43 item 2): follow the evidence, or pin
/// one root. The raw values are the CLI's words.
public enum RootPreference: String, Sendable, Codable, CaseIterable {
    /// Write the root the peer last wrote to us; `ciph_msg:` without evidence.
    case auto
    case kchat
    case ciphMsg = "ciph_msg"
}

/// The root of what a peer last wrote to us, and when (its block time): evidence of which root it
/// reads, kept like the alias capability (kasia-protocol §16).
public struct RootEvidence: Sendable, Equatable, Codable {
    public var root: KasiaRoot
    public var at: UnixMillis

    public init(root: KasiaRoot, at: UnixMillis) {
        self.root = root
        self.at = at
    }
}

/// Why a conversation writes the root it writes.
public enum RootReason: String, Sendable, Equatable, Codable {
    /// The user pinned it (`tandem kasia routing root ADDR kchat|ciph_msg`).
    case pinned
    /// The peer's last payload to us came under it.
    case evidence
    /// No evidence: `ciph_msg:`, which KaChat and Kasia web both read.
    case noEvidence = "no_evidence"
}

extension ConversationRoutingState {
    /// The root every payload for this peer is written under: handshakes and their responses,
    /// messages, payments and the self-stashes of this conversation.
    public var writeRoot: KasiaRoot { rootDecision.root }

    /// ``writeRoot`` and why.
    public var rootDecision: (root: KasiaRoot, reason: RootReason) {
        switch rootPreference {
        case .kchat: (.kchat, .pinned)
        case .ciphMsg: (.ciphMsg, .pinned)
        case .auto: peerRoot.map { ($0.root, .evidence) } ?? (.ciphMsg, .noEvidence)
        }
    }

    /// Records that the peer wrote to us under `root` at `time`. Rows arrive out of order (a
    /// history page after the live stream), so older evidence never replaces newer; at the same
    /// time `kchat:` wins, since a peer that writes it reads it.
    public mutating func recordRoot(_ root: KasiaRoot, at time: UnixMillis) {
        // Only KaChat writes kchat: (kasia-protocol §16).
        if root == .kchat { recordApp(.kachat, at: time) }
        if let current = peerRoot {
            guard time > current.at || (time == current.at && root == .kchat) else { return }
        }
        peerRoot = RootEvidence(root: root, at: time)
    }
}
