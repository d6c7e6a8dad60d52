/// What a push's contextual checks need from the store, read once under the sync clock's lock
/// before any row of the push is written (issue 12 item 2), so the checks themselves
/// (`RedoPushPlanner`) are the same pure code on every backend.
struct RedoPushFacts: Sendable, Equatable {
    /// The access list of each named task that has one; a task without an entry does not exist.
    var readers: [String: Set<String>]
    /// The task of each stored node among the pushed ids and their parents.
    var nodeTasks: [String: String]

    init(readers: [String: Set<String>] = [:], nodeTasks: [String: String] = [:]) {
        self.readers = readers
        self.nodeTasks = nodeTasks
    }

    /// The tasks a push names, each once, in first-seen order: the access lists to read.
    static func taskIDs(of drafts: [RedoNodeDraft]) -> [String] {
        var seen: Set<String> = []
        return drafts.map(\.taskID).filter { seen.insert($0).inserted }
    }

    /// The node ids a push names (its own and their parents), each once, in first-seen order:
    /// the stored tasks to read.
    static func nodeIDs(of drafts: [RedoNodeDraft]) -> [String] {
        var seen: Set<String> = []
        return drafts.flatMap { [$0.id] + $0.parents }.filter { seen.insert($0).inserted }
    }
}
