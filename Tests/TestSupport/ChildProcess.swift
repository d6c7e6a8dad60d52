public import Foundation
import Subprocess
import TandemBasics

#if canImport(System)
    import System
#else
    import SystemPackage
#endif

/// A child process for tests, run by swift-subprocess (issue 26 item 4): its exit is awaited by
/// the package's own monitor, so a waiting test parks no thread of the cooperative pool, and the
/// suites that start servers and CLI processes share one `swift test` with the in-process ones.
///
/// The process runs inside `Subprocess.run`'s body in a task of its own; signals reach it
/// through a stream the body reads, and its standard output is collected as it arrives, so a
/// test waits for a line instead of polling a file. Standard error is discarded.
public final class ChildProcess: Sendable {
    public let processIdentifier: Int32
    private let output: OutputLog
    private let signals: AsyncStream<Int32>.Continuation
    private let run: Task<Int32, any Error>

    /// Starts `executable arguments…` with the test's environment changed by `environment` (a
    /// nil value removes a variable); returns once it runs, or throws when it cannot be started.
    public static func launch(
        _ executable: URL, _ arguments: [String], environment: [String: String?] = [:]
    ) async throws -> ChildProcess {
        let output = OutputLog()
        let (signals, signalsIn) = AsyncStream<Int32>.makeStream()
        let (started, startedIn) = AsyncStream<Int32>.makeStream()
        let run = Task<Int32, any Error> {
            defer {
                startedIn.finish()
                output.finish()
            }
            let result = try await Subprocess.run(
                .path(.init(executable.path)), arguments: Arguments(arguments),
                environment: ChildProcess.environment(environment), input: .none, output: .sequence,
                error: .discarded
            ) { execution in
                startedIn.yield(execution.processIdentifier.value)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await signal in signals { try? execution.send(signal: Signal(rawValue: signal)) }
                    }
                    for try await buffer in execution.standardOutput {
                        buffer.withUnsafeBytes { output.append(Array($0)) }
                    }
                    // Standard output closes when the child exits: no more signals to deliver.
                    signalsIn.finish()
                    try await group.waitForAll()
                }
            }
            return ChildProcess.code(result.terminationStatus)
        }
        var pids = started.makeAsyncIterator()
        guard let pid = await pids.next() else {
            _ = try await run.value
            throw ChildProcessError.notStarted(executable.lastPathComponent)
        }
        return ChildProcess(processIdentifier: pid, output: output, signals: signalsIn, run: run)
    }

    private init(
        processIdentifier: Int32, output: OutputLog, signals: AsyncStream<Int32>.Continuation,
        run: Task<Int32, any Error>
    ) {
        self.processIdentifier = processIdentifier
        self.output = output
        self.signals = signals
        self.run = run
    }

    /// The test's environment with `overrides` applied.
    static func environment(_ overrides: [String: String?]) -> Subprocess.Environment {
        .inherit.updating(Dictionary(uniqueKeysWithValues: overrides.map { (.init(stringLiteral: $0.key), $0.value) }))
    }

    /// The exit code, or the signal's number for a child that a signal ended (as Foundation's
    /// `Process.terminationStatus` reports it).
    static func code(_ status: TerminationStatus) -> Int32 {
        switch status {
        case .exited(let code): code
        case .signaled(let signal): signal
        }
    }

    /// Everything the child wrote to standard output so far.
    public var standardOutput: Data { Data(output.bytes) }

    /// True once the child has closed its standard output (it exited).
    public var outputEnded: Bool { output.ended }

    /// Sends `signal` (SIGTERM, SIGKILL, …); nothing happens once the child is gone.
    public func send(_ signal: Int32) {
        signals.yield(signal)
    }

    /// The first line the child prints, within `seconds`; nil when it exits first.
    public func firstLine(within seconds: Double) async throws -> String? {
        try await output.waitForLine(within: seconds)
    }

    /// Waits until standard output holds `text`, within `seconds`; false when it exited or the
    /// time ran out first.
    public func waitForOutput(containing text: String, within seconds: Double) async -> Bool {
        await output.wait(within: seconds) { String(decoding: $0, as: UTF8.self).contains(text) }
    }

    /// The exit status within `seconds`; past that the child is SIGKILLed and
    /// ``ChildProcessError/timedOut(_:)`` thrown once it is reaped, or after ``reapGrace`` when
    /// it never is (a child whose exit was missed stays a zombie: waiting for it would hang the
    /// suite, as session 37's third CI run did).
    public func exitStatus(within seconds: Double = 60) async throws -> Int32 {
        if let status = try await Self.value(of: run, within: seconds) { return status }
        send(SIGKILL)
        _ = try? await Self.value(of: run, within: Self.reapGrace)
        throw ChildProcessError.timedOut(seconds)
    }

    /// How long a killed child may take to be reaped before the wait gives up on it.
    public static let reapGrace = 10.0

    /// `task`'s value, or nil when `seconds` pass first. The task is never awaited past that, so
    /// a task that cannot end (a child never reaped) cannot hold the caller.
    static func value(of task: Task<Int32, any Error>, within seconds: Double) async throws -> Int32? {
        let outcome = Locked<CheckedContinuation<Result<Int32, any Error>?, Never>?>(nil)
        let answer = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Int32, any Error>?, Never>) in
            outcome.withLock { $0 = continuation }
            Task {
                let result = await task.result
                outcome.withLock { $0.take()?.resume(returning: result) }
            }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                outcome.withLock { $0.take()?.resume(returning: nil) }
            }
        }
        return try answer?.get()
    }

    /// SIGTERM, then the exit status (SIGKILL after `seconds`).
    public func terminate(within seconds: Double = 30) async throws -> Int32 {
        send(SIGTERM)
        return try await exitStatus(within: seconds)
    }

    /// SIGKILL, then waits until the child is reaped.
    public func kill() async {
        send(SIGKILL)
        _ = try? await run.value
    }
}

