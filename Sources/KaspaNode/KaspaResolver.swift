public import Foundation
public import KaspaRPC

/// The public-node Resolver (kaspa-node.md §1): `GET {resolver}/v2/kaspa/{networkId}/{tls|any}/wrpc/json`
/// answers `{"uid", "url"}`. The request and the answer's reading; the HTTP exchange is the caller's.
public enum KaspaResolver {
    /// The lookup URL for a JSON wRPC node of `network`; `tls` asks for `wss://` nodes only.
    public static func lookupURL(resolver: URL, network: KaspaNetworkID, tls: Bool = true) -> URL {
        resolver.appendingPathComponent("v2").appendingPathComponent("kaspa")
            .appendingPathComponent(network.description).appendingPathComponent(tls ? "tls" : "any")
            .appendingPathComponent("wrpc").appendingPathComponent("json")
    }

    /// The node URL of a Resolver answer; only `ws://` and `wss://` URLs are taken.
    public static func nodeURL(fromAnswer body: Data) throws(KaspaNodeError) -> URL {
        struct Answer: Decodable {
            var url: String
        }
        guard let answer = try? JSONDecoder().decode(Answer.self, from: body) else {
            throw .malformedAnswer(node: "resolver", method: "lookup", reason: "expected {\"uid\", \"url\"}")
        }
        guard let url = URL(string: answer.url), url.scheme == "ws" || url.scheme == "wss", url.host != nil else {
            throw .malformedAnswer(node: "resolver", method: "lookup", reason: "\(answer.url) is not a ws:// URL")
        }
        return url
    }
}
