public import ChatHistory
import ChatTimeline
public import Foundation

/// How one message reads in the pane (issue 16 item 3): `HH:MM name: text status`, wrapped to
/// the pane's columns with continuation lines indented under the text, and the day separator
/// drawn above the first message of each local day.
public struct MessageFormat: Sendable {
    /// Shown for the peer's messages.
    public var peerName: String
    public var timeZone: TimeZone

    public init(peerName: String, timeZone: TimeZone = .current) {
        self.peerName = peerName
        self.timeZone = timeZone
    }

    /// Columns of the `HH:MM ` prefix; continuation lines are indented by as much.
    static let prefixColumns = 6

    /// The local day number of a time in milliseconds (days since 1970 in `timeZone`).
    public func day(of milliseconds: UInt64) -> Int64 {
        let seconds = Int64(clamping: milliseconds / 1000)
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let local = seconds + offset
        return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    }

    func clock(of milliseconds: UInt64) -> String {
        let seconds = Int64(clamping: milliseconds / 1000)
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
        let minuteOfDay = ((seconds + offset) % 86_400 + 86_400) % 86_400 / 60
        let hour = minuteOfDay / 60
        let minute = minuteOfDay % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    /// The separator's label, e.g. `Sun 22 Nov 2026`.
    public func dayLabel(of milliseconds: UInt64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "EEE d MMM yyyy"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// The separator row at `width` columns: `──── Sun 22 Nov 2026 ────`.
    public func separator(day milliseconds: UInt64, width: Int) -> String {
        let label = " " + dayLabel(of: milliseconds) + " "
        let labelColumns = DisplayWidth.columns(of: label)
        guard width > labelColumns + 2 else { return DisplayWidth.fit(label, width: width) }
        let left = (width - labelColumns) / 2
        return String(repeating: "─", count: left) + label
            + String(repeating: "─", count: width - left - labelColumns)
    }

    /// What an outgoing message's state adds after its text.
    static func statusSuffix(_ status: DeliveryStatus) -> String {
        switch status {
        case .pending: " …sending"
        case .sent: " ✓"
        case .confirmed: " ✓✓"
        case .failed: " ✗ failed, Ctrl-R retries"
        }
    }

    /// The message's rows at `width` columns (without the separator).
    public func lines(of message: StoredMessage, width: Int) -> [String] {
        let outgoing = message.direction == .outgoing
        let text = message.displayText
        let name = outgoing ? "me" : peerName
        let suffix = outgoing ? Self.statusSuffix(message.status) : ""
        let bodyWidth = max(1, width - Self.prefixColumns)
        let wrapped = LineWrapper.wrap(name + ": " + text + suffix, width: bodyWidth)
        let indent = String(repeating: " ", count: Self.prefixColumns)
        return wrapped.enumerated().map { index, line in
            (index == 0 ? clock(of: message.blockTime) + " " : indent) + line
        }
    }
}
