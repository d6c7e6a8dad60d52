import BenchSupport
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemTesting

/// The CLI's local stores killed mid-command (issue 14 item 4): `tandem tasks add|done`,
/// `contacts add|rename` and `kasia routing stage` on one profile, each SIGKILLed after a
/// random 0–200 ms (`--local-max-kill-ms`). Every command that exited 0 must have its effect visible afterwards, every
/// SQLite file of the profile must pass `integrity_check`, and the next commands must work.
///
/// Chat history has no write that runs without a server (`chat send|sync|restore` talk to the
/// relay), so it is covered only by the integrity check of `chat-history.sqlite` when present.
final class CrashLocalStores {
    private let tandem: URL
    private let profile: URL
    private let scratch: URL
    private var tasks: [String] = []
    private var doneAcknowledged: [String: Int] = [:]
    /// Per acknowledged contact: the aliases it may show (the last acknowledged one, plus any
    /// later rename that was killed and may have committed before it died).
    private var contactAliases: [String: Set<String>] = [:]
    private var possibleStages: Set<RoutingPolicy.Stage> = [.a]
    private(set) var totals = CrashReport.LocalTotals()

    init(tandem: URL, workDirectory: URL) throws {
        self.tandem = tandem
        profile = workDirectory.appendingPathComponent("profile", isDirectory: true)
        scratch = workDirectory.appendingPathComponent("cli", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        _ = try expectSuccess(["keys", "new"])
    }

    private enum Operation {
        case addTask, completeTask, addContact, renameContact, setStage
    }

    /// One cycle: `commands` killed commands, then the checks. Returns the problems found.
    func cycle(_ cycle: Int, commands: Int, maxKillMilliseconds: Int, random: inout SeededRandom) throws -> [String] {
        for step in 0..<commands {
            var choices: [Operation] = [.addTask, .addContact, .setStage]
            if !tasks.isEmpty { choices.append(.completeTask) }
            if !contactAliases.isEmpty { choices.append(.renameContact) }
            guard let operation = choices.randomElement(using: &random) else { continue }
            let delay = Int.random(in: 0...maxKillMilliseconds, using: &random)
            try perform(operation, label: "c\(cycle)s\(step)", delay: delay, random: &random)
        }
        return try verify()
    }

    private func perform(_ operation: Operation, label: String, delay: Int, random: inout SeededRandom) throws {
        totals.commands += 1
        switch operation {
        case .addTask:
            let run = try execute(["tasks", "add", "task \(label)"], killAfterMilliseconds: delay)
            if try acknowledged(run) { tasks.append(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) }
        case .completeTask:
            // The first few tasks only, so the check reads a handful of tasks, however long the run.
            guard let id = tasks.prefix(3).randomElement(using: &random) else { return }
            let run = try execute(["tasks", "done", id], killAfterMilliseconds: delay)
            if try acknowledged(run) { doneAcknowledged[id, default: 0] += 1 }
        case .addContact:
            let address = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey).description
            let run = try execute(["contacts", "add", address, "--alias", label], killAfterMilliseconds: delay)
            if try acknowledged(run) { contactAliases[address] = [label] }
        case .renameContact:
            guard let address = contactAliases.keys.sorted().randomElement(using: &random) else { return }
            let run = try execute(["contacts", "rename", address, label], killAfterMilliseconds: delay)
            if try acknowledged(run) {
                contactAliases[address] = [label]
            } else {
                contactAliases[address, default: []].insert(label)
            }
        case .setStage:
            guard let stage = RoutingPolicy.Stage.allCases.randomElement(using: &random) else { return }
            let run = try execute(["kasia", "routing", "stage", stage.rawValue], killAfterMilliseconds: delay)
            if try acknowledged(run) { possibleStages = [stage] } else { possibleStages.insert(stage) }
        }
    }

    /// Exit 0 acknowledges; a SIGKILL leaves the outcome open; any other end is a failure (the
    /// store a previous kill left behind broke the command).
    private func acknowledged(_ run: CLIRun) throws -> Bool {
        if run.killed {
            totals.killed += 1
            return false
        }
        guard run.status == 0 else {
            throw CLIError(
                "crash: `tandem \(run.arguments.joined(separator: " "))` exited \(run.status) without being killed: \(run.errors)"
            )
        }
        totals.acknowledged += 1
        return true
    }

