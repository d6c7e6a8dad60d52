/// Something the harness's world does at a virtual time.
enum SimulationAction: Sendable {
    case reply(PageRequest)
    /// The same reply again (a transport retry); its token is spent, so it must change nothing.
    case replayReply(PageRequest, TimelinePage)
    /// A loaded message delivered again by the network under a fresh UUID, same txId.
    case duplicate
    case reportHeight(MessageID)
    case promote(MessageID)
    case delete(MessageID)
    case burst(Int)
    case retry
}

/// A tiny time-ordered queue; ties run in insertion order.
struct SimulationSchedule: Sendable {
    private var entries: [(time: Int, sequence: Int, action: SimulationAction)] = []
    private var sequence = 0

    mutating func add(_ action: SimulationAction, at time: Int) {
        sequence += 1
        let entry = (time: time, sequence: sequence, action: action)
        var index = entries.count
        while index > 0, entries[index - 1].time > time { index -= 1 }
        entries.insert(entry, at: index)
    }

    /// Removes and returns the next action due at or before `time`.
    mutating func popDue(_ time: Int) -> SimulationAction? {
        guard let first = entries.first, first.time <= time else { return nil }
        entries.removeFirst()
        return first.action
    }

    var isEmpty: Bool { entries.isEmpty }
}
