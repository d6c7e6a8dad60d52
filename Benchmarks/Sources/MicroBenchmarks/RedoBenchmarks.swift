import CanonicalJSON
import Crypto
import RedoProtocol

/// `tandem-bench redo`: canonical JSON, content ids, validation vs raw Ed25519, replay.
public enum RedoBenchmarks {
    /// Reports plus derived figures (throughput, rate ratios) that a table of times cannot show.
    public struct Summary: Sendable, Encodable {
        public var reports: [BenchReport] = []
        public var notes: [String] = []

        public var markdown: String {
            (reports.map(\.markdown) + ["", notes.map { "- \($0)" }.joined(separator: "\n")]).joined(separator: "\n\n")
        }
    }

    /// Runs every Redo benchmark; `large` adds the one-million-node replay.
    public static func run(large: Bool = true) throws -> Summary {
        var summary = Summary()
        for step in [canonicalization, variedContentIDs, validation] {
            let (report, notes) = try step()
            summary.reports.append(report)
            summary.notes += notes
        }
        let (replayReport, replayNotes) = try replay(large: large)
        summary.reports.append(replayReport)
        summary.notes += replayNotes
        return summary
    }

    /// Content id of a ~1 KB node and canonical JSON, against raw SHA-256 of the same body; the
    /// size of the node's text, for throughput.
    public static func canonicalizationSuite() throws -> (suite: BenchSuite, textBytes: Int) {
        let node = try RedoBenchFixtures.typicalNode()
        let object = node.json
        let body = try ContentAddress.canonicalBody(of: object).bytes
        let text = try CanonicalJSON.canonicalBytes(of: .object(object))
        let kilobytes = "\(body.count) B body"
        var writer = CanonicalWriter(capacity: 2048)
        let suite = BenchSuite(
            title: "Redo content id and canonical JSON (\(kilobytes))",
            baseline: BenchCase("raw SHA-256 of the \(kilobytes)", iterations: 2_000) {
                blackHole(SHA256.hash(data: body))
            },
            others: [
                BenchCase("canonicalize parsed node (JCS writer)", iterations: 2_000) {
                    writer.reset()
                    try writer.write(object)
                    blackHole(writer.bytes.count)
                },
                BenchCase("content id (JCS body + SHA-256)", iterations: 2_000) {
                    blackHole(try ContentAddress.id(of: object))
                },
                BenchCase("parse text + canonicalize", iterations: 1_000) {
                    blackHole(try CanonicalJSON.canonicalize(text).count)
                },
            ])
        return (suite, text.count)
    }

    static func canonicalization() throws -> (BenchReport, [String]) {
        let (suite, textBytes) = try canonicalizationSuite()
        let report = try suite.report(samples: 21)
        let (canonicalize, parseAndCanon) = (report.rows[1].measurement, report.rows[3].measurement)
        return (
            report,
            [
                "canonicalization throughput: \(megabytesPerSecond(textBytes, canonicalize)) MB/s (writer), "
                    + "\(megabytesPerSecond(textBytes, parseAndCanon)) MB/s (parse + write)"
            ]
        )
    }

    /// Content ids over a set of nodes of varied shape (issue 49 item 6: the ~1 KB CREATE alone is
    /// the easy case): ten tasks' logs, every action of `RedoBenchFixtures.taskLog` with bodies of
    /// 300–500 bytes, where the canonical writer's fixed cost weighs more beside the hash. The
    /// baseline hashes the same bodies, in the same order.
    public static func variedContentIDSuite() throws -> (suite: BenchSuite, nodes: Int, bodyBytes: Int) {
        let nodes = try RedoBenchFixtures.taskLog(tasks: 10, signed: true)
        let objects = nodes.map(\.json)
        let bodies = try objects.map { try ContentAddress.canonicalBody(of: $0).bytes }
        let suite = BenchSuite(
            title: "Redo content id over \(nodes.count) nodes of varied shape",
            baseline: BenchCase("raw SHA-256 of each body", iterations: 20) {
                for body in bodies { blackHole(SHA256.hash(data: body)) }
            },
            others: [
                BenchCase("content id of each node (JCS body + SHA-256)", iterations: 20) {
                    for object in objects { blackHole(try ContentAddress.id(of: object)) }
                }
            ])
        return (suite, nodes.count, bodies.reduce(0) { $0 + $1.count })
    }

