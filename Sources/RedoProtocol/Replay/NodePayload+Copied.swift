extension NodePayload {
    /// The same payload, its task and todo texts copied into storage of its own (issue 49 item 1).
    ///
    /// ``ReplayFacts`` keeps payloads copied this way, so the texts replay hands to the tasks it
    /// builds are allocated one after another as the facts are built, a few dozen bytes per node,
    /// rather than shared with the nodes, whose texts lie among each node's own allocations. At a
    /// million nodes replay then touches megabytes of texts rather than a cache line in each of
    /// the gigabyte of pages the nodes occupy. MERGE payloads are kept as they are: they are rare.
    func withStringsCopied() -> NodePayload {
        switch self {
        case .create(let fields): .create(fields.withStringsCopied())
        case .update(let fields): .update(fields.withStringsCopied())
        case .createTodo(let todo, let deadline, let notes):
            .createTodo(todo: todo, deadline: deadline, notes: notes.map(Self.copied))
        case .completeTodo(let todo, let completed, let notes):
            .completeTodo(todo: todo, completed: completed, notes: notes.map(Self.copied))
        case .snooze(let todo, let change, let notes):
            .snooze(todo: todo, change: change, notes: notes.map(Self.copied))
        case .archive, .unarchive, .delete, .merge: self
        }
    }

    /// `string` in storage of its own; a string short enough to be held inline has none, and is
    /// returned as it is.
    static func copied(_ string: String) -> String {
        var original = string
        return original.withUTF8 { utf8 in
            guard utf8.count > 15 else { return string }
            return String(unsafeUninitializedCapacity: utf8.count) { buffer in
                _ = buffer.initialize(fromContentsOf: utf8)
                return utf8.count
            }
        }
    }
}

extension TaskFieldChanges {
    fileprivate func withStringsCopied() -> TaskFieldChanges {
        var copy = self
        copy.title = title.map(NodePayload.copied)
        copy.description = description.map(NodePayload.copied)
        return copy
    }
}
