public import Foundation
public import TandemAPI

/// Each collection's table, all of the same shape (the server sees ids, versions and sealed boxes
/// only); a fixed name, never from input.
extension SealedRecordCollection {
    var table: String {
        switch self {
        case .contacts: "contact_record"
        case .taskPresets: "task_preset_record"
        case .chatHistory: "chat_history_record"
        }
    }
}

/// One encrypted record to write with compare-and-swap (issue 12 item 3).
public struct SealedRecordDraft: Sendable, Equatable {
    public let id: String
    public let box: Data
    public let baseVersion: Int64

    public init(id: String, box: Data, baseVersion: Int64) {
        self.id = id
        self.box = box
        self.baseVersion = baseVersion
    }
}

/// A stored record with its version and its position in the account's server order.
public struct StoredSealedRecord: Sendable, Equatable {
    public let seq: Int64
    public let id: String
    public let box: Data
    public let version: Int64

    public init(seq: Int64, id: String, box: Data, version: Int64) {
        self.seq = seq
        self.id = id
        self.box = box
        self.version = version
    }
}

/// What a compare-and-swap write did: every record written (new versions in request order),
/// or none because these ids' stored versions differ from their base versions.
public enum SealedRecordPutOutcome: Sendable, Equatable {
    case written([Int64])
    case conflict([String])
}
