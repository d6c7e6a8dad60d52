public import ChatHistory
public import Contacts
public import RedoApp
public import RedoProtocol
public import RoutingStore
import SecretFiles
public import TaskStore

/// The profile's stores, each in its own file of the profile directory (ARCHITECTURE.md L2),
/// opened with the profile's clock. Opening creates the directory (0700) and the file (0600) on
/// first use and migrates the file; a damaged file surfaces as the store's own typed error.
extension Profile {
    /// The Kasia routing state of every contact (``File/routing``).
    public func openRouting() throws -> RoutingStore {
        try prepareStore(.routing)
        return try RoutingStore(path: url(.routing).path)
    }

    /// The wallet's chat history (``File/chatHistory``).
    public func openChatHistory() throws -> ChatHistoryStore {
        try prepareStore(.chatHistory)
        return try ChatHistoryStore(path: url(.chatHistory).path)
    }

    /// The wallet's contacts (``File/contacts``).
    public func openContacts() throws -> ContactsStore {
        try prepareStore(.contacts)
        return try ContactsStore(path: url(.contacts).path, clock: clock)
    }

    /// The Redo task log with this device's signing identity (``File/tasks``,
    /// ``File/identityKey``, ``File/deviceID``); the identity is created on first use.
    public func openTasks() throws -> TaskEditor {
        let identity = try taskIdentity()
        try prepareStore(.tasks)
        return TaskEditor(log: try TaskLog(path: url(.tasks).path), identity: identity)
    }

    /// The live tasks' summaries, read without opening the task log for writing
    /// (``TaskLog/liveSummaries(readingAt:)``); nil when that read cannot answer, and then
    /// ``openTasks()`` does. Neither the identity nor any key is read: a list that asks whose
    /// tasks they are reads ``taskIdentity()`` too.
    public func readTaskSummaries() -> [TaskSummary]? {
        TaskLog.liveSummaries(readingAt: url(.tasks).path)
    }

    /// This device's signing identity, its key and device id made on first use.
    public func taskIdentity() throws -> ProfileIdentity {
        ProfileIdentity(key: try identityKey(), deviceID: try ProfileIdentity.loadOrCreateDevice(url(.deviceID)))
    }

    /// The Ed25519 key that signs this profile's Redo nodes, made on first use. Racing first
    /// uses agree: only one key is ever added, and the loser reads the winner's.
    func identityKey() throws -> SigningKey {
        let store = try vault.store()
        let name = File.identityKey.rawValue
        if let data = try store.secret(name) {
            return try ProfileIdentity.key(fromKeyFile: data, path: url(.identityKey).path)
        }
        do { try store.add(name, ProfileIdentity.newKeyFile()) } catch .exists {}
        guard let data = try store.secret(name) else {
            throw ProfileError.fileSystem(path: url(.identityKey).path, reason: "the new identity key was not kept")
        }
        return try ProfileIdentity.key(fromKeyFile: data, path: url(.identityKey).path)
    }

    /// The saved task filters (issue 27 item 3), in the task database; this device's id breaks
    /// ties between equal stamps.
    public func openTaskPresets() throws -> TaskPresets {
        TaskPresets(editor: try openTasks())
    }

    /// The directory (0700 when made here) and `file` created 0600 when missing, so SQLite opens
    /// a file (and makes journals) no one else can read. An existing looser directory is the
    /// opener's to tighten, once (``restrictPermissions()``), not every store open's.
    private func prepareStore(_ file: File) throws(ProfileError) {
        do {
            try SecretFile.createDirectory(directory)
            try PrivateDirectory.createFileIfMissing(url(file))
        } catch { throw ProfileError(error) }
    }
}
