public import ChatTimeline
import Foundation

/// Draws the timeline harness needs from the one seeded source, so a simulation seed reproduces
/// a run exactly (timeline-and-contacts.md §2.7 "seeded, deterministic").
extension SeededRandom {
    /// Sixteen random bytes with the UUID version 4 and variant bits set.
    public mutating func uuidBytes() -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = next()
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return bytes
    }

    /// A random message identity.
    public mutating func messageID() -> MessageID {
        let b = uuidBytes()
        return MessageID(
            UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
                )))
    }

    /// `true` with probability `p`.
    public mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
}
