import CanonicalJSON
import Foundation
import Hummingbird
import HummingbirdCore
import KaspaCrypto

@testable import TandemServer

/// The query string of the kasia-indexer reads (issue 11, kasia-protocol §10), as
/// ``IndexerController`` reads it: the URI's parameters, then every accessor a route uses.
///
/// An accepted address is canonical (it reads back to itself); `limit` stays within 0…50; an
/// accepted alias or scope is hex within its length and echoed as given; every refusal's body
/// is the indexer's `{"error": text}` as valid JSON that carries the text.
enum IndexerQueryFuzz {
    static func run(_ bytes: [UInt8]) {
        let uri = URI("/kasia/x?" + String(decoding: bytes, as: UTF8.self))
        let query = IndexerQuery(uri.queryParameters)
        check { () throws(IndexerQuery.Failure) in
            let address = try query.address("address")
            invariant((try? IndexerQuery.address(address)) == address, "an accepted address is not canonical")
        }
        check { () throws(IndexerQuery.Failure) in
            let limit = try query.limit(default: IndexerController.defaultLimit, max: IndexerController.maxLimit)
            invariant((0...IndexerController.maxLimit).contains(limit), "a limit outside 0…50")
        }
        check { () throws(IndexerQuery.Failure) in _ = try query.blockTime() }
        for (name, maximum) in [("alias", 32), ("scope", 510)] {
            check { () throws(IndexerQuery.Failure) in
                let tag = try query.hexTag(name, maxHexLength: maximum)
                invariant(tag == query.value(name), "a tag is not echoed as given")
                invariant(tag.utf8.count <= maximum && tag.utf8.count % 2 == 0, "a tag outside its length")
            }
        }
    }

    /// Runs one accessor; a refusal must render as the indexer's error body.
    static func check(_ read: () throws(IndexerQuery.Failure) -> Void) {
        do { try read() } catch {
            let body = IndexerRowJSON.error(error.message)
            guard case .object(let object)? = try? JSONParser().parse(body) else {
                return invariant(false, "an error body is not a JSON object")
            }
            invariant(object["error"] == .string(error.message), "an error body lost its text")
        }
    }
}
