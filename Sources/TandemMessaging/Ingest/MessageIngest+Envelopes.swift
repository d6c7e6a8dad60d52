import ChatHistory
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI

/// KaChat's JSON envelopes inside a peer's sealed message (issue 43 item 4; kasia-protocol §16):
/// none is shown as raw JSON. A reaction lands on its target; a payment notice is a payment row
/// under the notice's transaction id; fresh-address envelopes are consumed unseen; calls and
/// chess, which Tandem does not play, are a short line; a reply is its text under a quote; an
/// edit replaces the text of the sender's own earlier message. Applying one twice changes nothing:
/// reactions keep the newest per reactor, rows are keyed by transaction id, an edit writes the same
/// text again.
extension MessageIngest {
    func apply(
        _ envelope: KaChatEnvelope, from sender: KaspaAddress, in row: IndexerContextualMessage,
        to plan: inout IngestPlan, lookup: IngestLookup
    ) throws {
        func line(_ text: String) -> StoredMessage {
            Self.row(
                txID: row.txID, blockTime: row.blockTime, conversation: sender.description, direction: .incoming,
                kind: .text, body: Data(text.utf8), root: row.root)
        }
        switch envelope {
        case .reaction(let target, let emoji):
            plan.reaction = ReactionChange(
                target: target, reactor: sender, emoji: emoji, txID: row.txID, blockTime: row.blockTime)
        case .paymentNotice(let txID, let amount, _, let memo):
            guard try lookup.storedMessage(txID) == nil else { return }
            plan.show(
                Self.row(
                    txID: txID, blockTime: row.blockTime, conversation: sender.description, direction: .incoming,
                    kind: .payment, body: Data(memo.utf8), root: row.root, amountSompi: amount),
                text: memo, from: sender)
        case .addressPool:
            break
        case .call(let kind):
            let text = "[call \(kind): not supported here]"
            plan.show(line(text), text: text, from: sender)
        case .chess(let kind):
            let text = "[chess \(kind): not supported here]"
            plan.show(line(text), text: text, from: sender)
        case .reply(let preview, let text):
            let shown = preview.isEmpty ? text : "> \(preview)\n\(text)"
            plan.show(line(shown), text: shown, from: sender)
        case .edit(let target, let text):
            guard var edited = try lookup.storedMessage(target), edited.direction == .incoming,
                edited.kind == .text, edited.conversation.rawValue == sender.description
            else { return }
            edited.body = Data(text.utf8)
            plan.update = edited
        }
    }
}
