import ChatHistory

/// The formats `tandem chat export` writes (issue 48 item 2).
public enum ChatBackupFormat: String, Sendable, CaseIterable, Codable {
    /// Tandem's encrypted archive of the profile's whole chat state: history, deleted
    /// conversations, read marks, reactions, routing states and the conversations' contacts.
    case tandem
    /// KaChat's encrypted backup envelope v1 around its ChatHistoryArchive (kasia-protocol §16),
    /// which KaChat on the same seed restores.
    case kachat
}

/// The formats `tandem chat import` reads.
public enum ChatBackupSource: String, Sendable, Codable {
    case tandem
    /// KaChat's encrypted backup envelope v1.
    case kachat
    /// KaChat's plaintext ChatHistoryArchive, as its earlier versions wrote it.
    case kachatPlaintext = "kachat-plaintext"
    /// Kasia web's `kaspa-messages-backup` export, sealed to the wallet's own key.
    case kasiaWeb = "kasia-web"
}

/// What an export wrote.
public struct ChatExportReport: Sendable, Equatable, Codable {
    public var format: ChatBackupFormat
    public var conversations: Int
    public var messages: Int
}

/// What an import found and changed. A second import of the same file adds and updates nothing.
public struct ChatImportReport: Sendable, Equatable, Codable {
    public var format: ChatBackupSource
    /// Conversations the file holds.
    public var conversations = 0
    /// Messages the file holds.
    public var messages = 0
    /// Messages new to the profile.
    public var messagesAdded = 0
    /// Messages the profile held that gained a text, an amount or a later status.
    public var messagesUpdated = 0
    /// Messages the profile already held as they are.
    public var messagesUnchanged = 0
    /// Messages of a conversation deleted in the profile (or in the backup).
    public var messagesDiscarded = 0
    /// Messages not imported: pending or failed, without a transaction id, of another wallet, of
    /// a kind Tandem does not keep, or a transaction the profile holds as another conversation's.
    public var messagesSkipped = 0
    /// Contacts added for the file's conversations (existing ones are never renamed).
    public var contactsAdded = 0
    /// Read marks set or moved forward.
    public var readMarksMoved = 0
    /// Conversations whose routing state was added or gained aliases and evidence.
    public var routingStatesMerged = 0

    public init(format: ChatBackupSource) { self.format = format }

    mutating func add(_ merge: ArchiveMergeCount) {
        messagesAdded += merge.added
        messagesUpdated += merge.updated
        messagesUnchanged += merge.unchanged
        messagesDiscarded += merge.discarded
        messagesSkipped += merge.mismatched
        readMarksMoved += merge.readMarks
    }
}

extension ChatBackupFormat {
    /// The largest backup an import reads: 10,000 conversations of long chats fit, and a file
    /// beyond it is not read into memory.
    public static let maximumImportBytes = 512 << 20
}
