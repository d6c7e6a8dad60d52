import CanonicalJSON
import Foundation
import Hummingbird
import HummingbirdCore
import KasiaIndex
import KaspaCrypto

@testable import TandemServer

/// The query string of the kasia-indexer reads (issue 11, kasia-protocol §10), as the server's
/// `/kasia` routes and the simulated node's indexer read it: the URI's parameters, then
/// ``KasiaIndexRequest`` for every route, and the live stream's own checks.
///
/// An accepted request's address is canonical (it reads back to itself); `limit` stays within
/// 0…50; an accepted alias or scope is hex within its length, echoed as given, and its bytes are
/// the echo's; every refusal's body is the indexer's `{"error": text}` as valid JSON that carries
/// the text.
enum IndexerQueryFuzz {
    static func run(_ bytes: [UInt8]) {
        let uri = URI("/kasia/x?" + String(decoding: bytes, as: UTF8.self))
        let pairs = uri.queryParameters.map { (String($0.key), String($0.value)) }
        for route in KasiaIndexRoute.allCases {
            let request: KasiaIndexRequest
            do { request = try KasiaIndexRequest(route, pairs: pairs) } catch {
                checkErrorBody(error.description)
                continue
            }
            let address = request.selection.address
            invariant((try? KaspaAddress(address.description)) == address, "an accepted address is not canonical")
            invariant((0...KasiaIndexRequest.maximumLimit).contains(request.limit), "a limit outside 0…50")
            switch request.selection {
            case .contextualMessagesBySender(_, let alias):
                checkEcho(request.presentation.aliasEcho, alias, maximum: KasiaIndexRequest.maximumAliasHexLength)
            case .selfStashesByOwner(_, let scope):
                checkEcho(request.presentation.scopeEcho, scope, maximum: KasiaIndexRequest.maximumScopeHexLength)
            default:
                break
            }
        }
        let stream = IndexerQuery(uri.queryParameters)
        for alias in stream.values("alias") {
            do { try IndexerQuery.checkHexTag(alias, name: "alias", maxHexLength: 32) } catch {
                checkErrorBody(error.message)
            }
        }
        for address in stream.values("address") {
            do {
                let canonical = try IndexerQuery.address(address)
                invariant((try? IndexerQuery.address(canonical)) == canonical, "an accepted address is not canonical")
            } catch { checkErrorBody(error.message) }
        }
    }

    static func checkEcho(_ echo: String?, _ bytes: [UInt8], maximum: Int) {
        guard let echo else { return invariant(false, "a tag is not echoed") }
        invariant(echo.utf8.count <= maximum && echo.utf8.count % 2 == 0, "a tag outside its length")
        invariant(
            echo.lowercased() == bytes.map { String(format: "%02x", $0) }.joined(), "a tag's bytes are not its echo's")
    }

    /// A refusal must render as the indexer's error body.
    static func checkErrorBody(_ message: String) {
        let body = KasiaIndexJSON.error(message)
        guard case .object(let object)? = try? JSONParser().parse(body) else {
            return invariant(false, "an error body is not a JSON object")
        }
        invariant(object["error"] == .string(message), "an error body lost its text")
    }
}
