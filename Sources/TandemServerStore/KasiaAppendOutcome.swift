import TandemBasics

/// What `appendKasiaRecord` did.
public enum KasiaAppendOutcome: Sendable, Equatable {
    /// A new row, committed with this block time.
    case inserted(KasiaRecord)
    /// The same `tx_id` was already stored: the existing row, unchanged.
    case existing(KasiaRecord)

    public var record: KasiaRecord {
        switch self {
        case .inserted(let record), .existing(let record): record
        }
    }
}

/// One relay submission waiting in the group committer: the row and the time it arrived.
struct KasiaAppend: Sendable {
    let draft: KasiaRecordDraft
    let now: UnixMillis
}

/// The relay's group committer on either backend.
typealias KasiaCommitter = GroupCommitter<KasiaAppend, KasiaAppendOutcome>
