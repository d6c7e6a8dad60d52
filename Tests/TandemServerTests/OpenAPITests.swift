import Foundation
import OpenAPIKit
import TandemAPI
import TandemServer
import Testing

/// `/openapi.json` describes exactly the routes the router registers.
@Suite struct OpenAPITests {
    @Test func documentAndRouterListTheSameOperations() async throws {
        let server = try TestServer()
        let routes = buildRouter(configuration: server.configuration, store: server.store, secret: TestServer.secret)
            .routes
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

    /// The served document is the resource file, and OpenAPIKit reads it as a valid OpenAPI 3.1
    /// document: every `$ref` resolves, every operation has responses, operation ids are unique.
    @Test func theDocumentIsAValidOpenAPI31Document() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.get, APIPath.openAPI)
            #expect(answer.status == .ok)
            let document = try JSONDecoder().decode(OpenAPI.Document.self, from: answer.body)
            #expect(document.openAPIVersion == .v3_1_0)
            try document.validate()
            #expect(!document.paths.isEmpty)
        }
    }

    /// Every state-changing operation documents the origin check's 403 (a cookie without a
    /// trusted Origin), since the front door's origin check runs before any of them
    /// (schemathesis found the undocumented ones).
    @Test func stateChangingOperationsDocumentTheOriginCheck() async throws {
        let server = try TestServer()
        try await server.test { api in
            let document = try #require(try await api.send(.get, APIPath.openAPI).json)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for (path, operations) in paths {
                for (method, operation) in operations where !["get", "head", "options"].contains(method) {
                    let responses = (operation as? [String: Any])?["responses"] as? [String: Any]
                    #expect(responses?["403"] != nil, "\(method.uppercased()) \(path)")
                }
            }
        }
    }

    /// The documented request bodies name exactly the members of their TandemAPI DTOs.
    @Test func requestSchemasNameTheDTOFields() async throws {
        let server = try TestServer()
        try await server.test { api in
            let document = try #require(try await api.send(.get, APIPath.openAPI).json)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            func properties(_ path: String, _ method: String) -> Set<String> {
                let operation = paths[path]?[method] as? [String: Any]
                let body = operation?["requestBody"] as? [String: Any]
                let content = (body?["content"] as? [String: Any])?["application/json"] as? [String: Any]
                let schema = content?["schema"] as? [String: Any]
                return Set((schema?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            }
            #expect(
                properties(APIPath.signUpEmail, "post") == Set(SignUpEmailRequest.Field.allCases.map(\.stringValue)))
            #expect(
                properties(APIPath.signInUsername, "post")
                    == Set(SignInUsernameRequest.Field.allCases.map(\.stringValue)))
            #expect(properties(APIPath.myProfile, "put") == Set(ChatProfileUpdate.Field.allCases.map(\.stringValue)))
            #expect(
                properties(APIPath.signInEmail, "post") == Set(SignInEmailRequest.Field.allCases.map(\.stringValue)))
            #expect(
                properties(APIPath.isUsernameAvailable, "post")
                    == Set(UsernameAvailabilityRequest.Field.allCases.map(\.stringValue)))
            #expect(
                properties(APIPath.revokeSession, "post") == Set(RevokeSessionRequest.Field.allCases.map(\.stringValue))
            )
            #expect(properties(APIPath.updateUser, "post") == Set(UpdateUserRequest.Field.allCases.map(\.stringValue)))
            #expect(
                properties(APIPath.changePassword, "post")
                    == Set(ChangePasswordRequest.Field.allCases.map(\.stringValue)))
            #expect(properties(APIPath.deleteUser, "post") == Set(DeleteUserRequest.Field.allCases.map(\.stringValue)))
        }
    }

    /// The server counts a password's length in UTF-16 units as BetterAuth does (§7), which a
    /// JSON Schema `minLength` (code points) cannot state: schemathesis sent fewer than 8 code
    /// points that were 8 units or more and saw the "too short" password accepted. So the
    /// password schemas bound only the maximum, and four characters outside the BMP sign up.
    @Test func passwordSchemasStateOnlyTheBoundCodePointsCanExpress() async throws {
        let server = try TestServer()
        try await server.test { api in
            let document = try #require(try await api.send(.get, APIPath.openAPI).json)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for (path, field) in [(APIPath.signUpEmail, "password"), (APIPath.changePassword, "newPassword")] {
                let operation = paths[path]?["post"] as? [String: Any]
                let body = operation?["requestBody"] as? [String: Any]
                let content = (body?["content"] as? [String: Any])?["application/json"] as? [String: Any]
                let properties = (content?["schema"] as? [String: Any])?["properties"] as? [String: Any]
                let schema = try #require(properties?[field] as? [String: Any], "\(path) \(field)")
                #expect(schema["minLength"] == nil, "\(path) \(field)")
                #expect(schema["maxLength"] as? Int == 128, "\(path) \(field)")
            }
            let astral = String(repeating: "\u{29C50}", count: 4)
            #expect(astral.unicodeScalars.count == 4 && astral.utf16.count == 8)
            #expect(try await api.signUp("astral", password: astral).status == .ok)
        }
    }
}
