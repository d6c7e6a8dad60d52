import Foundation
import Hummingbird
import TandemAPI

/// `GET /health`, `GET /openapi.json` and the removed legacy login.
struct SystemController: Sendable {
    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .get, APIPath.health) { _, _ in try JSONResponse.make(HealthResponse(status: "ok")) }
        table.add(router, .get, APIPath.openAPI) { _, _ in
            JSONResponse.raw(Data(OpenAPIDocument.json.utf8), status: .ok, headers: [:])
        }
        table.add(router, .post, APIPath.legacyLogin) { _, _ in
            throw APIFailure(.gone, .legacyLoginRemoved,
                             "POST /users/login was removed. Sign in again with your username and password.")
        }
    }
}
