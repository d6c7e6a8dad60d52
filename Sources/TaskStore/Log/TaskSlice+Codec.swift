import CanonicalJSON
import Dispatch
import Foundation
import RedoProtocol
import TandemBasics

/// A slice's bytes in `projection_task.state`: canonical JSON arrays, integers as decimal strings
/// (exact beyond 2^53) and times as epoch milliseconds.
///
/// Bytes that do not decode are never an error: the projection is a cache, so the store replays
/// the log again (issue 12 item 6).
extension TaskSlice {
    static let format = "tandem-task-slice/2"

    func encoded() throws -> [UInt8] {
        let value: JSONValue = .array([
            .string(Self.format),
            .string(taskID.description),
            .array(accepted.map { .array([.string($0.id.description), Self.int($0.lamport), Self.int($0.wall)]) }),
            .array(rejected.map(Self.verdict)),
            .array(pending.map(Self.verdict)),
            .array(tombstones.map { .string($0.description) }),
            .array(pruned.map { .string($0.description) }),
            .bool(deleted),
            task.map(Self.task) ?? .null,
            .array(danglingParents.map { .string($0.description) }),
        ])
        return try CanonicalJSON.canonicalBytes(of: value)
    }

    /// The ten parts of a slice this build wrote (its format first); nil for other bytes.
    private static func parts(_ bytes: [UInt8]) -> [JSONValue]? {
        let limits = JSONParser.Limits(maxBytes: Int.max, maxDepth: 16)
        guard let value = try? CanonicalJSON.parse(bytes, limits: limits), let parts = value.arrayValue,
            parts.count == 10, parts[0].stringValue == format
        else { return nil }
        return parts
    }

    init?(decoding bytes: [UInt8]) {
        guard let parts = Self.parts(bytes), let taskID = Self.taskID(parts[1]),
            let accepted = Self.list(parts[2], Self.accepted), let rejected = Self.list(parts[3], Self.verdict),
            let pending = Self.list(parts[4], Self.verdict), let tombstones = Self.list(parts[5], Self.nodeID),
            let pruned = Self.list(parts[6], Self.nodeID), let deleted = parts[7].boolValue,
            let dangling = Self.list(parts[9], Self.nodeID)
        else { return nil }
        var task: RedoTask?
        if case .null = parts[8] {
            task = nil
        } else {
            guard let decoded = Self.task(parts[8]), decoded.taskID == taskID else { return nil }
            task = decoded
        }
        self.init(taskID: taskID)
        self.accepted = accepted
        self.rejected = rejected
        self.pending = pending
        self.tombstones = tombstones
        self.pruned = pruned
        self.deleted = deleted
        self.task = task
        self.danglingParents = dangling
    }

    /// Only the live state in a slice's bytes, for readers that want the tasks alone (`tandem
    /// tasks list`, issue 29): the format, the task id and the task are read; the node lists are
    /// neither decoded nor checked. Nil when the bytes hold no task that decodes for their task.
    static func task(decoding bytes: [UInt8]) -> RedoTask? {
        guard let parts = parts(bytes), let taskID = Self.taskID(parts[1]), let task = Self.task(parts[8]),
            task.taskID == taskID
        else { return nil }
        return task
    }

    /// Every blob's slice, in order, or nil when one does not decode. The whole state of a log
    /// decodes every task's slice (a new device's first state after a pull of 10,000 nodes holds
    /// 2,500: issue 12 "Figures"), so large lists are decoded on every core.
    static func decodingAll(_ blobs: [[UInt8]]) -> [TaskSlice]? {
        decodingAll(blobs) { TaskSlice(decoding: $0) }
    }

