/// One record of `PUT /api/contacts/records`: the blob id (64 lowercase hex), the sealed box
/// (base64) and the version the writer merged from (0 for a record it has never seen). The
/// server stores it as `baseVersion + 1` only when its version is still `baseVersion`.
public struct ContactRecordWrite: Codable, Sendable, Equatable {
    public var id: String
    public var box: String
    public var baseVersion: Int64

    public init(id: String, box: String, baseVersion: Int64) {
        self.id = id
        self.box = box
        self.baseVersion = baseVersion
    }
}

/// `PUT /api/contacts/records` body: at most 500 records, all written or none (409
/// `CONTACT_VERSION_CONFLICT` when any base version is stale).
public struct ContactRecordsPut: RequestBody {
    public var records: [ContactRecordWrite]

    public init(records: [ContactRecordWrite]) { self.records = records }

    public enum Field: String, CodingKey, CaseIterable, Sendable {
        case records
    }

    private typealias CodingKeys = Field
}

/// A stored record: the blob and its version; `PUT` answers these for what it wrote.
public struct ContactRecordEntry: Codable, Sendable, Equatable {
    public var id: String
    public var box: String
    public var version: Int64

    public init(id: String, box: String, version: Int64) {
        self.id = id
        self.box = box
        self.version = version
    }
}

/// `PUT` answer: the new version of each written record, in request order.
public struct ContactRecordsPutResponse: Codable, Sendable, Equatable {
    public struct Written: Codable, Sendable, Equatable {
        public var id: String
        public var version: Int64

        public init(id: String, version: Int64) {
            self.id = id
            self.version = version
        }
    }

    public var records: [Written]

    public init(records: [Written]) { self.records = records }
}

/// `GET /api/contacts/records?after=CURSOR&limit=N`: records changed after the cursor in
/// server order, the cursor to pass next, and whether more are waiting.
public struct ContactRecordPage: Codable, Sendable, Equatable {
    public var records: [ContactRecordEntry]
    public var cursor: String
    public var hasMore: Bool

    public init(records: [ContactRecordEntry], cursor: String, hasMore: Bool) {
        self.records = records
        self.cursor = cursor
        self.hasMore = hasMore
    }
}
