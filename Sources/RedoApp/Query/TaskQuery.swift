public import RedoProtocol

/// A find-and-filter request over replayed tasks (issue 27 item 2): what a list screen, a saved
/// preset and `tandem tasks list` ask. Every member is optional narrowing; the default query is
/// today's `tasks list`: active tasks by rank.
public struct TaskQuery: Sendable, Hashable {
    /// Which tasks by their life cycle. Every task recurs in Redo v1, but another client may
    /// complete a todo without scheduling the next, so a task can be left with no open todo.
    public enum Status: String, Sendable, Hashable, Codable, CaseIterable {
        /// Not archived, with an open todo.
        case active
        /// Not archived, with no open todo.
        case completed
        /// Archived, whatever its todos.
        case archived
        case all
    }

    /// Whose tasks: created by one of this account's device keys, or readable through a share.
    public enum Ownership: String, Sendable, Hashable, Codable, CaseIterable {
        case mine
        case shared
    }

    /// The order of the results; ties are broken by task id, ascending.
    public enum SortKey: String, Sendable, Hashable, Codable, CaseIterable {
        /// Rank (spec §10), highest first; unranked tasks (archived, no open todo) last.
        case rank
        /// The current todo's deadline, soonest first; tasks with no open todo last.
        case due
        /// Priority, highest first.
        case priority
        /// Creation time, newest first.
        case created
        /// Last change, newest first.
        case updated
        /// Title, ascending, compared case- and diacritic-insensitively.
        case title
    }

    /// Words that must each occur (case- and diacritic-insensitively) in the title, the
    /// description or a todo's notes. Empty or nil: no text filter.
    public var search: String?
    public var status: Status
    /// Inclusive priority bounds, each 1…5.
    public var priorityMin: Int64?
    public var priorityMax: Int64?
    /// The current todo's deadline is strictly before / after this instant.
    public var dueBefore: WallTime?
    public var dueAfter: WallTime?
    /// Only tasks whose current todo is past its deadline at the context's `now`.
    public var overdue: Bool
    /// Only tasks with no open todo to be due.
    public var noDue: Bool
    public var ownership: Ownership?
    public var sort: SortKey
    /// At most this many results (at least 1); nil: all.
    public var limit: Int?

    public init(
        search: String? = nil, status: Status = .active, priorityMin: Int64? = nil, priorityMax: Int64? = nil,
        dueBefore: WallTime? = nil, dueAfter: WallTime? = nil, overdue: Bool = false, noDue: Bool = false,
        ownership: Ownership? = nil, sort: SortKey = .rank, limit: Int? = nil
    ) {
        self.search = search
        self.status = status
        self.priorityMin = priorityMin
        self.priorityMax = priorityMax
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        self.overdue = overdue
        self.noDue = noDue
        self.ownership = ownership
        self.sort = sort
        self.limit = limit
    }

    /// Checks the bounds a caller may get wrong; a query that passes runs without error.
    public func validated() throws(TaskQueryError) -> TaskQuery {
        for (name, value) in [("priority-min", priorityMin), ("priority-max", priorityMax)] {
            if let value, !RedoField.priority.accepts(.number(Double(value))) {
                throw .priorityOutOfRange(option: name, value: value)
            }
        }
        if let priorityMin, let priorityMax, priorityMin > priorityMax {
            throw .emptyPriorityRange(min: priorityMin, max: priorityMax)
        }
        if let limit, limit < 1 { throw .limitNotPositive(limit) }
        if overdue && noDue { throw .contradictory("overdue and no-due") }
        if noDue && status == .active {
            throw .contradictory("no-due and status active (an active task has an open todo)")
        }
        return self
    }

    /// This query narrowed by `other`: `other`'s members where it sets them (a preset, then
    /// the flags given beside it). Bounds combine to the tighter one; flags add up.
    public func narrowed(by other: TaskQueryOverrides) -> TaskQuery {
        var result = self
        if let search = other.search {
            result.search = [self.search, search].compactMap { $0 }.joined(separator: " ")
        }
        if let status = other.status {
            result.status = status
        } else if other.noDue && result.status == .active {
            // An active task always has an open todo: "no due" alone means any status.
            result.status = .all
        }
        if let value = other.priorityMin { result.priorityMin = max(priorityMin ?? value, value) }
        if let value = other.priorityMax { result.priorityMax = min(priorityMax ?? value, value) }
        if let value = other.dueBefore { result.dueBefore = min(dueBefore ?? value, value) }
        if let value = other.dueAfter { result.dueAfter = max(dueAfter ?? value, value) }
        if other.overdue { result.overdue = true }
        if other.noDue { result.noDue = true }
        if let ownership = other.ownership { result.ownership = ownership }
        if let sort = other.sort { result.sort = sort }
        if let value = other.limit { result.limit = min(limit ?? value, value) }
        return result
    }
}

