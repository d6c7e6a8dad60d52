import Foundation
import TestSupport
import Testing

/// README as written (issue 51 item 1): every `sh` block of README.md says what it is, in an
/// HTML comment on the line before it. A `<!-- walkthrough: NAME -->` block is run exactly as
/// printed, in a fresh directory and a fresh HOME, the blocks of one NAME in order in one bash
/// (`set -e`: a command that fails as written fails the test). A `<!-- not a walkthrough: WHY -->`
/// block is a set-up line, a reference list with placeholders, or a full-screen program; the
/// tests of those commands live elsewhere.
///
/// `.build/release` of that directory is the built products (CI builds debug): a walkthrough
/// that names `.build/release/tandem` runs the binary under test. A block that needs a server
/// running "in another terminal" says so: `<!-- walkthrough: NAME; with: tandem serve -->`
/// starts one on port 8080 first. Ports 8080 and 18210 are the README's, so the suite is
/// serialized and nothing else in the tests binds them.
@Suite("README walkthroughs (issue 51)", .serialized)
struct ReadmeWalkthroughTests {
    struct Block {
        let line: Int
        let marker: String?
        let text: String
    }

    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../README.md").standardized

    static func blocks() throws -> [Block] {
        let lines = try String(contentsOf: readme, encoding: .utf8).components(separatedBy: "\n")
        var blocks: [Block] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == "```sh" else {
                index += 1
                continue
            }
            let marker = index > 0 && lines[index - 1].hasPrefix("<!--") ? lines[index - 1] : nil
            var end = index + 1
            while end < lines.count && lines[end] != "```" { end += 1 }
            blocks.append(
                Block(line: index + 1, marker: marker, text: lines[(index + 1)..<end].joined(separator: "\n")))
            index = end + 1
        }
        return blocks
    }

    /// The walkthroughs by name, in README order, with whether one needs a server first.
    static func walkthroughs() throws -> [(name: String, withServer: Bool, script: String)] {
        var found: [(name: String, withServer: Bool, script: String)] = []
        for block in try blocks() {
            guard let marker = block.marker, marker.hasPrefix("<!-- walkthrough: ") else { continue }
            let spec = marker.dropFirst("<!-- walkthrough: ".count).dropLast(" -->".count)
            let parts = spec.components(separatedBy: "; ")
            let name = parts[0]
            let withServer = parts.contains("with: tandem serve")
            if let at = found.firstIndex(where: { $0.name == name }) {
                found[at].script += "\n" + block.text
            } else {
                found.append((name, withServer, block.text))
            }
        }
        return found
    }

    @Test("every sh block of README.md is a walkthrough or says why it is not")
    func everyBlockIsMarked() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count > 10)
        for block in blocks {
            let marker = block.marker ?? ""
            #expect(
                marker.hasPrefix("<!-- walkthrough: ") || marker.hasPrefix("<!-- not a walkthrough: "),
                "README.md line \(block.line): no walkthrough marker")
        }
    }

    static let names = [
        "by hand", "profiles", "wallets", "kaspa tx", "kaspa network", "tasks", "contacts", "sync", "relay chat",
    ]

    @Test("the walkthroughs are the ones this suite runs")
    func walkthroughNames() throws {
        #expect(try Self.walkthroughs().map(\.name) == Self.names)
    }

    /// What the background jobs of a walkthrough must have printed by its end: `set -e` sees only
    /// the commands in the foreground.
    static let printed: [String: [(file: String, text: String)]] = [
        "kaspa network": [("watch.txt", "10.00000000 KAS"), ("node.json", "\"ports\":[18210]")],
        "relay chat": [("bob.txt", "wants to chat"), ("bob.txt", "hi Bob"), ("bob.txt", "a message from stdin")],
    ]

    /// A walkthrough whose script names `&&` or `||` would hide a failing command from `set -e`.
    @Test("no walkthrough chains commands with && or ||, which set -e does not check")
    func noChains() throws {
        for walkthrough in try Self.walkthroughs() {
            for line in walkthrough.script.split(separator: "\n") where !line.hasPrefix("#") {
                let code = line.split(separator: "#", maxSplits: 1).first.map(String.init) ?? ""
                #expect(!code.contains("&&") && !code.contains("||"), "\(walkthrough.name): \(line)")
            }
        }
    }

    @Test("each walkthrough runs as printed", arguments: names)
    func walkthroughRuns(_ name: String) async throws {
        let walkthrough = try #require(try Self.walkthroughs().first { $0.name == name })
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let products = ServerProcess.binary.deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: dir.path(".build"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: dir.path(".build/release"), withDestinationPath: products)
        try FileManager.default.createSymbolicLink(atPath: dir.path(".build/debug"), withDestinationPath: products)
        try FileManager.default.createDirectory(atPath: dir.path("home"), withIntermediateDirectories: true)
        let server =
            walkthrough.withServer
            ? """
            .build/release/tandem serve --port 8080 --data-dir ./server-data --no-rate-limit >server.log 2>&1 &
            for _ in $(seq 300); do curl -sf http://127.0.0.1:8080/health >/dev/null && break; kill -0 $! || break; sleep 0.1; done
            curl -sf http://127.0.0.1:8080/health >/dev/null || { cat server.log >&2; exit 1; }

            """ : ""
        // Background jobs (servers, nodes, listeners) end with the script, whatever happened.
        let script = """
            set -e -o pipefail
            trap 'status=$?; set +e; jobs -p | xargs -r kill 2>/dev/null; wait 2>/dev/null; exit $status' EXIT
            cd \(TmuxSession.quoted(dir.url.path))
            \(server)\(walkthrough.script)
            """
        try script.write(toFile: dir.path("walkthrough.sh"), atomically: true, encoding: .utf8)
        let output = try await TandemProcess.run(
            ["timeout", "300", "bash", dir.path("walkthrough.sh")],
            environment: [
                "HOME": dir.path("home"), "PATH": products + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
            ],
            program: URL(fileURLWithPath: "/usr/bin/env"))
        for (file, text) in Self.printed[name] ?? [] {
            let content = (try? String(contentsOfFile: dir.path(file), encoding: .utf8)) ?? ""
            #expect(content.contains(text), "\(name): \(file) lacks \(text): \(content.suffix(600))")
        }
        #expect(
            output.status == 0,
            "README walkthrough '\(name)' failed (\(output.status)):\n\(output.stderrText.suffix(3000))\n--- stdout:\n\(output.stdoutText.suffix(2000))"
        )
    }
}
