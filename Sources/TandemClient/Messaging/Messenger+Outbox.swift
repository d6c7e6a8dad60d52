public import ChatHistory
import ChatTimeline
import Foundation
import TandemAPI

/// Resuming after a relay outage (issue 11 "Tests": the server SIGKILLed and restarted
/// mid-conversation): the outbox's submissions go out again byte for byte, and a sync that
/// meets one of them first promotes its pending row instead of adding a second.
extension Messenger {
    /// Sends every outgoing message the relay has not acknowledged, oldest first, each as the
    /// same signed submission as before. Returns the rows now sent; a row whose submission
    /// fails again stays `failed` and keeps its place in the outbox, and the first error is
    /// thrown after the others were tried.
    @discardableResult
    public func resendUnsent() async throws -> [StoredMessage] {
        try reloadOutbox()
        var waiting: [StoredMessage] = []
        for key in outbox.entries.keys {
            guard let uuid = UUID(uuidString: key), let row = try history.message(MessageID(uuid)),
                row.txID == nil
            else {
                outbox.entries[key] = nil
                continue
            }
            waiting.append(row)
        }
        try saveOutbox()
        var sent: [StoredMessage] = []
        var firstError: (any Error)?
        for row in waiting.sorted(by: { $0.key < $1.key }) {
            do { sent.append(try await retry(row.id)) } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return sent
    }

    /// The pending row whose parked submission the relay stored as `txID`, if any. Reads the
    /// file again on a miss: another process of this profile may have parked it.
    func parkedMessage(txID: String) throws -> MessageID? {
        if outbox.messageID(forTxID: txID) == nil { try reloadOutbox() }
        guard let key = outbox.messageID(forTxID: txID), let uuid = UUID(uuidString: key) else { return nil }
        return MessageID(uuid)
    }

    /// Drops `id`'s submission: the relay acknowledged it.
    func unpark(_ id: MessageID) throws {
        guard outbox.entries.removeValue(forKey: id.uuid.uuidString) != nil else { return }
        try saveOutbox()
    }

    func saveOutbox() throws {
        do { try outbox.save(to: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
        }
    }

    func reloadOutbox() throws {
        do { outbox = try RelayOutbox.load(from: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
        }
    }
}
