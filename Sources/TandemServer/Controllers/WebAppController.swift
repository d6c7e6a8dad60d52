import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import TandemBasics

/// `GET`/`HEAD /app/` and `/app/{file}` (issue 28): the tasks web app, plain HTML, CSS and
/// JavaScript modules embedded in the binary (`Resources/app`, `.embedInCode`), so `tandem serve`
/// stays one file with no build step.
///
/// Every answer carries a strict Content-Security-Policy (scripts and styles from this origin
/// only: no inline script, no `eval`), `nosniff`, no referrer and no framing. Files are
/// revalidated on each load (`no-cache`) against a strong ETag, the SHA-256 of their bytes, so a
/// reload costs a 304 per file and a new server version is picked up at once.
struct WebAppController: Sendable {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String

        init(_ bytes: [UInt8], _ contentType: String) {
            self.bytes = bytes
            self.contentType = contentType
            etag = "\"" + Hex.encode(Array(SHA256.hash(data: bytes)).prefix(16)) + "\""
        }
    }

    /// The app's files by name; `index.html` is also `/app/`.
    static let assets: [String: Asset] = [
        "index.html": Asset(PackageResources.index_html, "text/html; charset=utf-8"),
        "app.css": Asset(PackageResources.app_css, "text/css; charset=utf-8"),
        "main.js": Asset(PackageResources.main_js, "text/javascript; charset=utf-8"),
        "api.js": Asset(PackageResources.api_js, "text/javascript; charset=utf-8"),
        "jcs.js": Asset(PackageResources.jcs_js, "text/javascript; charset=utf-8"),
        "redo.js": Asset(PackageResources.redo_js, "text/javascript; charset=utf-8"),
        "store.js": Asset(PackageResources.store_js, "text/javascript; charset=utf-8"),
        "validate.js": Asset(PackageResources.validate_js, "text/javascript; charset=utf-8"),
        "replay.js": Asset(PackageResources.replay_js, "text/javascript; charset=utf-8"),
        "tasks.js": Asset(PackageResources.tasks_js, "text/javascript; charset=utf-8"),
        "query.js": Asset(PackageResources.query_js, "text/javascript; charset=utf-8"),
        "sync.js": Asset(PackageResources.sync_js, "text/javascript; charset=utf-8"),
        "stats.js": Asset(PackageResources.stats_js, "text/javascript; charset=utf-8"),
        "sw.js": Asset(PackageResources.sw_js, "text/javascript; charset=utf-8"),
        "presets.js": Asset(PackageResources.presets_js, "text/javascript; charset=utf-8"),
        "preset-query.js": Asset(PackageResources.preset_query_js, "text/javascript; charset=utf-8"),
        "preset-book.js": Asset(PackageResources.preset_book_js, "text/javascript; charset=utf-8"),
        "preset-keys.js": Asset(PackageResources.preset_keys_js, "text/javascript; charset=utf-8"),
        "invitations.js": Asset(PackageResources.invitations_js, "text/javascript; charset=utf-8"),
        "fields.js": Asset(PackageResources.fields_js, "text/javascript; charset=utf-8"),
    ]

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        for method in [HTTPRequest.Method.get, .head] {
            // The server's own address leads a browser to the app (issue 51 item 11).
            table.add(router, method, "/") { _, _ in
                Response(status: .found, headers: [.location: "/app/", .cacheControl: "no-cache"])
            }
            // The router matches `/app` here too: the page's relative links need the slash.
            table.add(router, method, "/app/") { request, _ in
                guard request.uri.path.hasSuffix("/") else {
                    return Response(status: .permanentRedirect, headers: [.location: "/app/"])
                }
                return Self.answer(Self.assets["index.html"], request: request)
            }
            table.add(router, method, "/app/:file", fullPath: "/app/{file}") { request, context in
                Self.answer(context.parameters.get("file").flatMap { Self.assets[$0] }, request: request)
            }
        }
    }

    static func answer(_ asset: Asset?, request: Request) -> Response {
        var headers: HTTPFields = [
            .contentSecurityPolicy: contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            .referrerPolicy: "no-referrer", .cacheControl: "no-cache",
        ]
        guard let asset else {
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .notFound, headers: headers, body: .init(byteBuffer: .init(string: "not found\n")))
        }
        headers[.eTag] = asset.etag
        if let tags = request.headers[.ifNoneMatch],
            tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag })
        {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = String(asset.bytes.count)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(bytes: asset.bytes)))
    }
}
