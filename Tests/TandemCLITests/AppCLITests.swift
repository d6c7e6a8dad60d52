import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tandem app` as a person starts it (issue 47 item 1): one line with the link to open, the
/// server refusing a request without the link's cookie, one app per profile (a second one says
/// where the first serves and exits 1 with one line), and Ctrl-C stopping it cleanly.
@Suite(.serialized) struct AppCLITests {
    @Test func theAppPrintsItsLinkRefusesStrangersAndRunsOncePerProfile() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = scratch.appendingPathComponent("profile").path
        #expect(try await TandemProcess.run(["keys", "new", "--profile", profile]).status == 0)
        // The relay is not called by anything this test does.
        let arguments = ["app", "--profile", profile, "--server", "http://127.0.0.1:9"]

        let app = try await ChildProcess.launch(TandemProcess.binary, arguments)
        let line = try #require(try await app.firstLine(within: 60), "tandem app printed no link")
        let link = try #require(line.hasPrefix("open ") ? URLComponents(string: String(line.dropFirst(5))) : nil)
        let port = try #require(link.port)
        #expect(link.host == "127.0.0.1")
        #expect(link.path == "/open")
        #expect(link.queryItems?.first { $0.name == "token" }?.value?.count == 64)

        // A request without the cookie is refused, as JSON.
        let (body, response) = try await URLSession.shared.data(
            from: try #require(URL(string: "http://127.0.0.1:\(port)/")))
        #expect((response as? HTTPURLResponse)?.statusCode == 403)
        #expect(String(decoding: body, as: UTF8.self).contains("\"error\""))

        // A second app for the same profile names the first one's port.
        let second = try await TandemProcess.run(arguments)
        #expect(second.status == 1)
        #expect(second.stderrLines.count == 1)
        #expect(second.stderrText.contains("already serves this profile at http://127.0.0.1:\(port)/"))

        app.send(SIGINT)
        #expect(try await app.exitStatus(within: 30) == 0)
        // Stopped, the profile is free again.
        let again = try await ChildProcess.launch(TandemProcess.binary, arguments)
        #expect(try await again.firstLine(within: 60)?.hasPrefix("open http://127.0.0.1:") == true)
        #expect(try await again.terminate() == 0)
    }

    /// `curl` on the PATH: the one client here that shows a live stream's first line as it comes.
    static let curl: URL? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").lazy
        .map { URL(fileURLWithPath: String($0)).appendingPathComponent("curl") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// Ctrl-C with a page still following the live updates: the server's shutdown waits for every
    /// response, so the event stream must end with it, or the app would never exit.
    @Test(.enabled(if: curl != nil, "needs curl on the PATH (apt-get install curl)"))
    func ctrlCStopsTheAppWhileAPageFollowsItsLiveUpdates() async throws {
        let curl = try #require(Self.curl)
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = scratch.appendingPathComponent("profile").path
        let jar = scratch.appendingPathComponent("cookies").path
        #expect(try await TandemProcess.run(["keys", "new", "--profile", profile]).status == 0)
        let app = try await ChildProcess.launch(
            TandemProcess.binary, ["app", "--profile", profile, "--server", "http://127.0.0.1:9"])
        let line = try #require(try await app.firstLine(within: 60), "tandem app printed no link")
        let link = String(line.dropFirst("open ".count))
        let port = try #require(URLComponents(string: link)?.port)
        let opened = try await ChildProcess.launch(curl, ["-s", "-o", "/dev/null", "-c", jar, link])
        #expect(try await opened.exitStatus(within: 30) == 0)
        let page = try await ChildProcess.launch(curl, ["-sN", "-b", jar, "http://127.0.0.1:\(port)/api/events"])
        #expect(try await page.firstLine(within: 30) == ": connected")

        app.send(SIGINT)
        #expect(try await app.exitStatus(within: 30) == 0)
        // The page's stream ended with the app: curl has read to its end.
        #expect(try await page.exitStatus(within: 30) == 0)
    }

    @Test func theHelpSaysWhatTheLinkDoes() async throws {
        let help = try await TandemProcess.run("app", "--help")
        #expect(help.status == 0)
        #expect(help.stdoutText.contains("127.0.0.1"))
        #expect(help.stdoutText.contains("--port"))
        let bad = try await TandemProcess.run("app", "--port", "70000")
        #expect(bad.status == 1)
        #expect(bad.stderrLines.count == 1)
    }
}
