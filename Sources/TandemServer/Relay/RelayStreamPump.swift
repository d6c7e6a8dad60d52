import Hummingbird
import ServiceLifecycle
import TandemBasics
import TandemServerStore

/// Writes one stream: replay from the store after `start`, then live events from the
/// subscription, each row once per change, in position (commit) order (issue 11 item 3).
struct RelayStreamPump: Sendable {
    let store: any RelayStore
    let subscription: RelaySubscription
    let start: Int64
    let replayBatch: Int

    private enum Finished { case pump, helper }

    /// Runs until the subscription closes (shutdown) or the client leaves; throws
    /// ``RelayStreamOverflow`` when the client reads too slowly, which drops the connection.
    func run(writing box: ResponseWriterBox, heartbeat: Duration) async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Finished.self) { group in
                group.addTask {
                    try await pump(box)
                    return .pump
                }
                group.addTask {
                    for await _ in subscription.overflow { throw RelayStreamOverflow() }
                    return .helper
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: heartbeat)
                        subscription.deliver(.heartbeat)
                    }
                }
                while let finished = try await group.next() {
                    if case .pump = finished { break }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            subscription.close()
        }
    }

    private func pump(_ box: ResponseWriterBox) async throws {
        var last = start
        // A comment first: headers go out at once, and the client knows it is subscribed.
        try await box.write(Array(": connected\n\n".utf8))
        while true {
            let records = try await store.kasiaRecords(after: last, watching: subscription.watch, limit: replayBatch)
            for record in records {
                try await box.write(Self.event(record))
                last = record.position
            }
            if records.count < replayBatch { break }
        }
        for await item in subscription.items {
            switch item {
            case .record(let record):
                guard record.position > last else { continue }
                try await box.write(Self.event(record))
                last = record.position
            case .heartbeat:
                try await box.write(Array(": heartbeat\n\n".utf8))
            }
        }
    }

    /// `event: <kind>\nid: <position>\ndata: <row JSON>\n\n`.
    static func event(_ record: KasiaRecord) -> [UInt8] {
        var out = Array("event: \(record.draft.kind.rawValue)\nid: \(record.position)\ndata: ".utf8)
        IndexerRowJSON.row(record, .stored, &out)
        out.append(contentsOf: Array("\n\n".utf8))
        return out
    }
}