public enum ChildProcessError: Error, CustomStringConvertible {
    case notStarted(String)
    case timedOut(Double)

    public var description: String {
        switch self {
        case .notStarted(let name): "\(name) did not start"
        case .timedOut(let seconds): "the child process ran longer than \(Int(seconds)) s and was killed"
        }
    }
}

/// A child's standard output as it arrives, with waiters for what a test expects in it.
final class OutputLog: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var ended = false
        var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Locked(State())

    var bytes: [UInt8] { state.withLock { $0.bytes } }
    var ended: Bool { state.withLock { $0.ended } }

    func append(_ chunk: [UInt8]) {
        wake { $0.bytes += chunk }
    }

    func finish() {
        wake { $0.ended = true }
    }

    private func wake(_ change: (inout State) -> Void) {
        let waiters = state.withLock { state in
            change(&state)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The first complete line, or nil when output ends without one.
    func waitForLine(within seconds: Double) async throws -> String? {
        guard await wait(within: seconds, until: { $0.contains(UInt8(ascii: "\n")) }) else {
            if ended { return nil }
            throw ChildProcessError.timedOut(seconds)
        }
        let bytes = self.bytes
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        return String(decoding: bytes[..<newline], as: UTF8.self)
    }

    /// Waits until `condition` holds for the output; false when output ended or `seconds` passed first.
    func wait(within seconds: Double, until condition: @escaping @Sendable ([UInt8]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        // Wakes the waiter at the deadline, so it never waits past it for output that never comes.
        let timer = Task {
            try? await Task.sleep(until: deadline)
            wake { _ in }
        }
        defer { timer.cancel() }
        while true {
            if let verdict = verdict(condition, deadline) { return verdict }
            await withCheckedContinuation { continuation in
                let parked = state.withLock { state in
                    guard !condition(state.bytes), !state.ended, ContinuousClock.now < deadline else { return false }
                    state.waiters[UUID()] = continuation
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
    }

    /// True when `condition` holds, false when it never will (output ended, deadline passed),
    /// nil while it may still come.
    private func verdict(_ condition: ([UInt8]) -> Bool, _ deadline: ContinuousClock.Instant) -> Bool? {
        state.withLock { state in
            if condition(state.bytes) { return true }
            if state.ended || ContinuousClock.now >= deadline { return false }
            return nil
        }
    }
}

extension ChildProcess {
    /// What a finished command printed, and how it ended.
    public struct Collected: Sendable {
        public let status: Int32
        public let stdout: Data
        public let stderr: Data
    }

    /// Runs `executable arguments…` to its end with `stdin` as its input and collects both outputs.
    /// At most ``ProcessSlots/commands`` such commands run at once in the test process.
    ///
    /// The input is a file, not a pipe. swift-subprocess writes a pipe's input in a task of its
    /// own; a child that exits without reading it (a command that fails on its arguments first)
    /// makes that write fail with EPIPE, or SIGPIPE kill the test process, and the library then
    /// leaves the pipe open, which its descriptor's deinit makes a fatal error. Session 22's CI
    /// lost a whole test run to that. A file is read or ignored, and nothing is written to it
    /// once the child runs.
    public static func collect(
        _ executable: URL, _ arguments: [String], stdin: Data = Data(), environment: [String: String?] = [:]
    ) async throws -> Collected {
        try await ProcessSlots.commands.withSlot { try await run(executable, arguments, stdin, environment) }
    }

    private static func run(
        _ executable: URL, _ arguments: [String], _ stdin: Data, _ environment: [String: String?]
    ) async throws -> Collected {
        let input = try inputFile(stdin)
        let result = try await Subprocess.run(
            .path(.init(executable.path)), arguments: Arguments(arguments), environment: Self.environment(environment),
            input: .fileDescriptor(input, closeAfterSpawningProcess: true), output: .data(limit: 1 << 28),
            error: .data(limit: 1 << 26))
        return Collected(
            status: code(result.terminationStatus), stdout: result.standardOutput, stderr: result.standardError)
    }

    /// `data` in a new file, open for reading at its start, and already unlinked, so it is gone
    /// when the last descriptor closes.
    private static func inputFile(_ data: Data) throws -> FileDescriptor {
        let path = FilePath(FileManager.default.temporaryDirectory.path).appending("tandem-stdin-\(UUID().uuidString)")
        let file = try FileDescriptor.open(
            path, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: .ownerReadWrite)
        do {
            try FileManager.default.removeItem(atPath: path.string)
            _ = try file.writeAll(data)
            _ = try file.seek(offset: 0, from: .start)
            return file
        } catch {
            try? file.close()
            throw error
        }
    }
}
