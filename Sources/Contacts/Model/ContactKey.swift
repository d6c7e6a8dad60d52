/// The record key: one contact record per (wallet, normalised contact address)
/// (timeline-and-contacts §3.3). Deterministic, so two devices adding the same contact offline
/// produce one record, never two (§3.5 scenario 8).
public struct ContactKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let wallet: ContactAddress
    public let address: ContactAddress

    public init(wallet: ContactAddress, address: ContactAddress) {
        self.wallet = wallet
        self.address = address
    }

    public var description: String { "\(wallet)/\(address)" }

    public static func < (lhs: ContactKey, rhs: ContactKey) -> Bool {
        (lhs.wallet, lhs.address) < (rhs.wallet, rhs.address)
    }
}
