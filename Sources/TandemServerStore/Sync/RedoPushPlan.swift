/// What one `POST /api/redo/nodes` does to the store (issue 12 item 2): the answer for each
/// node that reached the store, in push order, and the rows that make the accepted ones real.
/// Both backends write exactly these rows, so the positions a pull hands out are the same on
/// SQLite and PostgreSQL (spec §11: "server order").
struct RedoPushPlan: Sendable, Equatable {
    /// A `redo_node` row: the canonical text verbatim, at its node position.
    struct NodeRow: Sendable, Equatable {
        let id: String
        let taskID: String
        let position: Int64
        let json: [UInt8]
        let authorKey: String
    }

    /// A `redo_feed` row: one reader's copy of a node, at its feed position. The node is named
    /// twice: PostgreSQL's feed keeps its id, SQLite's its node position (its rowid).
    struct FeedRow: Sendable, Equatable {
        let position: Int64
        let userID: String
        let nodeID: String
        let nodePosition: Int64
    }

    /// One per draft, in push order.
    var outcomes: [RedoNodeOutcome] = []
    /// Tasks created by this push: their access list starts with the pusher.
    var grants: [String] = []
    var nodes: [NodeRow] = []
    var feed: [FeedRow] = []
    /// The last position this push used: the sync clock's new value.
    var clock: Int64

    init(clock: Int64) { self.clock = clock }
}
