public import Foundation
public import SecretFiles
public import TandemBasics

/// A profile: everything one person keeps on one device — wallet key, task identity, session
/// cookies and the local stores — in one directory, and the clock every store and service of the
/// profile reads.
///
/// This is the only place that knows the directory layout (``File``): the CLI and apps open
/// stores through it and never by file name. Secret files are created with mode 0600 inside a
/// 0700 directory.
public struct Profile: Sendable {
    public let directory: URL
    /// The time source of every store and service opened through this profile.
    public let clock: any WallClock
    /// The secrets (seed, keys, cookies), opened once and shared by copies of this profile.
    package let vault: ProfileVault

    /// - Parameters:
    ///   - secretStore: where the secrets live — an app on Apple platforms passes a
    ///     ``KeychainSecretStore``. Nil: the profile's encrypted keystore when it has one, else
    ///     its plain 0600 files.
    ///   - passphrase: asked when the keystore is opened (once per profile value).
    public init(
        directory: URL, clock: any WallClock = SystemClock(), secretStore: (any SecretStore)? = nil,
        passphrase: PassphraseSource = .none
    ) {
        self.directory = directory
        self.clock = clock
        self.vault = ProfileVault(directory: directory, store: secretStore, passphrase: passphrase)
    }

    /// The same profile (its opened secrets too) reading another clock.
    public func with(clock: any WallClock) -> Profile {
        Profile(directory: directory, clock: clock, vault: vault)
    }

    private init(directory: URL, clock: any WallClock, vault: ProfileVault) {
        self.directory = directory
        self.clock = clock
        self.vault = vault
    }

    /// The files of a profile directory.
    public enum File: String, CaseIterable, Sendable {
        /// The wallet's BIP-39 seed phrase, its BIP-39 passphrase and account (JSON, 0600;
        /// ``WalletSeed``): a profile made or opened from words. A secret.
        case walletSeed = "wallet.seed"
        /// The secp256k1 wallet key as 64 hex characters and a newline (0600): a profile made
        /// from a raw key. A secret.
        case walletKey = "wallet.key"
        /// Every secret of a protected profile, encrypted under its passphrase (JSON;
        /// ``KeystoreFile``). Present, the plain secret files are not.
        case keystore = "keystore.json"
        /// The Ed25519 seed that signs Redo nodes (0600). A secret.
        case identityKey = "identity.key"
        /// This device's Redo device id.
        case deviceID = "device.id"
        /// The BetterAuth session cookies (0600). A secret.
        case sessionCookies = "session-cookies.json"
        /// A session file left by the legacy app (`idAlias` sessions), detected and removed at launch.
        case legacySession = "session.json"
        /// Kasia routing state per contact (SQLite).
        case routing = "routing.sqlite"
        /// Chat history of the wallet (SQLite).
        case chatHistory = "chat-history.sqlite"
        /// Contacts of the wallet (SQLite).
        case contacts = "contacts.sqlite"
        /// The Redo change log (SQLite).
        case tasks = "tasks.sqlite"
        /// How far the messaging service has read each relay route (JSON; ``RelaySyncCursors``).
        case relayCursors = "relay-cursors.json"
        /// Signed submissions of messages the relay has not acknowledged yet (JSON; ``RelayOutbox``).
        case relayOutbox = "relay-outbox.json"
        /// Where task sync stands with its server: account, device key, cursor (JSON; ``TaskSyncState``).
        case taskSync = "task-sync.json"
        /// Where contacts sync stands: cursor, versions and digests of records (JSON; ``ContactsSyncState``).
        case contactsSync = "contacts-sync.json"
        /// Where task preset sync stands: the server, account and cursor (JSON; ``PresetSync``).
        case presetSync = "preset-sync.json"
        /// Where chat history sync stands: the server, account, wallet and cursor (JSON;
        /// ``ChatHistorySync``); what the server holds of each record is in the history itself.
        case chatHistorySync = "chat-history-sync.json"
        /// The Kaspa network this profile uses: network id, nodes or Resolver, indexer (JSON;
        /// ``KaspaNetworkSettings``). Absent: the profile talks through a Tandem relay.
        case kaspaNetwork = "kaspa-network.json"
        /// Signed transactions submitted to a node and not yet seen accepted: their inputs stay
        /// reserved and their change spendable (JSON lines, an append-only journal; the wallet's
        /// `PendingJournal`).
        case kaspaPendingJournal = "kaspa-pending.jsonl"
        /// The pending transactions as earlier builds kept them (a JSON array): read while no
        /// journal exists, and removed when the journal is first written. Its path plus `.lock`
        /// is the lock that serializes the profile's sends.
        case kaspaPending = "kaspa-pending.json"
        /// The highest index of each HD chain seen holding funds (JSON; ``AddressScanState``):
        /// where the next scan reaches past.
        case kaspaAddressScan = "kaspa-address-scan.json"
        /// The last chain block whose accepted transactions chat has read (JSON;
        /// ``KaspaMessageTransport``): where the next virtual-chain walk starts.
        case kaspaChainCursor = "kaspa-chain-cursor.json"
        /// The Tandem server this profile last signed up or in to (JSON; ``Profile/rememberedServer()``):
        /// the server of every later account, sync and relay call that names none.
        case server = "server.json"
    }

    /// Where `file` lives in this profile.
    public func url(_ file: File) -> URL { directory.appendingPathComponent(file.rawValue) }

    /// The environment variable that overrides the default profile directory.
    public static let environmentVariable = "TANDEM_PROFILE"

    /// The profile used when none is named: `$TANDEM_PROFILE` when set, else `.tandem/profile`
    /// under `home`. One location for every command, so `tandem tasks` and `tandem contacts` of
    /// one user look at one profile. An app passes its own directory (its container or
    /// Application Support folder); the library never looks up a home directory itself.
    /// A name in the variable is a named profile (``ProfileCatalog``), as on the command line.
    public static func defaultDirectory(environment: [String: String], home: URL) -> URL {
        let catalog = ProfileCatalog(home: home)
        if let named = environment[environmentVariable], !named.isEmpty {
            return catalog.directory(of: (try? ProfileCatalog.reference(named)) ?? .path(named))
        }
        return catalog.defaultDirectory
    }
}
