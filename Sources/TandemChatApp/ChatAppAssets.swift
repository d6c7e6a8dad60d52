import Crypto
import HTTPTypes
import Hummingbird
import TandemBasics

/// The chat app's page, style and script: plain files embedded in the binary (`Resources`,
/// `.embedInCode`), served under a strict Content-Security-Policy (this origin's scripts, styles
/// and connections only; no inline script, no `eval`, no framing) and revalidated on each load
/// against an ETag of their bytes.
enum ChatAppAssets {
    struct Asset: Sendable {
        let bytes: [UInt8]
        let type: String
        let tag: String

        init(_ bytes: [UInt8], type: String) {
            self.bytes = bytes
            self.type = type
            tag = "\"" + Hex.encode(Array(SHA256.hash(data: bytes)).prefix(16)) + "\""
        }
    }

    static let files: [String: Asset] = [
        "/": Asset(PackageResources.index_html, type: "text/html; charset=utf-8"),
        "/chat.css": Asset(PackageResources.chat_css, type: "text/css; charset=utf-8"),
        "/chat.js": Asset(PackageResources.chat_js, type: "text/javascript; charset=utf-8"),
        "/api.js": Asset(PackageResources.api_js, type: "text/javascript; charset=utf-8"),
        "/timeline.js": Asset(PackageResources.timeline_js, type: "text/javascript; charset=utf-8"),
        "/wallet.js": Asset(PackageResources.wallet_js, type: "text/javascript; charset=utf-8"),
        "/qr.js": Asset(PackageResources.qr_js, type: "text/javascript; charset=utf-8"),
    ]

    static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
        + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    static func register(on router: Router<BasicRequestContext>) {
        for (path, asset) in files {
            router.get(RouterPath(path)) { request, _ in serve(asset, to: request) }
            router.head(RouterPath(path)) { request, _ in serve(asset, to: request) }
        }
    }

    static func serve(_ asset: Asset, to request: Request) -> Response {
        var headers: HTTPFields = [
            .contentSecurityPolicy: policy, .xContentTypeOptions: "nosniff", .referrerPolicy: "no-referrer",
            .cacheControl: "no-cache", .eTag: asset.tag,
        ]
        if request.headers[.ifNoneMatch] == asset.tag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = asset.type
        headers[.contentLength] = String(asset.bytes.count)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: .init(bytes: asset.bytes)))
    }
}

extension HTTPField.Name {
    /// HTTPTypes has no constant for it; the literal is a valid field name.
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}
