import Foundation
import TandemBasics

#if canImport(Glibc)
    import Glibc
#endif

/// One thread of lower CPU priority that runs the chain ingester's work (issue 25: reads during
/// ingest). The ingest decodes node pages and builds rows; on a machine whose cores are busy,
/// the request handlers, at normal priority, are scheduled first. Linux: the thread's nice value
/// (`setpriority` from the thread itself); elsewhere its quality of service.
final class BackgroundExecutor: TaskExecutor, Sendable {
    /// The queue, and one signal per queued job.
    private let jobs = Locked<[UnownedJob]>([])
    private let queued = DispatchSemaphore(value: 0)

    init(niceness: Int32 = 10, name: String = "tandem.chain-ingest") {
        let thread = Thread { [unowned self] in
            #if canImport(Glibc)
                // On Linux the nice value is per thread, and 0 names the calling one.
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            #endif
            self.runJobs()
        }
        thread.name = name
        #if canImport(Darwin)
            thread.qualityOfService = .utility
        #endif
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        queued.signal()
    }

    /// The thread's loop: it lives as long as the process (one per server).
    private func runJobs() {
        while true {
            queued.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
