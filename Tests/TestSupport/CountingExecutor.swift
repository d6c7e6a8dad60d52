import Dispatch
import TandemBasics

/// A task executor on a serial queue of its own that counts the jobs it runs, so a test can tell
/// whether work it expects there ran there (a task executor preference that was lost runs nothing
/// on it).
public final class CountingExecutor: TaskExecutor, Sendable {
    private let queue = DispatchQueue(label: "tandem.tests.counting-executor")
    private let count = Locked(0)

    public init() {}

    /// Jobs run so far.
    public var jobsRun: Int { count.withLock { $0 } }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            self.count.withLock { $0 += 1 }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
