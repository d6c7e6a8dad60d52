import Foundation
import Testing

/// The suites run over both backends (the storage contract, the chain index, the relay and sync
/// processes) leave their PostgreSQL cases out without `POSTGRES_URL`. That is said here, not
/// passed over in silence: a warning on a developer machine, and a failure where CI sets
/// `TANDEM_REQUIRE_POSTGRES=1` (`.ci/run` starts a cluster and must not lose it).
@Suite struct PostgresConfigurationTests {
    @Test func thePostgreSQLCasesOfTheBackendSuitesRun() {
        let environment = ProcessInfo.processInfo.environment
        guard environment["POSTGRES_URL"]?.isEmpty ?? true else { return }
        Issue.record(
            "POSTGRES_URL is not set: every PostgreSQL case of the backend suites is left out",
            severity: environment["TANDEM_REQUIRE_POSTGRES"] == "1" ? .error : .warning)
    }
}
