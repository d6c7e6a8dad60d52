import TandemBasics
import Testing

@Suite("Locked: the package's one lock (issue 46 item 1)")
struct LockedTests {
    /// Read-modify-write from many tasks at once loses no update: without mutual exclusion two
    /// tasks read the same count and one increment disappears.
    @Test func concurrentUpdatesAreNotLost() async {
        let counter = Locked(0)
        let tasks = 8
        let rounds = 20_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    for _ in 0..<rounds {
                        counter.withLock { count in
                            let seen = count
                            count = seen + 1
                        }
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == tasks * rounds)
    }

    /// Compound state changes as a unit: no reader sees one half of an update.
    @Test func readersSeeWholeUpdates() async {
        let pair = Locked((a: 0, b: 0))
        let torn = await withTaskGroup(of: Int.self) { group in
            group.addTask {
                for _ in 0..<20_000 {
                    pair.withLock {
                        $0.a += 1
                        $0.b -= 1
                    }
                }
                return 0
            }
            group.addTask {
                var torn = 0
                for _ in 0..<20_000 where pair.withLock({ $0.a + $0.b }) != 0 { torn += 1 }
                return torn
            }
            return await group.reduce(0, +)
        }
        #expect(torn == 0)
        #expect(pair.withLock { $0.a } == 20_000)
    }

    struct Refused: Error, Equatable {}

    /// A closure's error reaches the caller typed, and what it changed before throwing stays.
    @Test func aThrowingClosureReleasesTheLock() throws {
        let items = Locked<[Int]>([])
        #expect(throws: Refused.self) {
            try items.withLock { (items: inout [Int]) throws(Refused) in
                items.append(1)
                throw Refused()
            }
        }
        // Not left held: this would wait forever otherwise.
        items.withLock { $0.append(2) }
        #expect(items.withLock { $0 } == [1, 2])
    }
}
