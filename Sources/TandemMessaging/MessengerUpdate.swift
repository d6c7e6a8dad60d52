public import Foundation

/// What ``Messenger/updates(heartbeat:longestWait:)`` reports to a screen (the terminal UI, `tandem
/// app`): something arrived, or the connection changed.
public enum MessengerUpdate: Sendable, Equatable {
    /// A message, payment, handshake, reaction or verification, already stored.
    case arrived(IncomingMessage)
    /// A sync succeeded: the transport answers.
    case online
    /// The live stream or a sync failed; it is retried. `reason` is the error, for a status line.
    case reconnecting(reason: String)
}

extension Messenger {
    /// Follows the transport for a screen until the consumer stops iterating: ``listen()``
    /// reopened after each failure with a doubling wait (1 s up to `longestWait`), and a
    /// ``sync()`` every `heartbeat`, which both tells the truth about a dead relay (the stream
    /// reconnects by itself and so hides one) and picks up what the stream missed. Arrivals come
    /// from both, each stored once: the history drops duplicates, and a screen redraws a row by
    /// its id.
    public nonisolated func updates(heartbeat: Duration = .seconds(3), longestWait: Duration = .seconds(30))
        -> AsyncStream<MessengerUpdate>
    {
        let (stream, continuation) = AsyncStream.makeStream(of: MessengerUpdate.self)
        let task = Task { [self] in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.followLive(continuation, longestWait: longestWait) }
                group.addTask { await self.beat(continuation, every: heartbeat) }
                await group.waitForAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private nonisolated func followLive(
        _ continuation: AsyncStream<MessengerUpdate>.Continuation, longestWait: Duration
    )
        async
    {
        var wait = Duration.seconds(1)
        while !Task.isCancelled {
            do {
                for try await message in listen() {
                    wait = .seconds(1)
                    continuation.yield(.arrived(message))
                }
            } catch {
                if Task.isCancelled { return }
                continuation.yield(.reconnecting(reason: String(describing: error)))
            }
            do { try await Task.sleep(for: wait) } catch { return }
            wait = min(wait * 2, longestWait)
        }
    }

    private nonisolated func beat(_ continuation: AsyncStream<MessengerUpdate>.Continuation, every heartbeat: Duration)
        async
    {
        while !Task.isCancelled {
            do {
                let arrivals = try await sync()
                continuation.yield(.online)
                for message in arrivals { continuation.yield(.arrived(message)) }
            } catch {
                if Task.isCancelled { return }
                continuation.yield(.reconnecting(reason: String(describing: error)))
            }
            do { try await Task.sleep(for: heartbeat) } catch { return }
        }
    }
}
