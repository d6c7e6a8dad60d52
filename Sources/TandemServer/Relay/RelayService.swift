import Logging
public import ServiceLifecycle
import TandemServerStore

/// Keeps the relay's fan-out fed with rows other processes commit (issue 11 item 3): on
/// PostgreSQL it LISTENs for the NOTIFY each committing instance sends, and polls the store
/// now and then in case a notification was lost with a connection. Stops on graceful shutdown.
public struct RelayService: Service {
    let hub: RelayHub
    let store: any RelayStore
    let pollInterval: Duration
    let logger: Logger

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await listen() }
                group.addTask { await poll() }
            }
        }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                try await store.listenForKasiaCommits { await hub.poke() }
            } catch {
                if Task.isCancelled { return }
                logger.warning("relay LISTEN failed; retrying", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    private func poll() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: pollInterval) } catch { return }
            await hub.poke()
        }
    }
}
