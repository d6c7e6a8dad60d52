public import ChatHistory
import ChatTimeline
import Foundation
import TandemAPI

/// Resuming after a relay outage (issue 11 "Tests": the server SIGKILLed and restarted
/// mid-conversation): the transport's kept submissions go out again byte for byte, and a sync
/// that meets one of them first promotes its pending row instead of adding a second.
extension Messenger {
    /// Sends every outgoing message the transport has not had acknowledged, oldest first, each
    /// as the same signed submission as before. Returns the rows now sent; a row whose
    /// submission fails again stays `failed` and keeps its place, and the first error is thrown
    /// after the others were tried.
    @discardableResult
    public func resendUnsent() async throws -> [StoredMessage] {
        var waiting: [StoredMessage] = []
        for id in try await transport.unacknowledged() {
            guard let row = try history.message(id), row.txID == nil else {
                try await transport.acknowledge(id)
                continue
            }
            waiting.append(row)
        }
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
}
