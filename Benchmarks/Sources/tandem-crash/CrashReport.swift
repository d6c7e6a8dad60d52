import BenchSupport

/// What `tandem-bench crash --json` prints: the figures RELIABILITY.md records (issue 14
/// items 4 and 6).
struct CrashReport: Codable {
    /// Server writes per kind over the whole run: sent (nodes and record versions count one each,
    /// not one per request) and acknowledged with a 2xx answer.
    struct Writes: Codable {
        var attempted = 0
        var acknowledged = 0
    }

    /// The local-store cycles' counts.
    struct LocalTotals: Codable {
        var commands = 0
        var killed = 0
        var acknowledged = 0
        var tasksChecked = 0
        var completionsChecked = 0
        var contactsChecked = 0
        var stagesChecked = 0
        var integrityChecks = 0
    }

    var backend: String
    var seed: UInt64
    var serverCycles = 0
    var localCycles = 0
    /// Kill delays after the burst started, in milliseconds.
    var killDelaysMilliseconds: [Int] = []
    var writes: [String: Writes] = [:]
    /// Acknowledged writes read back after the last restart (each check covers every cycle).
    var sessionsChecked = 0
    var relayChecked = 0
    var nodesChecked = 0
    var contactVersionsChecked = 0
    /// Read-back checks over all restarts (the same write counts once per restart).
    var ackChecksTotal = 0
    var lost = 0
    /// SQLite: `integrity_check` runs on the killed database (0 on PostgreSQL).
    var integrityChecks = 0
    var local = LocalTotals()
    var failures: [String] = []
}
