import PostgresNIO
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The pool settings that keep the PostgreSQL server's memory level under load: every timer
/// the pool sets and cancels keeps its memory until its deadline, so the pool sets none on the
/// hot path (RELIABILITY.md, "Session 7: PostgreSQL relay-submit memory").
@Suite struct PostgresPoolConfigurationTests {
    @Test func thePoolKeepsTwoConnectionsWithoutKeepAliveAndClosesBurstConnectionsAfterTenSeconds() throws {
        let configuration = try PostgresServerStore.configuration(from: "postgres://tandem@127.0.0.1:5432/tandem")
        #expect(configuration.options.keepAliveBehavior == nil)
        #expect(configuration.options.minimumConnections == 2)
        #expect(configuration.options.connectionIdleTimeout == .seconds(10))
        #expect(configuration.options.connectTimeout == .seconds(3))
    }
}
