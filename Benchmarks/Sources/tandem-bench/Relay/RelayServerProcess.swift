import BenchSupport
import Foundation

/// The bench's server: this executable re-run as `tandem-bench relay-server` on a loopback
/// port (a ``ServerProcess``), killed when the bench is done.
final class RelayServerProcess {
    let port: Int
    private let server: ServerProcess

    /// `executable` is another `tandem-bench` binary (a baseline build) or, when nil, this one;
    /// `minimal` starts this binary's bare Hummingbird application (`relay-minimal-server`)
    /// instead of Tandem's server.
    init(dataDirectory: URL, databaseURL: String?, executable: String? = nil, minimal: Bool = false) throws {
        let executable = try executable ?? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let arguments =
            minimal
            ? ["relay-minimal-server"]
            : ["relay-server", "--data-directory", dataDirectory.path]
                + (databaseURL.map { ["--database-url", $0] } ?? [])
        server = try ServerProcess(
            "relay bench", executable: URL(fileURLWithPath: executable), arguments: arguments)
        // The first line is `port N`.
        let text = server.firstLine
        guard text.hasPrefix("port "), let port = Int(text.dropFirst(5)), port > 0 else {
            server.kill()
            throw CLIError("relay bench: the server did not start (said \"\(text)\")")
        }
        self.port = port
    }

    func residentBytes() throws -> Int { try server.residentBytes() }

    func cpuSeconds() throws -> Double { try server.cpuSeconds() }

    /// SIGKILL: the bench needs nothing from the server's graceful shutdown, which would
    /// wait on open streams.
    func stop() { server.kill() }
}
