import BenchSupport
import Foundation

/// A real `tandem serve` child on a loopback port (a ``ServerProcess``), started on the
/// harness's data directory (and database) and ended with SIGKILL: the crash under test
/// (issue 14 item 4). Its stderr is appended to the run's log.
final class CrashServer {
    let port: Int
    private let server: ServerProcess

    /// Starts the server and waits for its `listening on http://HOST:PORT` line.
    init(tandem: URL, dataDirectory: URL, databaseURL: String?, log: URL) throws {
        server = try ServerProcess(
            "crash", executable: tandem,
            arguments: ["serve", "--port", "0", "--data-dir", dataDirectory.path, "--no-rate-limit"]
                + (databaseURL.map { ["--database-url", $0] } ?? []),
            environment: ["LOG_LEVEL": "warning"], log: .append(log))
        let line = server.firstLine
        guard line.hasPrefix("listening on http://"), let colon = line.lastIndex(of: ":"),
            let port = Int(line[line.index(after: colon)...]), port > 0
        else {
            server.kill()
            throw CLIError("crash: tandem serve did not start (stdout said \"\(line)\"; log: \(log.path))")
        }
        self.port = port
    }

    /// SIGKILL and reap: no shutdown hook, no flush, no checkpoint runs.
    func sigkill() { server.kill() }
}
