import Logging
import ServiceLifecycle
import TandemBasics
import TandemServerStore
import TandemTesting
import Testing

/// The group committer both backends store relay submissions through (issue 26 item 2): a
/// service that batches what arrives while a batch is stored, answers each caller its own
/// result, refuses work when it is not running, and drains what it accepted on shutdown.
@Suite struct GroupCommitterTests {
    /// A commit that records each batch and holds the first until `release` yields; entries
    /// named "bad" fail alone.
    struct Recorder: Sendable {
        struct Bad: Error, Equatable {}
        let batches = Locked<[[String]]>([])
        let release: AsyncStream<Void>
        let releaser: AsyncStream<Void>.Continuation

        init() { (release, releaser) = AsyncStream.makeStream(of: Void.self) }

        func commit(_ entries: [String]) async -> [Result<String, any Error>] {
            let first = batches.withLock { batches in
                batches.append(entries)
                return batches.count == 1
            }
            if first { for await _ in release { break } }
            return entries.map { $0 == "bad" ? .failure(Bad()) : .success($0.uppercased()) }
        }
    }

    @Test func anEntrySubmittedBeforeTheRunStartsIsStoredOnceItDoes() async throws {
        let committer = GroupCommitter<String, String>(name: "test") { $0.map { .success($0 + "!") } }
        let early = Task { try await committer.submit("a") }
        #expect(await eventually { committer.waiting == 1 })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await committer.run() }
            let answer = try await early.value
            #expect(answer == "a!")
            group.cancelAll()
        }
        // Stopped (cancelled): refused at once.
        await #expect(throws: ServerStoreError.self) { try await committer.submit("b") }
    }

    @Test func whatArrivesDuringABatchIsStoredByTheNextOneInOrderWithItsOwnResult() async throws {
        let recorder = Recorder()
        let committer = GroupCommitter<String, String>(name: "test", maximumBatch: 3) { await recorder.commit($0) }
        let answers = Locked<[String: Result<String, Recorder.Bad>]>([:])
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await committer.run() }
            #expect(await eventually { committer.accepting })
            let submit: @Sendable (String) async -> Void = { entry in
                do {
                    let answer = try await committer.submit(entry)
                    answers.withLock { $0[entry] = .success(answer) }
                } catch let error as Recorder.Bad {
                    answers.withLock { $0[entry] = .failure(error) }
                } catch {
                    Issue.record("unexpected \(error)")
                }
            }
            let first = Task { await submit("first") }
            #expect(await eventually { recorder.batches.withLock { $0.count } == 1 })
            // Four arrive while the first batch is stored: they are taken three at a time.
            var later: [Task<Void, Never>] = []
            for (index, entry) in ["b", "bad", "c", "d"].enumerated() {
                later.append(Task { await submit(entry) })
                #expect(await eventually { committer.waiting == index + 1 })
            }
            recorder.releaser.yield()
            await first.value
            for task in later { await task.value }
            group.cancelAll()
        }
        #expect(recorder.batches.withLock { $0 } == [["first"], ["b", "bad", "c"], ["d"]])
        #expect(
            answers.withLock { $0 } == [
                "first": .success("FIRST"), "b": .success("B"), "bad": .failure(Recorder.Bad()), "c": .success("C"),
                "d": .success("D"),
            ])
    }

    @Test func gracefulShutdownStoresEverythingAcceptedAndRefusesTheRest() async throws {
        let recorder = Recorder()
        let committer = GroupCommitter<String, String>(name: "test") { await recorder.commit($0) }
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let group = ServiceGroup(services: [committer], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            #expect(await eventually { committer.accepting })
            let first = Task { try await committer.submit("first") }
            #expect(await eventually { recorder.batches.withLock { $0.count } == 1 })
            let second = Task { try await committer.submit("second") }
            #expect(await eventually { committer.waiting == 1 })
            await group.triggerGracefulShutdown()
            #expect(await eventually { !committer.accepting })
            // Accepted before the shutdown: answered. After it: refused.
            await #expect(throws: ServerStoreError.self) { try await committer.submit("late") }
            recorder.releaser.yield()
            #expect(try await first.value == "FIRST")
            #expect(try await second.value == "SECOND")
            try await tasks.waitForAll()
        }
        #expect(recorder.batches.withLock { $0 } == [["first"], ["second"]])
    }
}
