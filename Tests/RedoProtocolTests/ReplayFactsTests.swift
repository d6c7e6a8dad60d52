import CanonicalJSON
import RedoProtocol
import TandemTesting
import TestSupport
import Testing

@testable import RedoProtocol

/// Facts built as nodes are added (issue 49 item 1) replay to the same bytes as a replay of the
/// same nodes from scratch, whether they arrive in total order (added in place) or not (built
/// again), on every scenario vector and on 1,000 seeded random logs.
@Suite("Replay facts (issue 49 item 1)")
struct ReplayFactsTests {
    static func bytes(_ result: ReplayResult) throws -> [UInt8] {
        try CanonicalJSON.canonicalBytes(of: result.jsonValue)
    }

    /// Adds `nodes` in batches of random sizes.
    static func added(_ nodes: [RedoNode], using random: inout SeededRandom) -> ReplayFacts {
        var facts = ReplayFacts()
        var rest = nodes[...]
        while !rest.isEmpty {
            let size = Int.random(in: 1...max(1, rest.count), using: &random)
            facts.add(Array(rest.prefix(size)))
            rest = rest.dropFirst(size)
        }
        return facts
    }

    @Test("every scenario, its nodes in the given order, shuffled in batches and in total order one by one")
    func scenarios() throws {
        var random = SeededRandom(seed: 4_901)
        let validator = NodeValidator()
        for vector in NamedVector.all("scenarios") {
            let values = try #require(vector.value["nodes"]?.arrayValue)
            let nodes = values.compactMap { try? validator.validate($0) }
            let reference = try Self.bytes(Replayer.replay(nodes))
            #expect(try Self.bytes(Replayer.replay(ReplayFacts(nodes: nodes))) == reference, "\(vector)")
            let shuffled = Self.added(nodes.shuffled(using: &random), using: &random)
            #expect(try Self.bytes(Replayer.replay(shuffled)) == reference, "\(vector) shuffled")
            var inOrder = ReplayFacts()
            for node in nodes.sorted(by: RedoNode.precedes) { inOrder.add([node, node]) }
            #expect(inOrder.rebuilds == 0)
            #expect(inOrder.count == Set(nodes.map(\.id)).count)
            #expect(try Self.bytes(Replayer.replay(inOrder)) == reference, "\(vector) in order")
        }
    }

    @Test("1,000 seeded random logs: in place, built again and from scratch give the same bytes")
    func randomLogs() throws {
        var rebuilt = 0
        var inPlace = 0
        var verdicts = (rejected: 0, pending: 0, tombstones: 0)
        for seed in 0..<1_000 {
            var random = SeededRandom(seed: UInt64(49_001 + seed))
            var nodes = try RandomReplayLog.make(using: &random)
            // Parents never made stand for nodes that failed standalone checks in half the logs.
            let held = Set(nodes.map(\.id))
            let invalid =
                seed.isMultiple(of: 2)
                ? Set(nodes.flatMap(\.parents).filter { !held.contains($0) }.map(\.description)) : []
            let standalone = invalid.sorted().map { NodeVerdict(id: $0, code: .schemaMismatch, detail: "standalone") }
            // Some nodes arrive twice, in different batches.
            nodes += nodes.filter { _ in Int.random(in: 0..<8, using: &random) == 0 }
            let scratch = Replayer.replay(nodes, standaloneRejections: standalone)
            let reference = try Self.bytes(scratch)
            verdicts.rejected += scratch.rejected.count
            verdicts.pending += scratch.pending.count
            verdicts.tombstones += scratch.tombstones.count
            // The replayer's classification against the spec's rules written plainly (§7.2 step 2).
            let oracle = NaiveClassification(nodes, invalid: invalid)
            #expect(scratch.accepted == oracle.accepted, "seed \(seed)")
            #expect(Set(scratch.rejected.map(\.id)) == oracle.rejected.union(invalid), "seed \(seed)")
            #expect(Set(scratch.pending.map(\.id)) == oracle.pending, "seed \(seed)")
            let sorted = nodes.sorted(by: RedoNode.precedes)
            var ordered = ReplayFacts()
            ordered.add(Array(sorted.prefix(sorted.count / 2)))
            ordered.add(Array(sorted.dropFirst(sorted.count / 2)))
            inPlace += ordered.rebuilds == 0 ? 1 : 0
            #expect(
                try Self.bytes(Replayer.replay(ordered, standaloneRejections: standalone)) == reference,
                "seed \(seed) in order")
            let shuffled = Self.added(nodes.shuffled(using: &random), using: &random)
            rebuilt += shuffled.rebuilds
            #expect(
                try Self.bytes(Replayer.replay(shuffled, standaloneRejections: standalone)) == reference,
                "seed \(seed) shuffled")
        }
        // The logs exercise both paths and every kind of verdict, or the comparison proves little.
        #expect(inPlace == 1_000)
        #expect(rebuilt > 500)
        #expect(verdicts.rejected > 100 && verdicts.pending > 100 && verdicts.tombstones > 50, "\(verdicts)")
    }

    /// The facts hold their payloads' texts in storage of their own, so replay reads them where
    /// the facts were built and not among the nodes' allocations; the texts are unchanged.
    @Test("payload texts are copied into the facts' own storage, unchanged")
    func payloadTextsAreCopied() throws {
        func address(_ string: String) -> UnsafeRawPointer? {
            var copy = string
            return copy.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        let long = "a title of more than fifteen bytes, é and 😀"
        let fields = TaskFieldChanges(title: long, description: "short")
        guard case .update(let copied) = NodePayload.update(fields).withStringsCopied(),
            case .createTodo(_, _, let notes) = NodePayload.createTodo(
                todo: try #require(TodoID("4f1c9b9e-1d2a-4c3b-8a7d-0e5f6a7b8c9d")),
                deadline: try #require(WallTime("2026-12-03T00:00:00.000Z")), notes: long
            ).withStringsCopied()
        else {
            Issue.record("the action changed")
            return
        }
        #expect(copied == fields)
        #expect(notes == long)
        #expect(address(try #require(copied.title)) != address(long))
        #expect(address(try #require(notes)) != address(long))
    }
}