    /// `decode` of every blob, in order, on every core for large lists; nil when one does not
    /// decode.
    static func decodingAll<Decoded: Sendable>(
        _ blobs: [[UInt8]], _ decode: @escaping @Sendable ([UInt8]) -> Decoded?
    ) -> [Decoded]? {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks = min(cores * 4, blobs.count / 128)
        guard cores > 1, chunks > 1 else { return decoding(blobs[...], decode) }
        let size = (blobs.count + chunks - 1) / chunks
        let parts = Locked<[[Decoded]?]>(Array(repeating: nil, count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let lower = min(chunk * size, blobs.count)
            let decoded = decoding(blobs[lower..<min(lower + size, blobs.count)], decode)
            parts.withLock { $0[chunk] = decoded }
        }
        var all: [Decoded] = []
        all.reserveCapacity(blobs.count)
        for part in parts.withLock({ $0 }) {
            guard let part else { return nil }
            all += part
        }
        return all
    }

    private static func decoding<Decoded>(_ blobs: ArraySlice<[UInt8]>, _ decode: ([UInt8]) -> Decoded?)
        -> [Decoded]?
    {
        var all: [Decoded] = []
        all.reserveCapacity(blobs.count)
        for blob in blobs {
            guard let decoded = decode(blob) else { return nil }
            all.append(decoded)
        }
        return all
    }

    // MARK: writing

    private static func int(_ value: Int64) -> JSONValue { .string(String(value)) }

    private static func verdict(_ verdict: NodeVerdict) -> JSONValue {
        .array([.string(verdict.id), .string(verdict.code.rawValue), .string(verdict.detail)])
    }

    private static func task(_ task: RedoTask) -> JSONValue {
        .array([
            .string(task.taskID.description), .string(task.createdBy.description),
            int(task.created.millisecondsSinceEpoch), .string(task.title), .string(task.description),
            .bool(task.privacy), int(task.storyPoints), int(task.priority), int(task.frequencyDays),
            .bool(task.archived), .array(task.todos.map(todo)), .array(task.heads.map { .string($0.description) }),
            .string(task.latestNodeID.description), int(task.updated.millisecondsSinceEpoch),
        ])
    }

    private static func todo(_ todo: TodoTask) -> JSONValue {
        .array([
            .string(todo.guid.description), .string(todo.nodeID.description), int(todo.lamport),
            int(todo.wall.millisecondsSinceEpoch), int(todo.deadline.millisecondsSinceEpoch), .string(todo.notes),
            todo.completed.map { int($0.millisecondsSinceEpoch) } ?? .null,
        ])
    }

    // MARK: reading (nil = not a slice this build wrote)

    private static func list<T>(_ value: JSONValue, _ element: (JSONValue) -> T?) -> [T]? {
        guard let values = value.arrayValue else { return nil }
        var result: [T] = []
        result.reserveCapacity(values.count)
        for value in values {
            guard let decoded = element(value) else { return nil }
            result.append(decoded)
        }
        return result
    }

    private static func int(_ value: JSONValue) -> Int64? { value.stringValue.flatMap { Int64($0) } }
    private static func nodeID(_ value: JSONValue) -> NodeID? { value.stringValue.flatMap(NodeID.init) }
    private static func taskID(_ value: JSONValue) -> TaskID? { value.stringValue.flatMap(TaskID.init) }
    private static func time(_ value: JSONValue) -> WallTime? {
        int(value).flatMap { WallTime(millisecondsSinceEpoch: $0) }
    }

    private static func accepted(_ value: JSONValue) -> Accepted? {
        guard let parts = value.arrayValue, parts.count == 3, let id = nodeID(parts[0]), let lamport = int(parts[1]),
            let wall = int(parts[2])
        else { return nil }
        return Accepted(id: id, lamport: lamport, wall: wall)
    }

    private static func verdict(_ value: JSONValue) -> NodeVerdict? {
        guard let parts = value.arrayValue, parts.count == 3, let id = parts[0].stringValue,
            let code = parts[1].stringValue.flatMap(RedoCode.init(rawValue:)), let detail = parts[2].stringValue
        else { return nil }
        return NodeVerdict(id: id, code: code, detail: detail)
    }

    private static func task(_ value: JSONValue) -> RedoTask? {
        guard let p = value.arrayValue, p.count == 14, let taskID = taskID(p[0]),
            let createdBy = p[1].stringValue.flatMap(UserID.init), let created = time(p[2]),
            let title = p[3].stringValue, let description = p[4].stringValue, let privacy = p[5].boolValue,
            let storyPoints = int(p[6]), let priority = int(p[7]), let frequencyDays = int(p[8]),
            let archived = p[9].boolValue, let todos = list(p[10], todo), let heads = list(p[11], nodeID),
            let latest = nodeID(p[12]), let updated = time(p[13])
        else { return nil }
        return RedoTask(
            taskID: taskID, createdBy: createdBy, created: created, title: title, description: description,
            privacy: privacy, storyPoints: storyPoints, priority: priority, frequencyDays: frequencyDays,
            archived: archived, todos: todos, heads: heads, latestNodeID: latest, updated: updated)
    }

    private static func todo(_ value: JSONValue) -> TodoTask? {
        guard let p = value.arrayValue, p.count == 7, let guid = p[0].stringValue.flatMap(TodoID.init),
            let nodeID = nodeID(p[1]), let lamport = int(p[2]), let wall = time(p[3]), let deadline = time(p[4]),
            let notes = p[5].stringValue
        else { return nil }
        let completed: WallTime?
        if case .null = p[6] {
            completed = nil
        } else {
            guard let time = time(p[6]) else { return nil }
            completed = time
        }
        return TodoTask(
            guid: guid, nodeID: nodeID, lamport: lamport, wall: wall, deadline: deadline, notes: notes,
            completed: completed)
    }
}
