import ArgumentParser
import Foundation
import KaspaCrypto
import TandemBasics
import TandemMessaging

/// What a chat command spent on the Kaspa network, said in human output and in `--json`
/// (issue 51 item 3), and the question asked before a send that starts a conversation.
enum ChatSpending {
    /// One transaction in `--json`: sompi, as every amount in JSON.
    struct Spend: Encodable {
        let purpose: String
        let transactionId: String
        let amount: UInt64
        let fee: UInt64

        init(_ spend: ChainSpend) {
            purpose = spend.purpose.rawValue
            transactionId = spend.transactionID
            amount = spend.amountSompi
            fee = spend.feeSompi
        }
    }

    /// The members every spending command adds to its JSON: `fee` and `amount` (sompi, totals of
    /// every transaction it made), `transactionId` (the command's own transaction) and `spends`
    /// (each transaction). On a relay nothing is paid: `fee` and `amount` are null.
    struct Members: Encodable {
        let transactionId: String?
        let fee: UInt64?
        let amount: UInt64?
        let spends: [Spend]

        init(transactionID: String?, spends: [ChainSpend], onKaspa: Bool) {
            transactionId = transactionID
            fee = onKaspa ? spends.totalFeeSompi : nil
            amount = onKaspa ? spends.totalAmountSompi : nil
            self.spends = spends.map(Spend.init)
        }

        enum CodingKeys: String, CodingKey { case transactionId, fee, amount, spends }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(transactionId, forKey: .transactionId)
            try container.encode(fee, forKey: .fee)
            try container.encode(amount, forKey: .amount)
            try container.encode(spends, forKey: .spends)
        }
    }

    /// The human line for a handshake's spends ("started the chat: paid 0.2 KAS to … and a fee
    /// of … KAS"); nil when nothing was paid.
    static func handshakeLine(_ spends: [ChainSpend], peer: KaspaAddress) -> String? {
        let started = spends.filter { $0.purpose == .handshake || $0.purpose == .savedHandshake }
        guard !started.isEmpty else { return nil }
        return
            "started the chat: paid \(KaspaAmount.kas(fromSompi: started.totalAmountSompi)) KAS to \(peer) and \(KaspaAmount.kas(fromSompi: started.totalFeeSompi)) KAS in fees"
    }

    /// Asks before a send that starts a conversation over Kaspa (nil `text`: a handshake alone),
    /// on a terminal and without `--yes`: "starts a chat: pays 0.2 KAS to …, fee ≈ … KAS —
    /// continue?". Anything but y/yes sends nothing and exits 1.
    static func confirmStart(
        _ text: String?, to peer: KaspaAddress, discrete: Bool, messenger: Messenger, yes: Bool
    ) async throws {
        guard !yes, messenger.isOnKaspa, SecretPrompt.isInteractive else { return }
        guard let quote = try await chatCall({ try await messenger.quote(text, to: peer, discrete: discrete) }),
            quote.startsConversation
        else { return }
        let answer = SecretPrompt.confirm(
            "starts a chat: pays \(KaspaAmount.kas(fromSompi: quote.amountSompi)) KAS to \(peer), fee ≈ \(KaspaAmount.kas(fromSompi: quote.estimatedFeeSompi)) KAS — continue? [y/N] "
        )
        guard let answer, ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
            throw CLIError("nothing was sent (--yes sends without asking)")
        }
    }
}
