import Foundation
import TandemAPI
import TandemServer
import Testing

/// `/openapi.json` describes exactly the routes the router registers.
@Suite struct OpenAPITests {
    @Test func documentAndRouterListTheSameOperations() async throws {
        let server = try TestServer()
        let routes = buildRouter(configuration: server.configuration, store: server.store, secret: TestServer.secret).routes
        let registered = Set(routes.map { "\($0.method) \($0.path)" })
        #expect(registered.count == routes.count, "a route is registered twice")

        try await server.test { api in
            let answer = try await api.send(.get, APIPath.openAPI)
            #expect(answer.status == .ok)
            let document = try #require(answer.json)
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var documented: Set<String> = []
            for (path, operations) in paths {
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            #expect(documented == registered)
        }
    }
}
