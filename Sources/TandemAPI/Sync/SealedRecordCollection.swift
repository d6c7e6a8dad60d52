/// The account's collections of sealed records (issue 12 item 3, issue 27 item 3): encrypted
/// records the server keeps by compare-and-swap and never reads, in one wire form
/// (`ContactRecordPage`, `ContactRecordsPut`). The server stores each in a table of its own, and
/// the client syncs each with one sealed-record sync; a new collection is a new case here.
public enum SealedRecordCollection: String, Sendable, CaseIterable {
    /// Contact records (issue 12 item 3), `/api/contacts/records`.
    case contacts
    /// Saved task filters (issue 27 item 3), `/api/tasks/presets`.
    case taskPresets
    /// A person's chat history (issue 48 item 1), `/api/chat/history`.
    case chatHistory

    /// Where the collection is read and written.
    public var path: String {
        switch self {
        case .contacts: APIPath.contactRecords
        case .taskPresets: APIPath.taskPresets
        case .chatHistory: APIPath.chatHistory
        }
    }

    /// The code of a record the server refuses (not the wire form, too large).
    public var invalidRecord: APIErrorCode {
        switch self {
        case .contacts: .invalidContactRecord
        case .taskPresets: .invalidPresetRecord
        case .chatHistory: .invalidChatRecord
        }
    }

    /// The code of the 409 a write gets when its base version is stale.
    public var versionConflict: APIErrorCode {
        switch self {
        case .contacts: .contactVersionConflict
        case .taskPresets: .presetVersionConflict
        case .chatHistory: .chatVersionConflict
        }
    }
}
