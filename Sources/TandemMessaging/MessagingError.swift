public import KasiaProtocol
import TandemAPI
public import TandemWallet

/// Why a messaging call failed.
public enum MessagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relay refused, rate-limited, or could not be reached.
    case relay(RelayClientError)
    /// The peer's address cannot receive sealed messages (not a key address).
    case invalidPeer(address: String, reason: String)
    /// The message is empty or too long for one relay payload (10 KiB, issue 11 item 1).
    case invalidMessage(String)
    /// A local store or profile file failed.
    case storage(String)
    /// The wallet key could not sign the submission.
    case signing(String)
    /// The composer warns that the peer may not receive the message (seed 000 Phase 4); sending
    /// anyway needs `force`.
    case peerMayNotReceive(address: String, warning: ComposerWarning)
    /// The Kaspa wallet or node refused or failed (issue 24): the wallet's reason.
    case wallet(WalletError)
    /// A payment was asked of a profile that chats through a relay, which moves no money.
    case paymentNeedsKaspa
    /// The profile chats through a relay, and none was named nor remembered from a sign-in.
    case noRelayServer

    public var description: String {
        switch self {
        case .relay(let error): error.description
        case .invalidPeer(let address, let reason): "cannot message \(address): \(reason)"
        case .invalidMessage(let reason): reason
        case .storage(let reason): "local storage: \(reason)"
        case .signing(let reason): "cannot sign the submission: \(reason)"
        case .peerMayNotReceive(let address, let warning):
            "\(address) may not receive this message: \(warning.explanation)"
        case .wallet(let error): error.description
        case .paymentNeedsKaspa:
            "payments move KAS on the Kaspa network: connect the profile first (tandem kaspa connect)"
        case .noRelayServer:
            "the profile chats through a Tandem relay and knows none: name one, or sign in to one first"
        }
    }
}
