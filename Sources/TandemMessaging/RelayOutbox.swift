public import Foundation
import SecretFiles
public import TandemAPI
import TandemBasics

/// Signed submissions of outgoing messages the relay has not yet acknowledged, by message
/// UUID, kept in the profile's ``Profile/File/relayOutbox``.
///
/// Why: a message is sealed with a fresh ephemeral key and signed with a fresh nonce, so
/// sealing it again would make a different `tx_id`. When the relay dies after committing a
/// row but before answering (issue 11 "Tests": the server SIGKILLed mid-conversation), a retry
/// must send the very same submission, which the relay answers with the stored receipt
/// (issue 11 item 1, idempotent resubmission), and a sync that meets our own row first can
/// tell it is this pending message by its `tx_id`. Either way there is one row, no duplicate.
public struct RelayOutbox: Sendable, Equatable, Codable {
    /// Keyed by the message UUID's string form.
    public var entries: [String: RelaySubmission]

    public init(entries: [String: RelaySubmission] = [:]) {
        self.entries = entries
    }

    /// The `tx_id` the relay will give `submission` (issue 11 item 1): known before sending.
    public static func txID(of submission: RelaySubmission) -> String? {
        guard let payload = try? Hex.decode(submission.payload) else { return nil }
        return submission.digest(payloadBytes: payload).txID
    }

    /// The message UUID whose submission has `txID`, if one is waiting.
    public func messageID(forTxID txID: String) -> String? {
        entries.first { Self.txID(of: $0.value) == txID }?.key
    }

    /// Reads the file; a missing file is an empty outbox.
    public static func load(from url: URL) throws -> RelayOutbox {
        guard FileManager.default.fileExists(atPath: url.path) else { return RelayOutbox() }
        return try JSONDecoder().decode(RelayOutbox.self, from: Data(contentsOf: url))
    }

    /// Replaces the file atomically, so a crash leaves the old outbox or the new one.
    public func save(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try SecretFile.replace(url, contents: try encoder.encode(self), durably: false)
    }
}
