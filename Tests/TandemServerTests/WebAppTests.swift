import Foundation
import HTTPTypes
import Testing

@testable import TandemServer

/// `/app/` (issue 28): the tasks web app's files, their headers and revalidation.
@Suite struct WebAppTests {
    /// The app's source directory, `Sources/TandemServer/Resources/app`.
    static let sourceDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TandemServer/Resources/app")

    static let csp =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    @Test func thePageAndEveryFileAreServedWithAStrictPolicyAndAnETag() async throws {
        let server = try TestServer()
        defer { server.directory.remove() }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sourceDirectory.path).sorted()
        #expect(files.contains("index.html"))
        try await server.test { client in
            let page = try await client.send(.get, "/app/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy] == Self.csp)
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            #expect(page.headers[.cacheControl] == "no-cache")
            // Every file in the resource directory is embedded and served as it is on disk.
            for file in files {
                let answer = try await client.send(.get, "/app/\(file)")
                #expect(answer.status == .ok, "\(file)")
                #expect(
                    answer.body == (try Data(contentsOf: Self.sourceDirectory.appendingPathComponent(file))), "\(file)")
                #expect(answer.headers[.contentSecurityPolicy] == Self.csp)
                let etag = try #require(answer.headers[.eTag])
                let again = try await client.send(.get, "/app/\(file)", headers: ["If-None-Match": etag])
                #expect(again.status == .notModified, "\(file)")
                #expect(again.body.isEmpty)
            }
            #expect(WebAppController.assets.count == files.count)
            let missing = try await client.send(.get, "/app/nope.js")
            #expect(missing.status == .notFound)
            let moved = try await client.send(.get, "/app")
            #expect(moved.status == .permanentRedirect)
            #expect(moved.headers[.location] == "/app/")
            let head = try await client.send(.head, "/app/main.js")
            #expect(head.status == .ok)
            #expect(head.body.isEmpty)
            #expect(head.headers[.contentType] == "text/javascript; charset=utf-8")
        }
    }

    /// What the policy forbids is not in the files either: no inline script or style, no inline
    /// handlers, no `eval`, and text is never parsed as HTML.
    @Test func theFilesNeedNothingThePolicyForbids() throws {
        for (name, asset) in WebAppController.assets {
            let text = String(decoding: asset.bytes, as: UTF8.self)
            for pattern in ["eval(", "new Function", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"] {
                #expect(!text.contains(pattern), "\(name) uses \(pattern)")
            }
            guard name.hasSuffix(".html") else { continue }
            #expect(!text.contains(" style="), "\(name) has an inline style")
            #expect(
                text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(name) has an inline handler")
            let scripts = text.components(separatedBy: "<script").dropFirst()
            #expect(scripts.allSatisfy { $0.hasPrefix(#" type="module" src=""#) }, "\(name) has an inline script")
        }
    }

    /// The service worker pre-caches every file the server serves, so the app opens offline.
    @Test func theServiceWorkerCachesEveryFile() throws {
        let worker = try #require(WebAppController.assets["sw.js"])
        let text = String(decoding: worker.bytes, as: UTF8.self)
        let list = try #require(
            text.components(separatedBy: "const FILES = [").dropFirst().first?.components(separatedBy: "];").first)
        let listed = Set(
            list.split(separator: "'").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        #expect(listed == Set(WebAppController.assets.keys).union(["./"]))
    }
}
