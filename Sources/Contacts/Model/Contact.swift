public import TandemBasics

/// A contact as an app shows it: the seed's fields (seed 002 "Data Model"), derived from a
/// ``ContactRecord``.
public struct Contact: Sendable, Hashable {
    public let wallet: ContactAddress
    public let address: ContactAddress
    /// The computed alias (``ContactPayload/displayAlias(for:)``).
    public let alias: String
    /// The user's own alias register, empty when cleared.
    public let userAlias: String
    /// The KNS name register, empty when none.
    public let knsName: String
    public let addedAt: UnixMillis
    public let lastMessageAt: UnixMillis?
    public let isAutoAdded: Bool
    public let notificationsMuted: Bool
    public let realtimeUpdatesDisabled: Bool
    /// Derived: the newest of every stamp's wall time and `addedAt` (display and compatibility
    /// only; merging never looks at it).
    public let updatedAt: UnixMillis
    public let isDeleted: Bool

    /// The name a person gave or the KNS one; nil when the alias is only the automatic one
    /// (the address's last characters, KaChat's default), which screens replace with
    /// ``AddressText/short(_:)`` (issue 51 item 5).
    public var name: String? { alias.isEmpty || alias == address.autoAlias ? nil : alias }

    /// What a screen or a human line calls the contact: its ``name``, else the address's one
    /// short form (``AddressText/short(_:)``), the same in the CLI, `chat ui` and `tandem app`.
    public var displayName: String { name ?? AddressText.short(address.description) }

    init(record: ContactRecord) {
        let payload = record.payload
        wallet = record.key.wallet
        address = record.key.address
        alias = payload.displayAlias(for: record.key.address)
        userAlias = payload.userAlias.value
        knsName = payload.knsName.value
        addedAt = payload.addedAt
        lastMessageAt = payload.lastMessageAt
        isAutoAdded = payload.isAutoAdded.value
        notificationsMuted = payload.notificationsMuted.value
        realtimeUpdatesDisabled = payload.realtimeUpdatesDisabled.value
        updatedAt = UnixMillis(
            max(payload.newestStampWallMillis, record.deletedAt?.wallMillis ?? 0, payload.addedAt.rawValue))
        isDeleted = record.isDeleted
    }
}
