import Foundation
import TandemAPI
import Testing

/// Indexer rows as K-Kluster's kasia-indexer writes them (kasia-protocol §10), where that is
/// looser than a Tandem relay's.
@Suite struct IndexerRowDecodingTests {
    @Test("a self-stash row with a null or absent owner decodes, its owner empty; the rest is kept")
    func selfStashOwnerIsOptional() throws {
        for owner in [#""owner":null,"#, ""] {
            let json = #"{"tx_id":"ab",\#(owner)"scope":"73","block_time":7,"stashed_data":"c0ffee"}"#
            let row = try JSONDecoder().decode(IndexerSelfStash.self, from: Data(json.utf8))
            #expect(row == IndexerSelfStash(txID: "ab", owner: "", scope: "73", blockTime: 7, stashedData: "c0ffee"))
        }
        let named = #"{"tx_id":"ab","owner":"kaspa:q1","block_time":7,"accepting_daa_score":9,"stashed_data":"00"}"#
        let row = try JSONDecoder().decode(IndexerSelfStash.self, from: Data(named.utf8))
        #expect(row.owner == "kaspa:q1" && row.scope == nil && row.acceptingDAAScore == 9)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IndexerSelfStash.self, from: Data(#"{"tx_id":"ab","block_time":7}"#.utf8))
        }
    }
}