/// A seeded log of one to four tasks and up to forty nodes: every action but MERGE (the scenario
/// vectors hold those), a parent mostly from the same task but also from another or never made,
/// now and then a second CREATE, lamports mostly right but not always, DELETEs whose chain is
/// right or one short.
enum RandomReplayLog {
    static func make(using random: inout SeededRandom) throws -> [RedoNode] {
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        let key = try SigningKey(seed: [UInt8](repeating: 9, count: 32))
        let author = Author(publicKey: key.publicKey, deviceID: try #require(DeviceID("replay-facts")))
        let tasks = (0..<Int.random(in: 1...4, using: &random)).map { _ in TaskID(randomBytes: bytes(16)) }
        var nodes: [RedoNode] = []
        var todos: [TaskID: [TodoID]] = [:]
        for step in 0..<Int.random(in: 1...40, using: &random) {
            let task = tasks.randomElement(using: &random) ?? tasks[0]
            let own = nodes.filter { $0.taskID == task }
            // One parent (a CREATE has none): mostly of the same task, sometimes of another, or never made.
            var parent = own.last.map { Bool.random(using: &random) ? $0 : own.randomElement(using: &random) ?? $0 }
            if Int.random(in: 0..<10, using: &random) == 0 { parent = nodes.randomElement(using: &random) ?? parent }
            var parentID = parent?.id
            if parentID != nil, Int.random(in: 0..<12, using: &random) == 0 { parentID = NodeID(digest: bytes(32)) }
            let creates = parentID == nil || Int.random(in: 0..<25, using: &random) == 0
            let parentIDs = creates ? [] : parentID.map { [$0] } ?? []
            let lamport =
                creates
                ? 1
                : Int.random(in: 0..<10, using: &random) == 0
                    ? Int64.random(in: 1...6, using: &random) : (parent?.lamport ?? 0) + 1
            let todo = todos[task]?.randomElement(using: &random)
            let wall = try #require(WallTime(millisecondsSinceEpoch: 1_780_000_000_000 + Int64(step) * 1_000))
            let payload: NodePayload
            switch creates ? 0 : Int.random(in: 1..<20, using: &random) {
            case 0: payload = .create(TaskFieldChanges(title: "task \(step)"))
            case 1...5: payload = .update(TaskFieldChanges(priority: Int64.random(in: 1...5, using: &random)))
            case 6...8:
                let guid = TodoID(randomBytes: bytes(16))
                todos[task, default: []].append(guid)
                payload = .createTodo(todo: guid, deadline: wall, notes: nil)
            case 9...10:
                payload = .completeTodo(todo: todo ?? TodoID(randomBytes: bytes(16)), completed: wall, notes: "n")
            case 11...12:
                payload = .snooze(todo: todo ?? TodoID(randomBytes: bytes(16)), change: .extendByDays(1), notes: nil)
            case 13...14: payload = .archive
            case 15...16: payload = .unarchive
            default:
                var chain = ancestors(of: parentIDs, in: nodes)
                if chain.count > 1, Bool.random(using: &random) { chain.removeLast() }
                if chain.isEmpty { chain = parentIDs }
                payload = .delete(deletedChain: chain)
            }
            nodes.append(
                try NodeDraft(
                    taskID: task, action: payload.action, payload: try payload.jsonObject(), parents: parentIDs,
                    lamport: lamport, wall: wall, author: author
                ).node(signedWith: nil))
        }
        return nodes
    }

    /// The ancestors of `parents` (themselves included) among `nodes`, root first.
    static func ancestors(of parents: [NodeID], in nodes: [RedoNode]) -> [NodeID] {
        var found: Set<NodeID> = []
        var stack = parents
        while let id = stack.popLast() {
            guard found.insert(id).inserted, let node = nodes.first(where: { $0.id == id }) else { continue }
            stack.append(contentsOf: node.parents)
        }
        return nodes.map(\.id).filter { found.contains($0) }
    }
}

/// Spec §7.2 step 2 written plainly, for logs without MERGE: nodes in total order, each parent
/// looked up by id, a dictionary per question. What it accepts, rejects and holds pending, the
/// replayer must too.
struct NaiveClassification {
    var accepted: [NodeID] = []
    var rejected: Set<String> = []
    var pending: Set<String> = []

