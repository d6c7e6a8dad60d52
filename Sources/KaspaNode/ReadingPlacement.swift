/// Where a node connection's reading work runs: Swift's shared pool, or a task executor of the
/// caller's (the server's chain ingest reads multi-megabyte pages on a lower-priority thread).
///
/// Task executors exist on Linux and, on Apple platforms, from iOS 18 and macOS 15; the libraries
/// deploy to iOS 16 and macOS 13 (issue 46 item 1), so an executor is asked for through
/// ``executor(_:)`` where the platform has them, and every other caller reads on the shared pool.
public struct ReadingPlacement: Sendable {
    /// An `any TaskExecutor` when one was given; typed as `Sendable` so that this type exists on
    /// every platform the libraries support.
    private let taskExecutor: (any Sendable)?

    /// Swift's shared concurrent pool.
    public static let sharedPool = ReadingPlacement(taskExecutor: nil)

    /// `executor`'s threads.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    public static func executor(_ executor: any TaskExecutor) -> ReadingPlacement {
        ReadingPlacement(taskExecutor: executor)
    }

    /// Starts `operation` as an unstructured task here. An unstructured task takes no executor
    /// preference from the task that starts it, so reading work placed on an executor starts this way.
    @discardableResult
    public func startTask<Success: Sendable>(
        _ operation: sending @escaping () async -> Success
    ) -> Task<Success, Never> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *),
            let executor = taskExecutor as? any TaskExecutor
        {
            return Task(executorPreference: executor, operation: operation)
        }
        return Task(operation: operation)
    }
}
