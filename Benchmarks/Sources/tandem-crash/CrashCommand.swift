import ArgumentParser
import AsyncHTTPClient
import BenchSupport
import CommandLineContract
import Foundation
import TandemTesting

/// `tandem-crash`: the crash-consistency harness of issue 14 item 4, an executable of its own
/// (issue 26 item 3).
///
/// Server cycles: concurrent writers (sign-ups, sign-ins, relay submissions, Redo node pushes,
/// contact records) run against a real `tandem serve` for a random 50–800 ms (`--max-burst-ms`),
/// the server is SIGKILLed, the SQLite file is checked as the kill left it, the server restarts on the same
/// data, and every write acknowledged in any cycle so far must read back. Local cycles: CLI
/// commands SIGKILLed after 0–200 ms on one profile (``CrashLocalStores``).
///
/// The writers are tasks on one AsyncHTTPClient; the server and CLI children are started and
/// reaped between bursts, where blocking the caller measures nothing.
@main
struct CrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem-crash",
        abstract: "SIGKILL `tandem serve` and CLI commands mid-write; check every acknowledged write survives.",
        discussion: """
            Fails (exit 1) on any acknowledged write missing after a restart, a failed integrity check, \
            a 5xx or other unexpected answer, or a command that fails after a kill. Progress goes to \
            stderr, one line per cycle; the data of a failed run is kept and its path printed.
            """)

    @Option(name: .long, help: "Server cycles (each: burst, SIGKILL, check, restart, verify).") var cycles = 50
    @Option(name: .long, help: "Local-store cycles (CLI commands killed mid-write); default: --cycles.")
    var localCycles: Int?
    @Option(name: .long, help: "Killed CLI commands per local cycle.") var localCommands = 6
    @Option(name: .long, help: "Longest wait before a CLI command is killed, ms (0…this).") var localMaxKillMs = 200
    @Option(name: .long, help: "Concurrent writers per burst.") var writers = 6
    @Option(
        name: .long,
        help:
            "Longest burst before the kill, ms (50…this). A debug build hashes a sign-up in about 2 s: raise it there.")
    var maxBurstMs = 800
    @Option(name: .long, help: "PostgreSQL URL; SQLite in a fresh data directory when absent.") var databaseURL: String?
    @Option(name: .long, help: "Seed of kill moments and command order (default: random, printed).") var seed: UInt64?
    @Option(name: .long, help: "The tandem binary to run (default: beside this executable).") var tandem: String?
    @Flag(name: .long, help: "Print the report as JSON on stdout.") var json = false

    func validate() throws {
        guard cycles >= 0, (localCycles ?? 0) >= 0 else { throw CLIError("--cycles: must be 0 or more") }
        guard (1...64).contains(writers) else { throw CLIError("--writers \(writers): 1…64") }
        guard (50...60_000).contains(maxBurstMs) else { throw CLIError("--max-burst-ms \(maxBurstMs): 50…60000") }
        guard (1...100).contains(localCommands) else { throw CLIError("--local-commands \(localCommands): 1…100") }
        guard (0...60_000).contains(localMaxKillMs) else {
            throw CLIError("--local-max-kill-ms \(localMaxKillMs): 0…60000")
        }
        if let databaseURL, !(databaseURL.hasPrefix("postgres://") || databaseURL.hasPrefix("postgresql://")) {
            throw CLIError("--database-url: expected a postgres:// URL")
        }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let binary = try tandemBinary()
        let seed = seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var report = CrashReport(backend: databaseURL == nil ? "sqlite" : "postgresql", seed: seed)
        progress("crash: \(report.backend), seed \(seed), tandem \(binary.path), data \(work.path)")
        var random = SeededRandom(seed: seed)
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await serverCycles(binary: binary, work: work, http: http, random: &random, report: &report)
            try localStoreCycles(binary: binary, work: work, random: &random, report: &report)
        } catch {
            report.failures.append("\(error)")
        }
        try await http.shutdown()
        if json { try CommandIO.printJSON(report) }
        guard report.failures.isEmpty, report.lost == 0 else {
            throw CLIError(
                "crash: FAILED (seed \(seed); data kept in \(work.path)): " + report.failures.joined(separator: "; "))
        }
        try? FileManager.default.removeItem(at: work)
        progress(
            "crash: \(report.serverCycles) server cycles, \(report.localCycles) local cycles, "
                + "\(report.ackChecksTotal) acknowledged-write checks, 0 lost")
    }

    private func serverCycles(
        binary: URL, work: URL, http: HTTPClient, random: inout SeededRandom, report: inout CrashReport
    ) async throws {
        guard cycles > 0 else { return }
        let data = work.appendingPathComponent("data", isDirectory: true)
        let log = work.appendingPathComponent("server.log")
        let ledger = CrashLedger()
        var server = try CrashServer(tandem: binary, dataDirectory: data, databaseURL: databaseURL, log: log)
        let fixture = try await CrashFixture(
            client: CrashClient(http: http, port: server.port), workDirectory: work, ledger: ledger)
        let kinds: [CrashWriteKind] = [.signUp, .signIn, .relay, .node, .contact, .relay]
        for cycle in 1...cycles {
            let before = CrashWriteKind.allCases.map { ledger.acks($0) }
            let stop = StopFlag()
            let delay = Int.random(in: 50...maxBurstMs, using: &random)
            let client = CrashClient(http: http, port: server.port)
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<writers {
                    let writer = CrashWriter(
                        kind: kinds[index % kinds.count], index: index, cycle: cycle, client: client,
                        fixture: fixture, ledger: ledger, stop: stop)
                    group.addTask { await writer.run() }
                }
                // The burst's length is the run's random kill moment, not an ordering of events.
                try? await Task.sleep(for: .milliseconds(delay))
                stop.set()
                server.sigkill()
                await group.waitForAll()
            }
            report.killDelaysMilliseconds.append(delay)
            var problems = ledger.failures
            if databaseURL == nil {
                problems += try CrashVerifier.integrityProblems(data.appendingPathComponent("tandem.sqlite"))
                report.integrityChecks += 1
            }
            server = try CrashServer(tandem: binary, dataDirectory: data, databaseURL: databaseURL, log: log)
            let outcome = try await CrashVerifier(
                client: CrashClient(http: http, port: server.port), fixture: fixture, ledger: ledger
            ).verify()
            report.serverCycles = cycle
            report.sessionsChecked = outcome.sessions
            report.relayChecked = outcome.relay
            report.nodesChecked = outcome.nodes
            report.contactVersionsChecked = outcome.contacts
            report.ackChecksTotal += outcome.sessions + outcome.relay + outcome.nodes + outcome.contacts
            report.lost += outcome.lost.count
            let added = zip(CrashWriteKind.allCases, before).map { "+\(ledger.acks($0) - $1) \($0.rawValue)" }
            progress(
                "crash: cycle \(cycle)/\(cycles) (\(report.backend)): killed after \(delay) ms; acknowledged "
                    + added.joined(separator: ", ")
                    + "; after restart \(outcome.sessions + outcome.relay + outcome.nodes + outcome.contacts) "
                    + "acknowledged writes checked, \(outcome.lost.count) lost"
                    + (databaseURL == nil ? "; integrity \(problems.isEmpty ? "ok" : "FAILED")" : ""))
            report.failures += problems + outcome.lost.map { "cycle \(cycle): lost \($0)" }
            if !report.failures.isEmpty { break }
        }
        server.sigkill()
        for kind in CrashWriteKind.allCases {
            report.writes[kind.rawValue] = .init(attempted: ledger.attempts(kind), acknowledged: ledger.acks(kind))
        }
    }

    private func localStoreCycles(binary: URL, work: URL, random: inout SeededRandom, report: inout CrashReport) throws
    {
        let count = localCycles ?? cycles
        guard count > 0, report.failures.isEmpty else { return }
        let stores = try CrashLocalStores(tandem: binary, workDirectory: work)
        for cycle in 1...count {
            let problems = try stores.cycle(
                cycle, commands: localCommands, maxKillMilliseconds: localMaxKillMs, random: &random)
            report.localCycles = cycle
            report.local = stores.totals
            progress(
                "crash: local cycle \(cycle)/\(count): \(stores.totals.killed) killed / \(stores.totals.commands) commands "
                    + "so far; \(stores.totals.tasksChecked) tasks, \(stores.totals.completionsChecked) completions, "
                    + "\(stores.totals.contactsChecked) contacts checked; \(problems.count) problems")
            report.failures += problems.map { "local cycle \(cycle): \($0)" }
            if !problems.isEmpty { break }
        }
    }

    /// `--tandem`, else the `tandem` built beside this executable.
    private func tandemBinary() throws -> URL {
        if let tandem { return URL(fileURLWithPath: tandem) }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("tandem")
    }

    private func progress(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension CrashCommand {
    /// The error contract of every Tandem executable: a bad argument exits with status 1 and one
    /// line `tandem-crash: …` on stderr; `--help` prints usage and exits 0.
    static func main() async {
        await CommandLineContract.main(CrashCommand.self, program: "tandem-crash") { ($0 as? CLIError)?.description }
    }
}
