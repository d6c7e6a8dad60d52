public import Foundation

/// A real `tandem serve` on a loopback port with a temporary data directory. The port is read
/// from the server's `listening on …` line as it arrives (``ChildProcess``), so nothing waits on
/// a timer and no thread of the test process is parked.
public final class ServerProcess: Sendable {
    public let child: ChildProcess
    public let dataDirectory: TemporaryDirectory
    public let baseURL: String
    /// The port the server bound (a restart on the same data can ask for it again).
    public let port: Int

    /// How long a server may take to print its `listening on` line.
    public static let startDeadline: Double = 60

    public var processIdentifier: pid_t { child.processIdentifier }

    /// scrypt's N of the test servers (issue 45 item 2): BetterAuth's 16384 costs about 0.7 s of
    /// CPU per sign-up or sign-in in a debug build, and the CLI suites sign in often. The real
    /// parameters are checked by `CryptoVectorTests` and `ImportTests`, and by the harnesses.
    public static let passwordRounds = 16

    /// `port` 0 takes any free port; `databaseURL` serves from PostgreSQL instead of the
    /// SQLite file in `dataDirectory`; `passwordRounds` BetterAuth's N where passwords hashed
    /// elsewhere must verify. Returns once the server listens.
    public static func start(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        extraArguments: [String] = [], environment: [String: String?] = [:], passwordRounds: Int = passwordRounds
    ) async throws -> ServerProcess {
        let dataDirectory = try dataDirectory ?? TemporaryDirectory()
        let child = try await ChildProcess.launch(
            binary,
            [
                "serve", "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDirectory.url.path,
                "--password-rounds", String(passwordRounds),
            ] + (databaseURL.map { ["--database-url", $0] } ?? []) + extraArguments, environment: environment)
        do {
            guard let line = try await child.firstLine(within: startDeadline) else {
                throw ServerProcessError.exitedBeforeListening
            }
            guard line.hasPrefix("listening on ") else { throw ServerProcessError.unexpectedOutput(line) }
            let baseURL = String(line.dropFirst("listening on ".count))
            return ServerProcess(
                child: child, dataDirectory: dataDirectory, baseURL: baseURL,
                port: URLComponents(string: baseURL)?.port ?? port)
        } catch {
            await child.kill()
            throw error
        }
    }

    /// The `tandem` binary built next to the tests.
    public static var binary: URL { Vectors.productsDirectory.appendingPathComponent("tandem") }

    private init(child: ChildProcess, dataDirectory: TemporaryDirectory, baseURL: String, port: Int) {
        self.child = child
        self.dataDirectory = dataDirectory
        self.baseURL = baseURL
        self.port = port
    }

    /// SIGTERM, then the exit status (0 after a graceful shutdown); a server that has not ended
    /// after 30 s is SIGKILLed (status -1). The data directory goes.
    @discardableResult
    public func stopped() async -> Int32 {
        let status = (try? await child.terminate(within: 30)) ?? -1
        dataDirectory.remove()
        return status
    }

    /// SIGTERM without waiting, for a `defer`: the server is reaped and its data directory
    /// removed in the background.
    public func stop() {
        child.send(SIGTERM)
        let (child, dataDirectory) = (self.child, self.dataDirectory)
        Task {
            _ = try? await child.exitStatus(within: 30)
            dataDirectory.remove()
        }
    }

    /// SIGKILL: no shutdown path runs. The data directory stays for a restart.
    public func killed() async {
        await child.kill()
    }
}

public enum ServerProcessError: Error {
    case exitedBeforeListening
    case unexpectedOutput(String)
}
