/// A task's id: a lowercase UUID v4 (spec §2 `taskId`, [SWIFT-7], [SWIFT-20]).
public struct TaskID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let uuid: UUIDv4

    /// Parses lowercase UUID v4 text; nil for uppercase, other versions or other shapes.
    public init?(_ text: String) {
        guard let uuid = UUIDv4(text) else { return nil }
        self.uuid = uuid
    }

    /// Parses the text's UTF-8 bytes where they lie (a database column's), as ``init(_:)``.
    public init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let uuid = UUIDv4(utf8: utf8) else { return nil }
        self.uuid = uuid
    }

    /// A fresh id from 16 random bytes (version and variant bits are set here).
    public init(randomBytes: [UInt8]) { uuid = UUIDv4(randomBytes: randomBytes) }

    public var description: String { uuid.text }

    /// The id's first eight hex digits: how a person's list names a task, enough to tell the
    /// tasks of one list apart.
    public var abbreviated: String { uuid.text(length: 8) }

    /// Ascending order of the text, which is numeric order of the UUID.
    public static func < (lhs: TaskID, rhs: TaskID) -> Bool { lhs.uuid < rhs.uuid }
}

/// A todo instance's id: the `todoTaskId` of its create-todo, a lowercase UUID v4 (spec §5, v1.7).
public struct TodoID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let uuid: UUIDv4

    public init?(_ text: String) {
        guard let uuid = UUIDv4(text) else { return nil }
        self.uuid = uuid
    }

    public init(randomBytes: [UInt8]) { uuid = UUIDv4(randomBytes: randomBytes) }

    public var description: String { uuid.text }

    /// The id's first eight hex digits, as ``TaskID/abbreviated``.
    public var abbreviated: String { uuid.text(length: 8) }

    public static func < (lhs: TodoID, rhs: TodoID) -> Bool { lhs.uuid < rhs.uuid }
}