    static func variedContentIDs() throws -> (BenchReport, [String]) {
        let (suite, nodes, bodyBytes) = try variedContentIDSuite()
        return (try suite.report(samples: 21), ["varied nodes: \(nodes) bodies, \(bodyBytes / nodes) B on average"])
    }

    /// Standalone validation including the signature check, against swift-crypto's raw verify.
    public static func validationSuite() throws -> BenchSuite {
        let node = try RedoBenchFixtures.typicalNode()
        let body = try ContentAddress.canonicalBody(of: node.json).bytes
        let text = try CanonicalJSON.canonicalBytes(of: .object(node.json))
        guard let signature = node.signature,
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: node.author.publicKey.rawBytes)
        else { throw RedoBenchFixtures.FixtureError.invalid("signature") }
        let validator = NodeValidator(signaturePolicy: .required)
        let value = JSONValue.object(node.json)
        return BenchSuite(
            title: "Redo validation vs raw Ed25519 verify",
            baseline: BenchCase("raw Ed25519 verify (swift-crypto)", iterations: 40) {
                blackHole(key.isValidSignature(signature.rawBytes, for: body))
            },
            others: [
                BenchCase("validate + verify parsed node", iterations: 40) {
                    blackHole(try validator.validate(value).id)
                },
                BenchCase("parse + validate + verify node text", iterations: 40) {
                    blackHole(try validator.validate(bytes: text).id)
                },
            ])
    }

    static func validation() throws -> (BenchReport, [String]) {
        // Short samples (a few ms), many of them, interleaved: some run without being preempted.
        let report = try validationSuite().report(samples: 81)
        let (raw, validate, fromText) = (
            report.rows[0].measurement, report.rows[1].measurement, report.rows[2].measurement
        )
        // Medians move with the load other processes put on a shared machine; the fastest sample
        // of each is the least disturbed estimate, so both ratios are reported.
        let ratio = raw.medianNanoseconds / validate.medianNanoseconds
        let ratioText = raw.medianNanoseconds / fromText.medianNanoseconds
        let bestRatio = raw.minNanoseconds / validate.minNanoseconds
        let bestRatioText = raw.minNanoseconds / fromText.minNanoseconds
        return (
            report,
            [
                "validate+verify rate ÷ raw verify rate, medians: \(rounded(ratio, places: 3))× (parsed node), "
                    + "\(rounded(ratioText, places: 3))× (from text); fastest samples: \(rounded(bestRatio, places: 3))×, "
                    + "\(rounded(bestRatioText, places: 3))×; target ≥ 0.9×"
            ]
        )
    }

    /// Replay of 1,000 tasks (10 nodes each) against sorting their nodes, the floor. Each call
    /// takes the next of ten distinct signed logs (issue 49 item 1), so the 10k figure is not one
    /// log kept hot in the cache between calls while the 1M one never fits. Replay runs from
    /// scratch (sort, index, classify, rebuild) and from ``ReplayFacts`` built as the nodes were
    /// stored, whose building is its own case.
    public static func replaySuite() throws -> BenchSuite {
        let logs = try (0..<10).map { try RedoBenchFixtures.taskLog(tasks: 1_000, firstTask: $0 * 1_000, signed: true) }
        let sortedLogs = logs.map { $0.sorted(by: RedoNode.precedes) }
        let factLogs = logs.map { ReplayFacts(nodes: $0) }
        let texts = try logs[0].map { try CanonicalJSON.canonicalBytes(of: .object($0.json)) }
        let validator = NodeValidator()
        var turns = (sort: 0, scratch: 0, facts: 0, build: 0)
        return BenchSuite(
            title: "Redo replay",
            baseline: BenchCase("sort 10,000 nodes in total order (floor; ten logs in turn)", iterations: 20) {
                turns.sort += 1
                blackHole(logs[turns.sort % logs.count].sorted(by: RedoNode.precedes).count)
            },
            others: [
                BenchCase("replay 1,000 tasks from scratch (10,000 signed nodes; ten logs in turn)", iterations: 10) {
                    turns.scratch += 1
                    blackHole(Replayer.replay(logs[turns.scratch % logs.count]).tasks.count)
                },
                BenchCase("replay 1,000 tasks from facts built as stored (ten logs in turn)", iterations: 10) {
                    turns.facts += 1
                    blackHole(Replayer.replay(factLogs[turns.facts % factLogs.count]).tasks.count)
                },
                BenchCase("build facts of 10,000 nodes read in total order (store time)", iterations: 10) {
                    turns.build += 1
                    var facts = ReplayFacts()
                    facts.add(sortedLogs[turns.build % sortedLogs.count])
                    blackHole(facts.count)
                },
                BenchCase("load 1,000 tasks: parse + validate + verify + replay", iterations: 1) {
                    var nodes: [RedoNode] = []
                    nodes.reserveCapacity(texts.count)
                    for text in texts { if let node = try? validator.validate(bytes: text) { nodes.append(node) } }
                    blackHole(Replayer.replay(nodes).tasks.count)
                },
            ])
    }

    /// The replay suite and, with `large`, replays of 1,000,000 signed nodes (too long a case to
    /// interleave: measured alone, after) beside the same floor at that size: sorting the million
    /// nodes in total order, which a replay from scratch must do first (spec §7). The notes give
    /// the scalings (1M ÷ 10k; linear is 100×), so each is read against its floor's in the same run.
    static func replay(large: Bool) throws -> (BenchReport, [String]) {
        let report = try replaySuite().report(samples: 5)
        guard large else { return (report, []) }
        let big = try RedoBenchFixtures.taskLog(tasks: 100_000, signed: true)
        let bigSorted = big.sorted(by: RedoNode.precedes)
        let bigFacts = ReplayFacts(nodes: big)
        let million = measure("replay 1,000,000 signed nodes from scratch (100,000 tasks)", samples: 3, iterations: 1) {
            blackHole(Replayer.replay(big).tasks.count)
        }
        let millionFacts = measure(
            "replay 1,000,000 signed nodes from facts built as stored", samples: 3, iterations: 1
        ) {
            blackHole(Replayer.replay(bigFacts).tasks.count)
        }
        let buildMillion = measure("build facts of 1,000,000 nodes read in total order", samples: 3, iterations: 1) {
            var facts = ReplayFacts()
            facts.add(bigSorted)
            blackHole(facts.count)
        }
        let sortMillion = measure("sort 1,000,000 nodes in total order (floor)", samples: 3, iterations: 1) {
            blackHole(big.sorted(by: RedoNode.precedes).count)
        }
        func scaling(_ large: BenchMeasurement, _ small: Int) -> String {
            "\(rounded(large.medianNanoseconds / report.rows[small].measurement.medianNanoseconds, places: 1))×"
        }
        let notes = [
            "replay scaling, 1M ÷ 10k nodes (target ≤ 110×; linear = 100×): from facts built as stored "
                + "\(scaling(millionFacts, 2)), from scratch \(scaling(million, 1)); building the facts "
                + "\(scaling(buildMillion, 3)); sorting the nodes in total order \(scaling(sortMillion, 0))"
        ]
        let full = BenchReport(
            title: report.title, baseline: report.rows[0].measurement,
            others: report.rows.dropFirst().map(\.measurement) + [million, millionFacts, buildMillion, sortMillion])
        return (full, notes)
    }

    static func megabytesPerSecond(_ bytes: Int, _ measurement: BenchMeasurement) -> String {
        rounded(Double(bytes) / measurement.medianNanoseconds * 1e9 / 1e6, places: 1)
    }
}
