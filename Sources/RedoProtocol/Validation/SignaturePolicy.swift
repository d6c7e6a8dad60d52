/// Whether a node must carry a signature (spec §3 signature policy, §6.2 step 7).
public enum SignaturePolicy: Sendable {
    /// Local-only nodes may be unsigned; a present signature must still verify.
    case verifyIfPresent
    /// At a sync boundary every node must be signed and verify.
    case required
}
