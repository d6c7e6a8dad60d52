import Foundation
import HTTPTypes
import Hummingbird
import TandemAPI
import TandemBasics
import TandemServerStore

/// `GET`/`HEAD /health`, `GET /openapi.json` and the removed legacy login.
struct SystemController: Sendable {
    let store: any ServerStore
    /// The clock `/health`'s deadline runs on (the server's).
    let clock: any WallClock
    /// The chain index's state, when the server follows a Kaspa node (issue 25 item 3).
    var kaspa: KasiaChainStatus? = nil

    /// How long `/health` waits for the store's trivial query: a load balancer probing it
    /// must get an answer well before its own timeout (issue 14 audit: `/health` said ok
    /// while every other route hung on an unreachable database).
    static let readinessTimeout: Duration = .seconds(2)

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .get, APIPath.health) { _, _ in try await health(withBody: true) }
        table.add(router, .head, APIPath.health) { _, _ in try await health(withBody: false) }
        table.add(router, .get, APIPath.openAPI) { _, _ in
            JSONResponse.raw(OpenAPIDocument.bytes, status: .ok, headers: [:])
        }
        table.add(router, .post, APIPath.legacyLogin) { _, _ in
            throw APIFailure(
                .gone, .legacyLoginRemoved,
                "POST /users/login was removed. Sign in again with your username and password.")
        }
    }

    /// 200 `{"status":"ok"}` when the store answers `ping` in time, else 503
    /// `{"status":"unavailable"}`; HEAD answers the same status and headers without a body.
    func health(withBody: Bool) async throws -> Response {
        let ready: Bool
        do {
            let store = store
            try await StoreDeadline(timeout: Self.readinessTimeout, clock: clock, isUnavailable: { _ in true }).bound {
                try await store.ping()
            }
            ready = true
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            ready = false
        }
        let response = try JSONResponse.make(
            HealthResponse(status: ready ? "ok" : "unavailable", kaspa: kaspa.map { Self.health($0.snapshot) }),
            status: ready ? .ok : .serviceUnavailable)
        guard !withBody else { return response }
        return Response(status: response.status, headers: response.headers)
    }

    /// The index's state never changes the status code: `/health` answers the database's
    /// readiness, and a lagging index still serves what it has.
    static func health(_ snapshot: KasiaChainStatus.Snapshot) -> HealthKaspa {
        HealthKaspa(
            node: snapshot.node, synced: snapshot.synced, lagBlocks: snapshot.lagBlocks, role: snapshot.role.rawValue,
            error: snapshot.lastError)
    }
}
