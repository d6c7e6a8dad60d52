public import ChatTimeline
import TandemBasics

/// A seeded conversation for the headless harness (timeline-and-contacts.md §2.7 "Fixture").
///
/// Kinds and heights: text 26 + 18·lines (1–20 lines), audio 64, payment 120, handshake 40; about
/// 10 % of rows in tie groups of 2–5 sharing `(blockTime, timestamp)`; 1 % pending rows that are
/// promoted later (+12 pt status row, blockTime moved by up to ±2 s); 5 % rows whose settled
/// height differs from the first measurement by ±40 pt; a few undecodable rows.
public struct TimelineFixture: Sendable {
    public private(set) var messages: [FixtureMessage]
    /// Base time of the newest history row; live arrivals continue after it.
    public private(set) var lastTime: UInt64
    public var generator: SeededRandom

    public init(count: Int, seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        var messages: [FixtureMessage] = []
        messages.reserveCapacity(count)
        var time: UInt64 = 1_700_000_000_000
        while messages.count < count {
            time += UInt64.random(in: 1_000...90_000, using: &rng)
            let groupSize = rng.chance(0.03) ? Int.random(in: 2...5, using: &rng) : 1
            for _ in 0..<min(groupSize, count - messages.count) {
                messages.append(Self.makeMessage(time: time, rng: &rng, allowPending: true))
            }
        }
        self.messages = messages
        self.lastTime = time
        self.generator = rng
    }

    /// A fresh live message (a tail arrival) after everything so far.
    public mutating func makeLiveMessage() -> FixtureMessage {
        lastTime += UInt64.random(in: 0...3_000, using: &generator)
        return Self.makeMessage(time: lastTime, rng: &generator, allowPending: false)
    }

    static func makeMessage(time: UInt64, rng: inout SeededRandom, allowPending: Bool) -> FixtureMessage {
        let id = rng.messageID()
        let kind = Self.pickKind(&rng)
        let key = MessageKey(blockTime: time, timestamp: Int64(time / 1_000) * 1_000, id: id)
        let txID = TxID(Hex.encode(rng.uuidBytes() + rng.uuidBytes()))
        let isPending = allowPending && rng.chance(0.01)
        var item = TimelineItem(
            key: key, txID: isPending ? nil : txID, kind: kind, status: isPending ? .pending : .confirmed)
        var promotion: TimelineItem?
        if isPending {
            var promoted = item
            let shift = Int64.random(in: -2_000...2_000, using: &rng)
            promoted.key.blockTime = UInt64(max(0, Int64(time) + shift))
            promoted.txID = txID
            promoted.status = .sent
            promoted.revision = 1
            promotion = promoted
            item.revision = 0
        }
        let lateDelta: Double = rng.chance(0.05) ? (rng.chance(0.5) ? 40 : -40) : 0
        return FixtureMessage(
            item: item, lateDelta: lateDelta, isDecodable: !rng.chance(0.005), promotion: promotion
        )
    }

    static func pickKind(_ rng: inout SeededRandom) -> MessageKind {
        let roll = Double.random(in: 0..<1, using: &rng)
        if roll < 0.75 { return .text }
        if roll < 0.85 { return .audio }
        if roll < 0.93 { return .payment }
        return .handshake
    }
}
