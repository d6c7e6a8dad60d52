import ChatTimeline
import Foundation
import Testing

@Suite struct MessageKeyTests {
    @Test func idsCompareByTheirSixteenBytesLikeSQLiteBlobs() {
        for _ in 0..<200 {
            let a = MessageID(UUID())
            let b = MessageID(UUID())
            #expect((a < b) == a.bytes.lexicographicallyPrecedes(b.bytes))
        }
    }

    @Test func bytesRoundTripAndRejectWrongLengths() {
        let id = MessageID(UUID())
        #expect(MessageID(bytes: id.bytes) == id)
        #expect(MessageID(bytes: [UInt8](repeating: 0, count: 15)) == nil)
    }

    @Test func keysOrderByBlockTimeThenTimestampThenID() {
        let low = MessageID(bytes: [UInt8](repeating: 0, count: 16))
        let high = MessageID(bytes: [UInt8](repeating: 255, count: 16))
        let ids = [low, high].compactMap { $0 }
        #expect(ids.count == 2)
        let keys = [
            MessageKey(blockTime: 2, timestamp: 0, id: ids[0]),
            MessageKey(blockTime: 1, timestamp: 9, id: ids[1]),
            MessageKey(blockTime: 1, timestamp: 5, id: ids[1]),
            MessageKey(blockTime: 1, timestamp: 5, id: ids[0]),
        ]
        #expect(keys.sorted() == keys.reversed())
    }
}
