public import Foundation
import RedoProtocol
import TaskStore

/// `tandem-bench tasks` (issue 12 item 6, seed 004 §12): what a `tandem tasks …` command costs
/// inside the process on a store of N tasks, against the path every command took before the
/// projection (read every node, verify every signature, replay the lot), measured interleaved in
/// the same run. Each case opens the log file afresh, as a command does.
public enum TaskStoreBenchmarks {
    public static func run(tasks: Int, samples: Int) throws -> BenchReport {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tandem-bench-tasks-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try suite(tasks: tasks, directory: directory).report(samples: samples)
    }

    /// The cases on a store of `tasks` tasks made in `directory`, which the caller removes.
    public static func suite(tasks: Int, directory: URL) throws -> BenchSuite {
        let path = directory.appendingPathComponent("tasks.sqlite").path
        let identity = try ProfileIdentity.loadOrCreate(
            keyFile: directory.appendingPathComponent("identity.key"),
            deviceFile: directory.appendingPathComponent("device.id"))
        var clock: Int64 = 1_761_555_600_000
        func now() throws -> WallTime {
            clock += 1_000
            guard let time = WallTime(millisecondsSinceEpoch: clock) else {
                throw BenchError.setup("clock out of range")
            }
            return time
        }
        // Held open for as long as the suite lives, as before the suite was split from its run:
        // with no connection left, SQLite removes the WAL on the last close and every case's
        // open would recreate it (about 1.4 ms more per open on this machine; BENCHMARKS.md).
        let setup = TaskEditor(log: try TaskLog(path: path), identity: identity)
        var ids: [String] = []
        for index in 0..<tasks {
            ids.append(
                try setup.addTask(title: "task \(index)", priority: Int64(index % 5 + 1), now: try now()).taskID
                    .description)
        }
        func editor() throws -> TaskEditor { TaskEditor(log: try TaskLog(path: path), identity: identity) }
        var next = 0
        return BenchSuite(
            title: "Local task commands on a store of \(tasks) tasks (in process)",
            baseline: BenchCase("old path: read + verify every node + full replay", iterations: 1) {
                withExtendedLifetime(setup) {}
                let texts = try TaskLog(path: path).storedTexts()
                let validator = NodeValidator()
                blackHole(Replayer.replay(try texts.map { try validator.validate(bytes: $0) }).tasks.count)
            },
            others: [
                BenchCase("list: state from the projection", iterations: 5) {
                    blackHole(try editor().state().tasks.count)
                },
                BenchCase("add: sign 2 nodes, append, update projection", iterations: 5) {
                    blackHole(try editor().addTask(title: "added", now: try now()))
                },
                BenchCase("complete: read task, sign 2 nodes, append, update projection", iterations: 5) {
                    next = (next + 1) % ids.count
                    blackHole(try editor().complete(ids[next], now: try now()))
                },
            ])
    }
}
