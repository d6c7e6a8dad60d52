import Foundation
import Logging
import TandemBasics
import Testing

@testable import TandemServer

/// `DeferredMetadataLogHandler` writes what its inner handler alone writes (the `tandem serve`
/// text log format is unchanged) while setting metadata renders nothing.
@Suite struct DeferredMetadataLogHandlerTests {
    /// Collects what a `StreamLogHandler` writes.
    final class Lines: TextOutputStream, @unchecked Sendable {
        private let text = Locked("")
        func write(_ string: String) { text.withLock { $0 += string } }
        var value: String { text.withLock { $0 } }
    }

    /// The line minus its leading timestamp, which may differ by a second between two loggers.
    private static func withoutTimestamp(_ text: String) -> String {
        String(text.drop(while: { $0 != " " }))
    }

    @Test func writesTheInnerHandlersLineWithTheSameMetadata() throws {
        let plainLines = Lines()
        let deferredLines = Lines()
        var plain = Logger(label: "tandem.server") { label in
            StreamLogHandler(label: label, stream: plainLines, metadataProvider: nil)
        }
        var deferred = Logger(label: "tandem.server") { label in
            DeferredMetadataLogHandler(StreamLogHandler(label: label, stream: deferredLines, metadataProvider: nil))
        }
        plain.logLevel = .debug
        deferred.logLevel = .debug
        plain[metadataKey: "request_id"] = "r1"
        deferred[metadataKey: "request_id"] = "r1"
        plain[metadataKey: "hb.request.id"] = "7"
        deferred[metadataKey: "hb.request.id"] = "7"
        plain.info("request failed", metadata: ["path": "/kasia/transactions"])
        deferred.info("request failed", metadata: ["path": "/kasia/transactions"])
        plain.warning("database unavailable")
        deferred.warning("database unavailable")
        plain.trace("not written")
        deferred.trace("not written")

        let expected = plainLines.value.split(separator: "\n").map { Self.withoutTimestamp(String($0)) }
        let actual = deferredLines.value.split(separator: "\n").map { Self.withoutTimestamp(String($0)) }
        #expect(expected.count == 2)
        #expect(actual == expected)
        #expect(actual.first?.contains("request_id=r1") == true)
        #expect(deferred[metadataKey: "request_id"] == "r1")
        #expect(deferred.logLevel == .debug)
    }
}
