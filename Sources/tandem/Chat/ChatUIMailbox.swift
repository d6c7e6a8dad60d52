import ChatScreen
import Foundation

/// Hands results of the messaging service (async tasks) to the terminal thread, which drains
/// it between key reads (issue 16 item 5: live rows appear without a key press).
///
/// `@unchecked Sendable`: `updates` and `stopRequested` are only read or written while holding
/// `lock`.
final class ChatUIMailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [ScreenUpdate] = []
    private var stopRequested = false

    func post(_ update: ScreenUpdate) { lock.withLock { updates.append(update) } }

    /// SIGINT/SIGTERM/SIGHUP: the terminal thread restores the screen and returns.
    func requestStop() { lock.withLock { stopRequested = true } }

    var shouldStop: Bool { lock.withLock { stopRequested } }

    func drain() -> [ScreenUpdate] {
        lock.withLock {
            let drained = updates
            updates = []
            return drained
        }
    }
}
