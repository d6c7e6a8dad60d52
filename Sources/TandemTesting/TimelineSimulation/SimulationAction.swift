import ChatTimeline

/// Something the harness's world does at a virtual time.
enum SimulationAction: Sendable {
    case reply(PageRequest)
    /// The same reply again (a transport retry); its token is spent, so it must change nothing.
    case replayReply(PageRequest, TimelinePage)
    /// A loaded message delivered again by the network under a fresh UUID, same txId.
    case duplicate
    case reportHeight(MessageID)
    case promote(MessageID)
    case delete(MessageID)
    case burst(Int)
    case retry
}
