public import ChatTimeline

/// One message of a simulation fixture with everything the harness needs to know about it.
public struct FixtureMessage: Sendable {
    public var item: TimelineItem
    /// How far the settled height differs from the first measurement (late image, preview):
    /// ±40 pt for about 5 % of rows, else 0 (timeline-and-contacts.md §2.7).
    public var lateDelta: Double
    /// Whether the store can decode the body; undecodable rows are never rendered.
    public var isDecodable: Bool
    /// For a pending row: the revision it becomes when promoted (txId, chain time, status).
    public var promotion: TimelineItem?

    /// The height of the first layout, as the harness's measure function reports it.
    public var firstHeight: Double { Self.firstHeight(of: item) }

    /// Deterministic first-layout height from the row alone, so the engine's injected measure
    /// function needs no shared table: text 26 + 18·lines (1–20 lines, skewed short), audio 64,
    /// payment 120, handshake 40, plus a 12 pt status row once a pending row is promoted.
    public static func firstHeight(of item: TimelineItem) -> Double {
        let base: Double
        switch item.kind {
        case .text:
            let bytes = item.id.bytes
            let skew = Double(bytes[0]) / 255 * Double(bytes[1]) / 255
            base = 26 + 18 * Double(1 + Int(skew * 19.99))
        case .audio: base = 64
        case .payment: base = 120
        case .handshake: base = 40
        }
        return base + (item.revision > 0 ? 12 : 0)
    }
}
