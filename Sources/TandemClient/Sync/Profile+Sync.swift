import Contacts
public import Foundation
import KaspaCrypto

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
}
