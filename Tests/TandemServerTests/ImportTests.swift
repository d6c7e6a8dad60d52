import Foundation
import TandemAPI
import TandemServer
import Testing

/// `tandem admin import-betterauth`: BetterAuth rows keep working passwords.
@Suite struct ImportTests {
    /// Hash of `password1234` from betterauth-api.md §7.
    static let vectorHash =
        "0123456789abcdef0123456789abcdef:74369303c2129f51b1d88426bc1ea315373e0161c8b065ebff3c355c80ef17331fbba17d67d0aa89370462b5143bdbc1edf3080c5a0721978639f914aa7aeb4f"

    static let export = """
        {"users":[
          {"id":"u1","name":"Zoe","email":"Zoe@Example.com","emailVerified":true,"image":null,
           "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z","username":"zoe","displayUsername":"Zoe"},
          {"id":"u2","name":"OAuth only","email":"o@example.com","emailVerified":false,"image":null,
           "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z","username":"oauth_only","displayUsername":null}
        ],
        "accounts":[
          {"id":"a1","accountId":"u1","providerId":"credential","userId":"u1","password":"\(vectorHash)",
           "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z"},
          {"id":"a2","accountId":"gh-1","providerId":"github","userId":"u2","password":null,
           "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z"}
        ]}
        """

    @Test func importedUsersSignInWithTheirBetterAuthPasswords() async throws {
        // BetterAuth's own hash: only its cost verifies it.
        let server = try TestServer(passwordHasher: PasswordHasher())
        let report = try await BetterAuthExport.decode(Data(Self.export.utf8)).importUsers(into: server.store)
        #expect(report.imported == ["u1"])
        #expect(report.skipped.map(\.userId) == ["u2"])
        try await server.test { api in
            let answer = try await api.signIn("ZOE", password: "password1234")
            #expect(answer.status == .ok)
            let user = try answer.decode(SignInResponse.self).user
            #expect(user.id == "u1")
            #expect(user.email == "zoe@example.com")
            #expect(user.emailVerified)
        }
        let again = try await BetterAuthExport.decode(Data(Self.export.utf8)).importUsers(into: server.store)
        #expect(again.imported.isEmpty)
    }

    @Test func malformedExportIsRefusedWithAReason() {
        #expect(throws: BetterAuthImportError.self) { try BetterAuthExport.decode(Data(#"{"users":5}"#.utf8)) }
    }
}
