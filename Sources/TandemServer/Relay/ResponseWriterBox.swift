import Hummingbird

/// Carries a response body writer into the stream's child task.
///
/// `@unchecked Sendable` is sound here: the body closure hands the writer to the box before
/// starting the task group and touches it again only after the group has ended, and inside
/// the group exactly one child (the pump) uses it. No two tasks ever access it at once.
final class ResponseWriterBox: @unchecked Sendable {
    var writer: any ResponseBodyWriter

    init(_ writer: any ResponseBodyWriter) { self.writer = writer }

    func write(_ bytes: [UInt8]) async throws {
        try await writer.write(ByteBuffer(bytes: bytes))
    }
}
