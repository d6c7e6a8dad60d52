public import Foundation
public import KaspaNode
public import KaspaRPC

/// `tandem serve --kaspa-node URL… --kaspa-network … [--kaspa-start-hash HASH]` (issue 25
/// item 6): the nodes the server follows and bridges submissions to.
public struct KaspaIndexConfiguration: Sendable {
    public var nodes: [URL]
    public var network: KaspaNetworkID
    /// Where a fresh index starts; nil: the node's pruning point. A stored cursor wins.
    public var startHash: String?
    /// The WebSocket client: the CLI passes its NIO transport (the library links no NIO client).
    /// The bridge's submissions, on a request's path, use it.
    public var transport: any WebSocketTransport
    /// The chain ingest's own connection, whose pages may be tens of megabytes: `tandem serve`
    /// passes a transport on a lower-priority event loop. Nil: ``transport``.
    public var ingestTransport: (any WebSocketTransport)?
    /// How long one node call may take before the next node is tried.
    public var callTimeout: Duration
    /// How often the tip is polled once the index has caught up.
    public var idlePoll: Duration
    /// How long the bridge waits for the node's answer to a submission.
    public var submitTimeout: Duration
    /// About how many rows one ingest commit carries (closed at the first block past it).
    public var rowsPerCommit = Self.defaultRowsPerCommit
    /// 2,000. Commits of 200 were tried (issue 49 item 5): in WAL mode a read never waits for the
    /// writer, and ten times the commits cost more CPU per row, so the catch-up fell 10–35 % (under
    /// twice the chain's ceiling in three of four runs) and the reads' p99 during it rose
    /// (BENCHMARKS.md, session 42).
    public static let defaultRowsPerCommit = 2_000
    /// The longest the ingest waits, before each commit, for the reads in flight to finish
    /// (issue 49 item 5); zero: it does not wait.
    public var readYield = Self.defaultReadYield
    public static let defaultReadYield: Duration = .milliseconds(20)

    public init(
        nodes: [URL], network: KaspaNetworkID, startHash: String? = nil, transport: any WebSocketTransport,
        ingestTransport: (any WebSocketTransport)? = nil, callTimeout: Duration = .seconds(10),
        idlePoll: Duration = .milliseconds(250), submitTimeout: Duration = .seconds(5)
    ) {
        self.nodes = nodes
        self.network = network
        self.startHash = startHash
        self.transport = transport
        self.ingestTransport = ingestTransport
        self.callTimeout = callTimeout
        self.idlePoll = idlePoll
        self.submitTimeout = submitTimeout
    }

    /// The ingest's node client: its reader runs on the ingest's lower-priority thread, its socket
    /// on ``ingestTransport``.
    func ingestClient() -> KaspaNodeClient {
        KaspaNodeClient(
            configuration: nodeConfiguration, transport: ingestTransport ?? transport,
            reading: .executor(KasiaChainIngester.executor))
    }

    /// The bridge's node client, apart from the ingest's, so that a relayed submission's answer is
    /// read at the requests' priority and never waits behind a page being decoded. It connects
    /// on the first submission.
    func bridgeClient() -> KaspaNodeClient {
        KaspaNodeClient(configuration: nodeConfiguration, transport: transport)
    }

    /// The index needs no UTXO index, and reads only from synced nodes.
    private var nodeConfiguration: KaspaNodeConfiguration {
        KaspaNodeConfiguration(
            endpoints: nodes.map { .node($0) }, network: network, requiresUTXOIndex: false, requiresSynced: true,
            callTimeout: callTimeout)
    }
}
