import ChatTimeline

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
