import Foundation
import TandemBasics

/// The `Retry-After` of the last failed answer inside one `SyncRetryPolicy` attempt (issue
/// 12/14: the server answers a full sync-write queue with 429 `SYNC_BUSY` and `Retry-After: 1`).
///
/// Why a task-local rather than a field of `AccountClientError.server`: the sync engines match
/// that case by its three fields in many places, and the header only matters to the retry
/// policy; the policy opens a hint around each attempt and `AccountClient` records the header
/// into the hint of the task it runs in, if any.
package final class RetryAfterHint: Sendable {
    @TaskLocal package static var current: RetryAfterHint?

    package init() {}

    private let seconds = Locked<UInt64?>(nil)

    /// The delay the server asked for, when the last answer carried a valid one.
    package var delay: Duration? { seconds.withLock { $0 }.map { .seconds(Int64(clamping: $0)) } }

    /// Keeps the header of a failed answer; a missing or malformed one clears the hint, so the
    /// policy falls back to its own backoff.
    package func record(_ header: String?) {
        let parsed = header.flatMap(Self.parse)
        seconds.withLock { $0 = parsed }
    }

    /// HTTP's optional whitespace around a field value: spaces and tabs.
    private static let optionalWhitespace = CharacterSet(charactersIn: " \t")

    /// `delay-seconds` of RFC 9110 §10.2.3: one or more ASCII digits, nothing else. The
    /// HTTP-date form is not used by Tandem's server and reads as malformed (backoff instead).
    package static func parse(_ text: String) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: Self.optionalWhitespace)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 19,
            trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return UInt64(trimmed)
    }
}
