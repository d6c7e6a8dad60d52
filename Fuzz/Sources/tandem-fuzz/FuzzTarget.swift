/// Every untrusted-input entry point that has a fuzz target (issue 14 item 1).
enum FuzzTarget: String, CaseIterable, Sendable {
    case canonicalJSON = "canonical-json"
    case redoNode = "redo-node"
    case kasiaPayload = "kasia-payload"
    case handshake
    case sealedOpen = "sealed-open"
    case kaspaAddress = "kaspa-address"
    case contactRecord = "contact-record"
    case sessionCookie = "session-cookie"
    case syncBody = "sync-body"
    case relayBody = "relay-body"
    case contactPage = "contact-page"
    case nodeFrame = "node-frame"
    case serverSentEvents = "server-sent-events"
    case taskPullPage = "task-pull-page"
    case indexerQuery = "indexer-query"
    case chainRow = "chain-row"
    case pushAnswer = "push-answer"

    func run(_ bytes: [UInt8]) {
        switch self {
        case .canonicalJSON: CanonicalJSONFuzz.run(bytes)
        case .redoNode: RedoNodeFuzz.run(bytes)
        case .kasiaPayload: KasiaPayloadFuzz.run(bytes)
        case .handshake: HandshakeFuzz.run(bytes)
        case .sealedOpen: SealedOpenFuzz.run(bytes)
        case .kaspaAddress: KaspaAddressFuzz.run(bytes)
        case .contactRecord: ContactRecordFuzz.run(bytes)
        case .sessionCookie: SessionCookieFuzz.run(bytes)
        case .syncBody: SyncBodyFuzz.run(bytes)
        case .relayBody: RelayBodyFuzz.run(bytes)
        case .contactPage: ContactPageFuzz.run(bytes)
        case .nodeFrame: NodeFrameFuzz.run(bytes)
        case .serverSentEvents: ServerSentEventFuzz.run(bytes)
        case .taskPullPage: TaskPullPageFuzz.run(bytes)
        case .indexerQuery: IndexerQueryFuzz.run(bytes)
        case .chainRow: ChainRowFuzz.run(bytes)
        case .pushAnswer: PushAnswerFuzz.run(bytes)
        }
    }
}

/// Stops the process with a message libFuzzer shows next to the reproducer.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