    init(_ nodes: [RedoNode], invalid: Set<String> = []) {
        var byID: [NodeID: RedoNode] = [:]
        for node in nodes { byID[node.id] = node }
        var verdict: [NodeID: String] = [:]
        var created: Set<TaskID> = []
        var todos: Set<String> = []
        for node in byID.values.sorted(by: RedoNode.precedes) {
            let outcome = Self.classify(node, byID, invalid, verdict, &created, &todos)
            verdict[node.id] = outcome
            switch outcome {
            case "accepted": accepted.append(node.id)
            case "pending": pending.insert(node.id.description)
            default: rejected.insert(node.id.description)
            }
        }
    }

    private static func classify(
        _ node: RedoNode, _ byID: [NodeID: RedoNode], _ invalid: Set<String>, _ verdict: [NodeID: String],
        _ created: inout Set<TaskID>,
        _ todos: inout Set<String>
    ) -> String {
        var waits = false
        for id in node.parents {
            guard let parent = byID[id] else {
                if invalid.contains(id.description) { return "rejected" }
                waits = true
                continue
            }
            if parent.taskID != node.taskID { return "rejected" }
            switch verdict[id] {
            case nil, "rejected": return "rejected"
            case "pending": waits = true
            default: if parent.payload.action == .delete { return "rejected" }
            }
        }
        if waits { return "pending" }
        let lamports = node.parents.compactMap { byID[$0]?.lamport }
        switch node.payload {
        case .create:
            return created.insert(node.taskID).inserted ? "accepted" : "rejected"
        case _ where node.lamport != (lamports.max() ?? 0) + 1:
            return "rejected"
        case .createTodo(let todo, _, _):
            return todos.insert("\(node.taskID) \(todo)").inserted ? "accepted" : "rejected"
        case .completeTodo(let todo, _, _), .snooze(let todo, _, _):
            return todos.contains("\(node.taskID) \(todo)") ? "accepted" : "rejected"
        case .delete(let chain):
            var ancestors: Set<NodeID> = []
            var stack = node.parents
            while let id = stack.popLast() {
                guard ancestors.insert(id).inserted else { continue }
                stack.append(contentsOf: byID[id]?.parents ?? [])
            }
            return Set(chain) == ancestors ? "accepted" : "rejected"
        default:
            return "accepted"
        }
    }
}
