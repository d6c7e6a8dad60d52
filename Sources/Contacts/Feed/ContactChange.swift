/// One committed change: which record, and whether it is watched afterwards (so a watched-set
/// subscriber can keep its set without reading the store).
public struct ContactChange: Sendable, Hashable {
    public let key: ContactKey
    public let isWatched: Bool

    public init(key: ContactKey, isWatched: Bool) {
        self.key = key
        self.isWatched = isWatched
    }
}
