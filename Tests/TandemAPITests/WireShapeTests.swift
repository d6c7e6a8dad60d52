import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemAPI
import Testing

/// Every request and response body of the auth and profile API, pinned byte for byte
/// (betterauth-api.md §3; `/api/me/profile`).
@Suite struct WireShapeTests {
    static let created = Date(timeIntervalSince1970: 1_767_225_600)
    static let updated = Date(timeIntervalSince1970: 1_767_229_200)
    static let user = AuthUser(
        id: "u1AbCdEfGhIjKlMnOpQrStUvWxYz0123", name: "Ada Lovelace", email: "ada@example.com", emailVerified: false,
        image: nil, createdAt: created, updatedAt: updated, username: "ada_l", displayUsername: "Ada_L")

    // MARK: Requests

    @Test func signUpEmailRequest() throws {
        try GoldenJSON.check(
            SignUpEmailRequest(
                name: "Ada Lovelace", email: "ada@example.com", password: "correct horse 1", username: "Ada_L"),
            "SignUpEmailRequest")
        try GoldenJSON.check(
            SignUpEmailRequest(
                name: "Ada Lovelace", email: "ada@example.com", password: "correct horse 1", username: "Ada_L",
                displayUsername: "Ada L", image: "https://example.com/ada.png", callbackURL: "http://localhost/app",
                rememberMe: false),
            "SignUpEmailRequest+all")
    }

    @Test func signInUsernameRequest() throws {
        try GoldenJSON.check(
            SignInUsernameRequest(username: "ada_l", password: "correct horse 1"), "SignInUsernameRequest")
        try GoldenJSON.check(
            SignInUsernameRequest(
                username: "ada_l", password: "correct horse 1", rememberMe: true, callbackURL: "/home"),
            "SignInUsernameRequest+all")
    }

    @Test func chatProfileUpdate() throws {
        try GoldenJSON.check(ChatProfileUpdate(), "ChatProfileUpdate+empty")
        try GoldenJSON.check(
            ChatProfileUpdate(
                displayName: "Ada",
                kaspaAddress: .set("kaspa:qypq0000000000000000000000000000000000000000000000000000"),
                publicKeys: [String(repeating: "ab", count: 32)]),
            "ChatProfileUpdate+all")
        try GoldenJSON.check(ChatProfileUpdate(kaspaAddress: .clear), "ChatProfileUpdate+clearAddress")
    }

    // MARK: Responses

    @Test func authResponses() throws {
        try GoldenJSON.check(Self.user, "AuthUser")
        try GoldenJSON.check(SignUpResponse(token: nil, user: Self.user), "SignUpResponse")
        try GoldenJSON.check(
            SignInResponse(redirect: true, token: "tok3n", url: "/home", user: Self.user), "SignInResponse")
        try GoldenJSON.check(SignOutResponse(success: true), "SignOutResponse")
        try GoldenJSON.check(HealthResponse(status: "ok"), "HealthResponse")
        let session = AuthSession(
            id: "s1", token: "tok3n", userId: Self.user.id, expiresAt: Self.updated, createdAt: Self.created,
            updatedAt: Self.created, ipAddress: nil, userAgent: "tandem/0.1")
        try GoldenJSON.check(SessionResponse(session: session, user: Self.user), "SessionResponse")
    }

    @Test func chatProfile() throws {
        try GoldenJSON.check(
            ChatProfile(
                userId: Self.user.id, displayName: "Ada", kaspaAddress: nil, publicKeys: [], updatedAt: Self.updated),
            "ChatProfile")
    }

    @Test func errorBody() throws {
        try GoldenJSON.check(
            APIErrorBody(code: .validationError, message: "[body.email] Invalid email address"), "APIErrorBody")
        try GoldenJSON.check(APIErrorBody(code: nil, message: "Not Found"), "APIErrorBody+noCode")
    }

    /// The Kaspa form of a relay submission (issue 15 item 4): the SDK's `Transaction.to_dict`,
    /// its `id` the one the SDK computes for this transaction.
    @Test func relayKaspaSubmission() throws {
        let script = KaspaScriptPublicKey(
            script: [0x20] + [
                0x79, 0xbe, 0x66, 0x7e, 0xf9, 0xdc, 0xbb, 0xac, 0x55, 0xa0, 0x62, 0x95, 0xce, 0x87, 0x0b, 0x07, 0x02,
                0x9b,
                0xfc, 0xdb, 0x2d, 0xce, 0x28, 0xd9, 0x59, 0xf2, 0x81, 0x5b, 0x16, 0xf8, 0x17, 0x98,
            ] + [0xac])
        let outpoint = KaspaOutpoint(transactionID: [UInt8](repeating: 0xab, count: 32), index: 1)
        let utxo = KaspaUtxoEntry(
            address: try KaspaAddress("kaspa:qpumuen7l8wthtz45p3ftn58pvrs9xlumvkuu2xet8egzkcklqtes4ypce9sf"),
            outpoint: outpoint, amount: 500_000_000,
            scriptPublicKey: script, blockDAAScore: 7)
        let transaction = KaspaTransaction(
            inputs: [
                KaspaTransactionInput(
                    previousOutpoint: outpoint, signatureScript: [0x41] + [UInt8](repeating: 0x11, count: 64) + [0x01],
                    utxo: utxo)
            ],
            outputs: [KaspaTransactionOutput(value: 499_900_000, scriptPublicKey: script)], payload: [0xca, 0xfe])
        try GoldenJSON.check(
            RelayKaspaSubmission(transaction: try RelayKaspaTransaction(converting: transaction)),
            "RelayKaspaSubmission")
    }
}
