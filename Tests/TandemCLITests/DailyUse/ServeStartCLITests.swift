import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tandem serve` for people (issue 51 items 8 and 11): it names the app's address at start and
/// says when it stopped, and a port that is taken is one plain line, never `bind(…)`/`errno`.
@Suite("Serve start and stop (issue 51)")
struct ServeStartCLITests {
    @Test("a taken port is one plain line with what to do")
    func takenPort() async throws {
        let first = try await ServerProcess.start()
        let data = try TandemProcess.temporaryDirectory()
        let second = try await TandemProcess.run([
            "serve", "--host", "127.0.0.1", "--port", String(first.port), "--data-dir", data.path,
        ])
        _ = await first.stopped()
        #expect(second.status == 1)
        #expect(second.stderrLines.count == 1, "\(second.stderrText)")
        #expect(second.stderrText.contains("port \(first.port) on 127.0.0.1 is already in use"), "\(second.stderrText)")
        #expect(second.stderrText.contains("--port"))
        for systemText in ["errno", "bind(", "descriptor"] { #expect(!second.stderrText.contains(systemText)) }
    }

    @Test("a data directory that cannot be made is one plain line, never NSCocoaErrorDomain")
    func missingDataDirectory() async throws {
        let output = try await TandemProcess.run(["serve", "--port", "0", "--data-dir", "/proc/tandem-nope/data"])
        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1, "\(output.stderrText)")
        #expect(output.stderrText.contains("cannot start the server: /proc/tandem-nope"), "\(output.stderrText)")
        for systemText in ["Domain=", "NSCocoaErrorDomain", "Code=", "UserInfo"] {
            #expect(!output.stderrText.contains(systemText), "\(output.stderrText)")
        }
    }

    @Test("serve prints the app's URL at start and a line when it stops; GET / leads to /app/")
    func startAndStopLines() async throws {
        let scratch = try TemporaryDirectory()
        let errors = scratch.path("stderr.txt")
        // `exec` makes the shell the server itself, so the signal below reaches it.
        let child = try await ChildProcess.launch(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec \"$0\" serve --host 127.0.0.1 --port 0 --data-dir \"$1\" 2>\"$2\"",
                ServerProcess.binary.path, scratch.path("data"), errors,
            ])
        let line = try #require(try await child.firstLine(within: ServerProcess.startDeadline))
        let base = String(line.dropFirst("listening on ".count))

        var request = URLRequest(url: try #require(URL(string: base + "/")))
        request.httpMethod = "GET"
        let (_, response) = try await URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
            .data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 302)
        #expect(http.value(forHTTPHeaderField: "Location") == "/app/")

        child.send(SIGINT)
        #expect(try await child.exitStatus(within: 30) == 0)
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(said.contains("tandem: the tasks app is at \(base)/app/"), "\(said)")
        #expect(said.contains("tandem: the server stopped"), "\(said)")
    }

    /// Keeps a redirect as the answer.
    final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
        ) { completionHandler(nil) }
    }
}
