import CanonicalJSON
import RedoProtocol
import TandemTesting
import TestSupport
import Testing

@Suite struct ScenarioReplayTests {
    static let seeds: [UInt64] = [0, 1, 2, 3, 4, 5]

    /// Compares like the vector conventions say: accepted in order; rejected/pending by id+code;
    /// tombstones, pruned, deletedTasks and full task states exactly.
    static func expectMatches(_ result: ReplayResult, _ expected: JSONValue, _ label: String) {
        let actual = result.jsonValue
        for key in ["accepted", "tombstones", "pruned", "deletedTasks", "tasks"] {
            #expect(actual[key] == expected[key], "\(label): \(key)")
        }
        for key in ["rejected", "pending"] {
            let pairs: (JSONValue?) -> [String] = { list in
                (list?.arrayValue ?? []).map { "\($0["id"]?.text ?? "") \($0["code"]?.text ?? "")" }
            }
            #expect(pairs(actual[key]) == pairs(expected[key]), "\(label): \(key)")
        }
    }

    @Test func vectorFileHasElevenScenariosPlusVariant() {
        #expect(RedoVectorFile.list("scenarios").count == 12)
    }

    @Test(arguments: NamedVector.all("scenarios"))
    func replayMatchesExpectedUnderShuffles(_ vector: NamedVector) throws {
        let nodes = try #require(vector.value["nodes"]?.arrayValue)
        let expected = try #require(vector.value["expected"])
        Self.expectMatches(ReplayResult.replaying(nodes), expected, "given order")
        for seed in Self.seeds {
            var generator = SeededRandom(seed: seed)
            Self.expectMatches(ReplayResult.replaying(nodes.shuffled(using: &generator)), expected, "seed \(seed)")
        }
    }

    @Test func replayIsIndependentOfInputOrderAcrossAllScenarios() throws {
        // Property: every permutation of the union of all scenario nodes gives identical output.
        let all = NamedVector.all("scenarios").flatMap { $0.value["nodes"]?.arrayValue ?? [] }
        let reference = try CanonicalJSON.canonicalBytes(of: ReplayResult.replaying(all).jsonValue)
        var generator = SeededRandom(seed: 42)
        for _ in 0..<20 {
            let shuffled = try CanonicalJSON.canonicalBytes(
                of: ReplayResult.replaying(all.shuffled(using: &generator)).jsonValue)
            #expect(shuffled == reference)
        }
        // Every node twice, in the given order (each parent read just before its child, the
        // replayer's fast path, and again later) and shuffled: copies change nothing but the
        // standalone rejections, which are listed once per copy received.
        let once = ReplayResult.replaying(all).jsonValue
        for doubled in [all + all, all.flatMap { [$0, $0] }, (all + all).shuffled(using: &generator)] {
            let twice = ReplayResult.replaying(doubled).jsonValue
            for key in ["accepted", "pending", "tombstones", "pruned", "deletedTasks", "tasks"] {
                #expect(twice[key] == once[key], "\(key)")
            }
            let rejected: (JSONValue) -> Set<String> = { Set(($0["rejected"]?.arrayValue ?? []).map { "\($0)" }) }
            #expect(rejected(twice) == rejected(once))
        }
    }

    @Test func rankExampleMatchesTheRecommendedFormula() throws {
        let examples = try RedoVectorFile.section("rankExamples")["examples"]?.arrayValue ?? []
        #expect(!examples.isEmpty)
        for example in examples {
            let scenario = try #require(NamedVector.all("scenarios").first { $0.value["name"] == example["scenario"] })
            let result = ReplayResult.replaying(scenario.value["nodes"]?.arrayValue ?? [])
            let task = try #require(result.tasks.first { $0.taskID.description == example["taskId"]?.text })
            let now = try #require(WallTime(example["now"]?.text ?? ""))
            let rank = try #require(Ranking.rank(task, now: now))
            #expect(abs(rank - (example["rank"]?.numberValue ?? 0)) < 1e-9)
            #expect(Ranking.ranked(result.tasks, now: now).first?.task.taskID == task.taskID)
        }
    }
}

@Suite struct UrgencyVectorTests {
    @Test func exactUrgencyValuesMatch() throws {
        let urgency = try RedoVectorFile.section("urgency")
        let tolerance = urgency["exactTolerance"]?.numberValue ?? 0
        let exact = urgency["exact"]?.arrayValue ?? []
        #expect(exact.count == 12)
        for entry in exact {
            let days = try #require(entry["daysUntilDue"]?.numberValue)
            #expect(
                abs(Ranking.urgency(daysUntilDue: days) - (entry["urgency"]?.numberValue ?? 0)) <= tolerance,
                "t = \(days)")
        }
    }

    @Test func specUrgencyValuesMatchWithinTolerance() throws {
        let specVectors = try RedoVectorFile.section("urgency")["specVectors"]?.arrayValue ?? []
        #expect(specVectors.count == 4)
        for entry in specVectors {
            let days = try #require(entry["daysUntilDue"]?.numberValue)
            let expected = try #require(entry["expected"]?.numberValue)
            #expect(abs(Ranking.urgency(daysUntilDue: days) - expected) <= (entry["tolerance"]?.numberValue ?? 0))
        }
    }
}
