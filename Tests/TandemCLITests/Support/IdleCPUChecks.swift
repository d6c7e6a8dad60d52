import Foundation
import Testing

extension Tag {
    /// A check of how much CPU an idle process uses: it sleeps for seconds and reads `/proc`, so
    /// it runs with the benchmarks (`.ci/run` sets ``IdleCPUChecks/variable``), not in every `swift test`.
    @Tag static var idleCPU: Self
}

enum IdleCPUChecks {
    static let variable = "TANDEM_IDLE_CPU_CHECKS"
    /// Set, and Linux's `/proc` is there to read CPU times from.
    static let enabled =
        ProcessInfo.processInfo.environment[variable] == "1"
        && FileManager.default.fileExists(atPath: "/proc/self/stat")
}
