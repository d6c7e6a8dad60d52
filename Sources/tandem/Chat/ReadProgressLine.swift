import Foundation
import TandemBasics
import TandemMessaging

/// The progress of a long read on a terminal (issue 51 item 9): one line on stderr, redrawn at
/// most ten times a second ("reading: 3 routes, 1204 blocks walked (45%), 12 Kasia rows read"),
/// then a summary line once the read is over. Nothing when stderr is not a terminal or the
/// command prints JSON, so scripts and logs see no carriage returns.
final class ReadProgressLine: Sendable {
    private let shown: Bool
    private let last = Locked<ContinuousClock.Instant?>(nil)
    /// Whether a line is drawn and not yet ended by the summary.
    private let open = Locked(false)

    init(json: Bool) {
        shown = !json && isatty(STDERR_FILENO) == 1
    }

    /// The handler to give ``Messenger/sync(progress:)`` or ``Messenger/restore(progress:)``.
    var handler: ReadProgressHandler? {
        guard shown else { return nil }
        return { [self] step in report(step) }
    }

    /// Clears a line the read left drawn (it failed before its summary), so an error that
    /// follows starts on a clean line.
    func end() {
        guard shown, open.withLock({ $0 }) else { return }
        open.withLock { $0 = false }
        Self.write("\r\u{1B}[K")
    }

    private func report(_ step: ReadProgress) {
        if step.finished {
            open.withLock { $0 = false }
            return Self.write("\r\u{1B}[K" + Self.summary(step) + "\n")
        }
        let now = ContinuousClock.now
        let due = last.withLock { previous -> Bool in
            guard previous.map({ now - $0 >= .milliseconds(100) }) ?? true else { return false }
            previous = now
            return true
        }
        guard due else { return }
        open.withLock { $0 = true }
        Self.write("\r\u{1B}[Kreading: " + Self.counts(step))
    }

    /// "3 routes, 1204 blocks walked (45%), 12 Kasia rows read"; parts that are zero and do not
    /// apply (blocks on a relay) are left out.
    static func counts(_ step: ReadProgress) -> String {
        var parts: [String] = []
        if step.routesRead > 0 { parts.append("\(step.routesRead) route\(step.routesRead == 1 ? "" : "s")") }
        if step.blocksWalked > 0 {
            let done = step.fractionWalked.map { " (\(Int(($0 * 100).rounded(.down)))%)" } ?? ""
            parts.append("\(step.blocksWalked) block\(step.blocksWalked == 1 ? "" : "s") walked\(done)")
        }
        parts.append(rows(step))
        return parts.joined(separator: ", ")
    }

    static func rows(_ step: ReadProgress) -> String {
        "\(step.rowsFound) Kasia row\(step.rowsFound == 1 ? "" : "s") read"
    }

    /// The line after: "read 7 routes and walked 1204 blocks: 12 Kasia rows read".
    static func summary(_ step: ReadProgress) -> String {
        var read: [String] = []
        if step.routesRead > 0 { read.append("read \(step.routesRead) route\(step.routesRead == 1 ? "" : "s")") }
        if step.blocksWalked > 0 {
            read.append("walked \(step.blocksWalked) block\(step.blocksWalked == 1 ? "" : "s")")
        }
        return read.isEmpty ? "nothing to read" : read.joined(separator: " and ") + ": " + rows(step)
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