/// The members a caller set explicitly, to narrow a saved query (`--preset NAME` and more
/// flags); nil and false mean "not given".
public struct TaskQueryOverrides: Sendable, Hashable {
    public var search: String?
    public var status: TaskQuery.Status?
    public var priorityMin: Int64?
    public var priorityMax: Int64?
    public var dueBefore: WallTime?
    public var dueAfter: WallTime?
    public var overdue: Bool
    public var noDue: Bool
    public var ownership: TaskQuery.Ownership?
    public var sort: TaskQuery.SortKey?
    public var limit: Int?

    public init(
        search: String? = nil, status: TaskQuery.Status? = nil, priorityMin: Int64? = nil, priorityMax: Int64? = nil,
        dueBefore: WallTime? = nil, dueAfter: WallTime? = nil, overdue: Bool = false, noDue: Bool = false,
        ownership: TaskQuery.Ownership? = nil, sort: TaskQuery.SortKey? = nil, limit: Int? = nil
    ) {
        self.search = search
        self.status = status
        self.priorityMin = priorityMin
        self.priorityMax = priorityMax
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        self.overdue = overdue
        self.noDue = noDue
        self.ownership = ownership
        self.sort = sort
        self.limit = limit
    }

    /// The query these overrides make on their own (no preset).
    public var query: TaskQuery { TaskQuery().narrowed(by: self) }
}

/// A query that cannot run, in words a person can act on.
public enum TaskQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    case priorityOutOfRange(option: String, value: Int64)
    case emptyPriorityRange(min: Int64, max: Int64)
    case limitNotPositive(Int)
    case contradictory(String)

    public var description: String {
        switch self {
        case .priorityOutOfRange(let option, let value):
            "\(option) \(value) is out of range: priorities are \(RedoField.priority.boundsText)"
        case .emptyPriorityRange(let min, let max): "priority-min \(min) is above priority-max \(max)"
        case .limitNotPositive(let limit): "limit must be at least 1, not \(limit)"
        case .contradictory(let what): "\(what) cannot both hold"
        }
    }
}

/// A saved query's JSON (a preset's `query`): members named as the CLI's flags are, instants as
/// `YYYY-MM-DDTHH:mm:ss.sssZ`, defaults and unset members left out. Unknown members are ignored;
/// an unknown value of a known member (a sort key this build lacks) fails to decode, and the
/// preset sync counts that record as unreadable.
extension TaskQuery: Codable {
    enum CodingKeys: String, CodingKey {
        case search, status, priorityMin, priorityMax, dueBefore, dueAfter, overdue, noDue, ownership, sort, limit
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func time(_ key: CodingKeys) throws -> WallTime? {
            guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let time = WallTime(text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a timestamp")
            }
            return time
        }
        self.init(
            search: try container.decodeIfPresent(String.self, forKey: .search),
            status: try container.decodeIfPresent(Status.self, forKey: .status) ?? .active,
            priorityMin: try container.decodeIfPresent(Int64.self, forKey: .priorityMin),
            priorityMax: try container.decodeIfPresent(Int64.self, forKey: .priorityMax),
            dueBefore: try time(.dueBefore), dueAfter: try time(.dueAfter),
            overdue: try container.decodeIfPresent(Bool.self, forKey: .overdue) ?? false,
            noDue: try container.decodeIfPresent(Bool.self, forKey: .noDue) ?? false,
            ownership: try container.decodeIfPresent(Ownership.self, forKey: .ownership),
            sort: try container.decodeIfPresent(SortKey.self, forKey: .sort) ?? .rank,
            limit: try container.decodeIfPresent(Int.self, forKey: .limit))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(search, forKey: .search)
        if status != .active { try container.encode(status, forKey: .status) }
        try container.encodeIfPresent(priorityMin, forKey: .priorityMin)
        try container.encodeIfPresent(priorityMax, forKey: .priorityMax)
        try container.encodeIfPresent(dueBefore?.description, forKey: .dueBefore)
        try container.encodeIfPresent(dueAfter?.description, forKey: .dueAfter)
        if overdue { try container.encode(true, forKey: .overdue) }
        if noDue { try container.encode(true, forKey: .noDue) }
        try container.encodeIfPresent(ownership, forKey: .ownership)
        if sort != .rank { try container.encode(sort, forKey: .sort) }
        try container.encodeIfPresent(limit, forKey: .limit)
    }
}
