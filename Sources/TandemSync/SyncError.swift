public import TandemAccounts

/// Why a sync run stopped. Local state is never at risk: whatever a run stored before the
/// failure stays, and the next run resumes from there.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server or the session failed (after the retry policy gave up on transient errors).
    case account(AccountClientError)
    /// The device key is bound to another account, so this profile cannot push there.
    case keyBoundToAnotherAccount(publicKey: String)
    /// A 2xx page that is not the documented JSON.
    case invalidPage(String)
    /// A local store failed.
    case store(String)
    /// Contacts sync needs the profile's wallet key (the records' encryption key).
    case walletKeyMissing(String)
    /// Another device kept writing the same records; retry later.
    case tooManyConflicts
    /// The task running the sync was cancelled. Everything stored before is kept, with the
    /// cursor that describes it; the next run resumes there.
    case cancelled

    public var description: String {
        switch self {
        case .account(let error): error.description
        case .keyBoundToAnotherAccount(let key):
            "this profile's device key \(key.prefix(16))… is bound to another account; use a profile of that account"
        case .invalidPage(let reason): "unexpected sync page: \(reason)"
        case .store(let reason): reason
        case .walletKeyMissing(let reason): reason
        case .tooManyConflicts: "contact records kept changing on the server; run the sync again"
        case .cancelled: "the sync was cancelled; the next run resumes where it stopped"
        }
    }
}

/// Progress of a long pull, for a progress line.
public struct SyncProgress: Sendable, Equatable {
    /// What is being pulled: `"tasks"` or `"contacts"`.
    public var kind: String
    /// Items received so far in this run.
    public var received: Int
    /// Whether the server said more are waiting.
    public var hasMore: Bool
}
