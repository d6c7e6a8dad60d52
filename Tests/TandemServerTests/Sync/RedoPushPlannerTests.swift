import TandemAPI
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// Every rule of the node push's contextual checks (issue 12 item 2), without a database: the
/// planner is the one place both stores take their per-node answers from.
@Suite struct RedoPushPlannerTests {
    static func node(_ id: String, task: String, create: Bool = false, parents: [String] = []) -> RedoNodeDraft {
        RedoNodeDraft(
            id: id, taskID: task, isCreate: create, parents: parents, authorKey: "key-\(id)",
            json: Array("{\"id\":\"\(id)\"}".utf8))
    }

    static func plan(_ drafts: [RedoNodeDraft], facts: RedoPushFacts = .init(), clock: Int64 = 100) -> RedoPushPlan {
        RedoPushPlanner.plan(drafts, pusher: "me", facts: facts, clock: clock)
    }

    @Test func aCreateOfANewTaskIsAcceptedGrantsThePusherAndTakesTheNextPositions() {
        let plan = Self.plan([Self.node("a1", task: "A", create: true)])
        #expect(plan.outcomes == [.accepted])
        #expect(plan.grants == ["A"])
        #expect(
            plan.nodes == [
                .init(id: "a1", taskID: "A", position: 101, json: Array(#"{"id":"a1"}"#.utf8), authorKey: "key-a1")
            ])
        #expect(plan.feed == [.init(position: 102, userID: "me", nodeID: "a1", nodePosition: 101)])
        #expect(plan.clock == 102)
    }

    @Test func aTaskOfAnotherAccountIsForbiddenBeforeAnyOtherCheck() {
        let facts = RedoPushFacts(readers: ["A": ["other"]], nodeTasks: ["a1": "A"])
        let plan = Self.plan(
            [
                Self.node("a1", task: "A", create: true), Self.node("a2", task: "A", parents: ["a1"]),
                Self.node("a9", task: "A", create: true),
            ], facts: facts)
        #expect(plan.outcomes == Array(repeating: .rejected(.taskForbidden), count: 3))
        #expect(plan.nodes.isEmpty && plan.feed.isEmpty && plan.grants.isEmpty)
        #expect(plan.clock == 100)
    }

    @Test func aStoredIdOrOneAcceptedEarlierInThePushIsADuplicate() {
        let facts = RedoPushFacts(readers: ["A": ["me"]], nodeTasks: ["a1": "A"])
        let plan = Self.plan(
            [
                Self.node("a1", task: "A", create: true), Self.node("a2", task: "A", parents: ["a1"]),
                Self.node("a2", task: "A", parents: ["a1"]),
            ], facts: facts)
        #expect(plan.outcomes == [.duplicate, .accepted, .duplicate])
        #expect(plan.nodes.map(\.id) == ["a2"])
    }

    @Test func aSecondCreateOfATaskIsADuplicateCreateWhetherStoredOrInThePush() {
        let stored = Self.plan(
            [Self.node("a9", task: "A", create: true)], facts: RedoPushFacts(readers: ["A": ["me"]]))
        #expect(stored.outcomes == [.rejected(.redo(.duplicateCreate))])
        let inPush = Self.plan([Self.node("b1", task: "B", create: true), Self.node("b9", task: "B", create: true)])
        #expect(inPush.outcomes == [.accepted, .rejected(.redo(.duplicateCreate))])
        #expect(inPush.grants == ["B"])
    }

    @Test func aNodeNeedsItsTaskAndEveryParentStoredInThatTask() {
        let facts = RedoPushFacts(readers: ["A": ["me"], "B": ["me"]], nodeTasks: ["a1": "A", "b1": "B"])
        let plan = Self.plan(
            [
                Self.node("x1", task: "A", parents: ["missing"]),
                Self.node("x2", task: "B", parents: ["a1"]),
                Self.node("x3", task: "C", parents: []),
                Self.node("x4", task: "A", parents: ["a1", "b1"]),
                Self.node("a2", task: "A", parents: ["a1"]),
                Self.node("a3", task: "A", parents: ["a1", "a2"]),
            ], facts: facts)
        let missing = RedoNodeOutcome.rejected(.redo(.parentNotFound))
        #expect(plan.outcomes == [missing, missing, missing, missing, .accepted, .accepted])
        #expect(plan.nodes.map(\.id) == ["a2", "a3"])
    }

    @Test func aParentOfARejectedNodeDoesNotCountAsStored() {
        let plan = Self.plan([
            Self.node("x1", task: "A", parents: ["nope"]), Self.node("x2", task: "A", parents: ["x1"]),
        ])
        #expect(plan.outcomes.allSatisfy { $0 == .rejected(.redo(.parentNotFound)) })
    }

    @Test func everyReaderGetsAFeedRowInIdOrderAndRejectedNodesTakeNoPosition() {
        let facts = RedoPushFacts(readers: ["A": ["me", "zed", "amy"]], nodeTasks: ["a1": "A"])
        let plan = Self.plan(
            [
                Self.node("a2", task: "A", parents: ["a1"]), Self.node("x", task: "A", parents: ["gone"]),
                Self.node("a3", task: "A", parents: ["a2"]),
            ], facts: facts, clock: 7)
        #expect(plan.outcomes == [.accepted, .rejected(.redo(.parentNotFound)), .accepted])
        #expect(plan.nodes.map(\.position) == [8, 12])
        #expect(plan.feed.map(\.position) == [9, 10, 11, 13, 14, 15])
        #expect(plan.feed.map(\.userID) == ["amy", "me", "zed", "amy", "me", "zed"])
        #expect(plan.feed.map(\.nodeID) == ["a2", "a2", "a2", "a3", "a3", "a3"])
        #expect(plan.feed.map(\.nodePosition) == [8, 8, 8, 12, 12, 12])
        #expect(plan.clock == 15)
        #expect(plan.grants.isEmpty)
    }

    @Test func theFactsToReadNameEachTaskAndNodeOnceInFirstSeenOrder() {
        let drafts = [
            Self.node("a2", task: "A", parents: ["a1"]), Self.node("b1", task: "B", create: true),
            Self.node("a3", task: "A", parents: ["a2", "a1"]),
        ]
        #expect(RedoPushFacts.taskIDs(of: drafts) == ["A", "B"])
        #expect(RedoPushFacts.nodeIDs(of: drafts) == ["a2", "a1", "b1", "a3"])
        #expect(Self.plan([]).outcomes.isEmpty)
    }
}
