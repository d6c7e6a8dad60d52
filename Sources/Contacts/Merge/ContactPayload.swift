public import TandemBasics

/// The fields of one incarnation of a contact (timeline-and-contacts §3.3).
///
/// Each user-editable field is its own LWW register, so concurrent edits of different fields both
/// survive (§3.5 scenario 2). The alias is two registers, the user's and the KNS name, and the
/// shown alias is computed from both (``displayAlias(for:)``), which keeps "a KNS update only
/// replaces an empty, auto or `.kas` alias" true in every delivery order (§3.4).
public struct ContactPayload: Sendable, Hashable {
    /// When the contact was added; merges by `min`.
    public var addedAt: UnixMillis
    /// The newest message seen; merges by `max` (derived from messages, never stamped).
    public var lastMessageAt: UnixMillis?
    public var userAlias: LWWRegister<String>
    public var knsName: LWWRegister<String>
    public var isAutoAdded: LWWRegister<Bool>
    public var notificationsMuted: LWWRegister<Bool>
    public var realtimeUpdatesDisabled: LWWRegister<Bool>

    public init(
        addedAt: UnixMillis, lastMessageAt: UnixMillis?, userAlias: LWWRegister<String>,
        knsName: LWWRegister<String>, isAutoAdded: LWWRegister<Bool>,
        notificationsMuted: LWWRegister<Bool>, realtimeUpdatesDisabled: LWWRegister<Bool>
    ) {
        self.addedAt = addedAt
        self.lastMessageAt = lastMessageAt
        self.userAlias = userAlias
        self.knsName = knsName
        self.isAutoAdded = isAutoAdded
        self.notificationsMuted = notificationsMuted
        self.realtimeUpdatesDisabled = realtimeUpdatesDisabled
    }

    /// A new incarnation: every register stamped with the add, everything else defaulted
    /// ("a re-add starts a fresh incarnation with defaulted fields", §3.3).
    public static func fresh(
        addedAt: UnixMillis, stamp: HLCTimestamp, alias: String, isAutoAdded: Bool, lastMessageAt: UnixMillis?
    ) -> ContactPayload {
        ContactPayload(
            addedAt: addedAt, lastMessageAt: lastMessageAt,
            userAlias: LWWRegister(alias, stamp: stamp), knsName: LWWRegister("", stamp: stamp),
            isAutoAdded: LWWRegister(isAutoAdded, stamp: stamp),
            notificationsMuted: LWWRegister(false, stamp: stamp),
            realtimeUpdatesDisabled: LWWRegister(false, stamp: stamp))
    }

    /// What is left of a purged tombstone: a constant, so purged skeletons merge to themselves.
    public static let skeleton = ContactPayload.fresh(
        addedAt: UnixMillis(0), stamp: .legacyFloor, alias: "", isAutoAdded: false, lastMessageAt: nil)

    /// Field-wise merge: `min` for `addedAt`, `max` for `lastMessageAt`, LWW for the registers.
    public func merged(with other: ContactPayload) -> ContactPayload {
        ContactPayload(
            addedAt: min(addedAt, other.addedAt),
            lastMessageAt: Self.maxOptional(lastMessageAt, other.lastMessageAt),
            userAlias: userAlias.merged(with: other.userAlias),
            knsName: knsName.merged(with: other.knsName),
            isAutoAdded: isAutoAdded.merged(with: other.isAutoAdded),
            notificationsMuted: notificationsMuted.merged(with: other.notificationsMuted),
            realtimeUpdatesDisabled: realtimeUpdatesDisabled.merged(with: other.realtimeUpdatesDisabled))
    }

    /// The alias to show (§3.3): the user's alias unless it is empty, the auto alias or a `.kas`
    /// name; then the KNS name; then the user's alias if non-empty; then the auto alias.
    public func displayAlias(for address: ContactAddress) -> String {
        let user = userAlias.value
        let auto = address.autoAlias
        if !user.isEmpty, user != auto, !user.lowercased().hasSuffix(".kas") { return user }
        if !knsName.value.isEmpty { return knsName.value }
        return user.isEmpty ? auto : user
    }

    /// The newest stamp's wall time, for the derived `updatedAt`.
    var newestStampWallMillis: Int64 {
        [userAlias.stamp, knsName.stamp, isAutoAdded.stamp, notificationsMuted.stamp, realtimeUpdatesDisabled.stamp]
            .map(\.wallMillis).max() ?? 0
    }

    /// Every stamp, so a receiving clock can advance past them.
    var stamps: [HLCTimestamp] {
        [userAlias.stamp, knsName.stamp, isAutoAdded.stamp, notificationsMuted.stamp, realtimeUpdatesDisabled.stamp]
    }

    static func maxOptional(_ a: UnixMillis?, _ b: UnixMillis?) -> UnixMillis? {
        switch (a, b) {
        case (nil, nil): nil
        case (let x?, nil), (nil, let x?): x
        case (let x?, let y?): max(x, y)
        }
    }
}
