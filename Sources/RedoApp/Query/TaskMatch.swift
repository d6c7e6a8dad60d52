import Foundation
public import RedoProtocol

/// Which task a person means by a short reference, as a shortcut's "complete TASK" takes it: a
/// task id or a prefix of one (4 or more of its characters), else a title, whole or a prefix,
/// compared case- and diacritic-insensitively.
public enum TaskMatch: Sendable, Equatable {
    case none
    case one(RedoTask)
    /// Several tasks fit equally well, by task id.
    case many([RedoTask])

    /// Matches `reference` among `tasks`: an id wins over a title, a whole title over a prefix.
    public static func find(_ reference: String, in tasks: [RedoTask]) -> TaskMatch {
        let trimmed = reference.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return .none }
        let needle = trimmed.lowercased()
        if needle.count >= 4, needle.allSatisfy({ $0.isHexDigit || $0 == "-" }) {
            let byID = tasks.filter { $0.taskID.description.hasPrefix(needle) }
            if !byID.isEmpty { return result(byID) }
        }
        let folded = SearchText.fold(trimmed)
        let exact = tasks.filter { SearchText.fold($0.title) == folded }
        if !exact.isEmpty { return result(exact) }
        return result(tasks.filter { SearchText.fold($0.title).starts(with: folded) })
    }

    private static func result(_ tasks: [RedoTask]) -> TaskMatch {
        switch tasks.count {
        case 0: .none
        case 1: .one(tasks[0])
        default: .many(tasks.sorted { $0.taskID < $1.taskID })
        }
    }
}
