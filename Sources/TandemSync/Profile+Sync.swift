import Contacts
public import Foundation
import KaspaCrypto
public import RedoProtocol
public import TandemAccounts
public import TandemProfile
public import TaskStore

/// The sync engines of a profile (issue 12), each with its state file in the profile.
extension Profile {
    /// Task sync with `server`, signed in through this profile's session.
    public func taskSync(server: URL, transport: any HTTPTransport = URLSessionTransport()) throws -> TaskSync {
        TaskSync(
            client: AccountClient(server: server, profile: self, transport: transport), editor: try openTasks(),
            stateURL: url(.taskSync))
    }

    /// Contacts sync of the profile's wallet with `server`; needs the wallet key, which seals
    /// the records.
    public func contactsSync(server: URL, transport: any HTTPTransport = URLSessionTransport()) throws(SyncError)
        -> ContactsSync
    {
        let key: PrivateKey
        do { key = try walletKey() } catch { throw .walletKeyMissing(error.description) }
        do {
            return ContactsSync(
                client: AccountClient(server: server, profile: self, transport: transport), store: try openContacts(),
                cipher: ContactsSyncCipher(walletKey: key), stateURL: url(.contactsSync))
        } catch { throw .store(String(describing: error)) }
    }

    /// Chat history sync of the profile's wallet with `server` (issue 48 item 1); needs the wallet
    /// key, which seals the records.
    public func chatHistorySync(server: URL, transport: any HTTPTransport = URLSessionTransport()) throws(SyncError)
        -> ChatHistorySync
    {
        let key: PrivateKey
        do { key = try walletKey() } catch { throw .walletKeyMissing(error.description) }
        do {
            return ChatHistorySync(
                client: AccountClient(server: server, profile: self, transport: transport),
                history: try openChatHistory(),
                cipher: ChatHistorySyncCipher(walletKey: key),
                wallet: KaspaAddress(publicKey: key.xOnlyPublicKey, network: .mainnet).description,
                stateURL: url(.chatHistorySync))
        } catch { throw .store(String(describing: error)) }
    }

    /// Preset sync with `server`, keyed by the account's presets key (``PresetKeyring``): derived
    /// from the wallet key when the profile has one, else wrapped for this device by one that does.
    public func presetSync(server: URL, transport: any HTTPTransport = URLSessionTransport()) throws(SyncError)
        -> PresetSync
    {
        do {
            let editor = try openTasks()
            return PresetSync(
                client: AccountClient(server: server, profile: self, transport: transport),
                presets: TaskPresets(editor: editor),
                keyring: PresetKeyring(deviceKey: editor.identity.key, walletKey: try optionalWalletKey()),
                stateURL: url(.presetSync))
        } catch { throw .store(String(describing: error)) }
    }

    /// Who "mine" is for a task query: this profile's own key and every device key of the
    /// account the last task sync listed. Without a sync, the profile's own key alone.
    public func taskAccountKeys(identity: ProfileIdentity) throws(SyncError) -> Set<UserID> {
        let state: TaskSyncState
        do {
            state = try SyncStateFile.load(TaskSyncState.self, from: url(.taskSync), fresh: TaskSyncState())
        } catch { throw .store(String(describing: error)) }
        var keys: Set<UserID> = [identity.userID]
        for key in state.accountKeys ?? [] {
            if let id = UserID(key) { keys.insert(id) }
        }
        return keys
    }

    /// The wallet key, or nil when the profile has none (a damaged key file is an error).
    func optionalWalletKey() throws(ProfileError) -> PrivateKey? {
        do { return try walletKey() } catch .walletKeyMissing { return nil }
    }
}
