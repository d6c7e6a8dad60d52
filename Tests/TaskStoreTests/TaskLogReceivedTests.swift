import CanonicalJSON
import Foundation
import RedoProtocol
import TaskStore
import Testing

/// Received nodes stored as ``LogEntry`` values, in parts (issue 12 "Figures": the pull stores a
/// page in parts, the first into an empty log): the stored text is each node's canonical form and
/// the state equals a fresh full replay after every part, whatever order the parts arrive in.
@Suite struct TaskLogReceivedTests {
    /// Nodes of another device: three tasks, edited, completed and one deleted.
    static func remoteNodes() throws -> [RedoNode] {
        let other = try TemporaryProfile()
        defer { other.remove() }
        let editor = try other.editor()
        let start = try #require(WallTime("2025-10-27T09:00:00.000Z"))
        let first = try editor.addTask(title: "First", now: start)
        let second = try editor.addTask(title: "Second", everyDays: 2, now: start)
        let third = try editor.addTask(title: "Third", now: start)
        _ = try editor.edit(first.taskID.description, title: "First, renamed", now: start)
        _ = try editor.complete(second.taskID.description, now: start)
        try editor.delete(third.taskID.description, now: start)
        return try editor.log.validNodes()
    }

    @Test(arguments: [1, 2, 3, 100])
    func partsStoreCanonicalTextAndKeepStateEqualToAFullReplay(partSize: Int) throws {
        let nodes = try Self.remoteNodes()
        try #require(nodes.count > 6)
        // The later half first: its children wait for parents that arrive in the next parts.
        let order = Array(nodes[(nodes.count / 2)...] + nodes[..<(nodes.count / 2)])
        let entries = try order.map(LogEntry.init)
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let log = try profile.editor().log
        var start = 0
        while start < entries.count {
            let end = min(start + partSize, entries.count)
            try log.appendReceived(Array(entries[start..<end]))
            let replayed = Replayer.replay(
                try TaskLog(path: profile.databasePath).validNodes(validator: NodeValidator()))
            #expect(try log.replay().jsonValue == replayed.jsonValue, "after nodes \(start)..<\(end)")
            start = end
        }
        let stored = try log.storedTexts()
        #expect(stored == (try order.map { try CanonicalJSON.canonicalBytes(of: .object($0.json)) }))
        #expect(try log.unsyncedCount() == 0)
        #expect(try log.replay().jsonValue == Replayer.replay(nodes).jsonValue)
    }

    /// What a push sends: every node without a mark, in append order, and nothing once all are
    /// marked (the index-only check a no-op sync takes).
    @Test func unsyncedTextsAreTheUnmarkedNodesInAppendOrder() throws {
        let nodes = try Self.remoteNodes()
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let log = try profile.editor().log
        try log.append(nodes)
        let texts = try nodes.map { try CanonicalJSON.canonicalBytes(of: .object($0.json)) }
        #expect(try log.unsyncedTexts().map(\.json) == texts)
        let marked = Set(nodes.indices.filter { $0 % 2 == 0 })
        try log.markRemote(marked.map { nodes[$0].id.description })
        let rest = nodes.indices.filter { !marked.contains($0) }
        #expect(try log.unsyncedTexts().map(\.id) == rest.map { nodes[$0].id.description })
        #expect(try log.unsyncedTexts().map(\.json) == rest.map { texts[$0] })
        #expect(try log.unsyncedTexts(limit: 1).map(\.id) == [nodes[rest[0]].id.description])
        try log.markRemote(nodes.map(\.id.description))
        #expect(try log.unsyncedTexts().isEmpty)
        #expect(try log.unsyncedCount() == 0)
    }
}
