import ChatScreen
import TandemBasics

/// Hands results of the messaging service (async tasks) to the terminal thread, which drains
/// it between key reads (issue 16 item 5: live rows appear without a key press).
final class ChatUIMailbox: Sendable {
    private struct State {
        var updates: [ScreenUpdate] = []
        var stopRequested = false
        var bell = false
    }

    private let state = Locked(State())

    func post(_ update: ScreenUpdate) { state.withLock { $0.updates.append(update) } }

    /// SIGINT/SIGTERM/SIGHUP: the terminal thread restores the screen and returns.
    func requestStop() { state.withLock { $0.stopRequested = true } }

    var shouldStop: Bool { state.withLock { $0.stopRequested } }

    /// Asks the terminal thread to ring the bell (a notification with no desktop to show it).
    func ringBell() { state.withLock { $0.bell = true } }

    /// Whether the bell was asked for since the last call.
    func takeBell() -> Bool {
        state.withLock { state in
            defer { state.bell = false }
            return state.bell
        }
    }

    func drain() -> [ScreenUpdate] {
        state.withLock { state in
            defer { state.updates = [] }
            return state.updates
        }
    }
}