    private func verify() throws -> [String] {
        var problems: [String] = []
        let listed = try JSONSerialization.jsonObject(with: Data(try expectSuccess(["tasks", "list", "--json"]).utf8))
        let taskIDs = Set(((listed as? [[String: Any]]) ?? []).compactMap { $0["taskId"] as? String })
        for id in tasks where !taskIDs.contains(id) { problems.append("task \(id) (add exited 0) is not listed") }
        totals.tasksChecked = tasks.count
        for (id, count) in doneAcknowledged.sorted(by: { $0.key < $1.key }) {
            let shown = try JSONSerialization.jsonObject(
                with: Data(try expectSuccess(["tasks", "show", id, "--json"]).utf8))
            let todos = ((shown as? [String: Any])?["todoTasks"] as? [[String: Any]]) ?? []
            let completed = todos.filter { !($0["completed"] is NSNull) && $0["completed"] != nil }.count
            if completed < count { problems.append("task \(id): \(count) done exited 0, \(completed) todos completed") }
        }
        totals.completionsChecked = doneAcknowledged.values.reduce(0, +)
        let contacts = try JSONSerialization.jsonObject(
            with: Data(try expectSuccess(["contacts", "list", "--json"]).utf8))
        var aliases: [String: String] = [:]
        for contact in (contacts as? [[String: Any]]) ?? [] {
            if let address = contact["address"] as? String, let alias = contact["alias"] as? String {
                aliases[address.lowercased()] = alias
            }
        }
        for (address, possible) in contactAliases.sorted(by: { $0.key < $1.key }) {
            guard let alias = aliases[address.lowercased()] else {
                problems.append("contact \(address) (add exited 0) is not listed")
                continue
            }
            if !possible.contains(alias) {
                problems.append("contact \(address): alias \(alias), expected one of \(possible.sorted())")
            }
        }
        totals.contactsChecked = contactAliases.count
        let policy = try JSONDecoder().decode(
            RoutingPolicy.self, from: Data(try expectSuccess(["kasia", "routing", "stage", "--json"]).utf8))
        if !possibleStages.contains(where: { RoutingPolicy(stage: $0) == policy }) {
            problems.append("routing policy \(policy) is none of stages \(possibleStages.map(\.rawValue).sorted())")
        }
        totals.stagesChecked += 1
        for file in try sqliteFiles() {
            problems += try CrashVerifier.integrityProblems(file)
            totals.integrityChecks += 1
        }
        return problems
    }

    private func sqliteFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: profile, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sqlite" }.sorted { $0.path < $1.path }
    }

    /// A command that is not killed and must exit 0: its standard output.
    private func expectSuccess(_ arguments: [String]) throws -> String {
        let run = try execute(arguments, killAfterMilliseconds: nil)
        guard run.status == 0, !run.killed else {
            throw CLIError("crash: `tandem \(arguments.joined(separator: " "))` failed after a kill: \(run.errors)")
        }
        return run.output
    }

    private struct CLIRun {
        let arguments: [String]
        let status: Int32
        let killed: Bool
        let output: String
        let errors: String
    }

    /// Runs `tandem ARGUMENTS --profile P`, SIGKILLed after `killAfterMilliseconds` if still
    /// running. Output goes to files, so a large answer can never block the child on a pipe.
    private func execute(_ arguments: [String], killAfterMilliseconds: Int?) throws -> CLIRun {
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = tandem
        process.arguments = arguments + ["--profile", profile.path]
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if let killAfterMilliseconds {
            usleep(useconds_t(killAfterMilliseconds * 1000))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        try? out.close()
        try? err.close()
        let killed = process.terminationReason == .uncaughtSignal
        return CLIRun(
            arguments: arguments, status: process.terminationStatus, killed: killed,
            output: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            errors: ((try? String(contentsOf: errURL, encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines))
    }
}
