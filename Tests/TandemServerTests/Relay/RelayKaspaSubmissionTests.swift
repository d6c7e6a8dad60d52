import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KasiaProtocol
import KaspaCrypto
import KaspaTransaction
import Logging
import TandemAPI
import TandemBasics
import TandemServer
import Testing

/// `POST /kasia/transactions` with a signed Kaspa transaction (issue 15 item 4), over loopback:
/// the transaction's signatures stand in for the relay's own, and the row is what the
/// kasia-indexer files for it.
@Suite struct RelayKaspaSubmissionTests {
    static let utxo = KaspaUtxoEntry(
        address: RelayFixtures.address(RelayFixtures.alice),
        outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 0xab, count: 32), index: 1), amount: 500_000_000,
        scriptPublicKey: KaspaScriptPublicKey(address: RelayFixtures.address(RelayFixtures.alice)), blockDAAScore: 7)

    static func transaction(_ request: KaspaTransactionBuilder.Request, key: PrivateKey = RelayFixtures.alice) throws
        -> KaspaTransaction
    {
        try KaspaTransactionBuilder(key: key).build(request, utxos: [utxo])
    }

    static func body(_ transaction: KaspaTransaction) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(
            decoding: try encoder.encode(
                RelayKaspaSubmission(transaction: try RelayKaspaTransaction(converting: transaction))), as: UTF8.self)
    }

    /// The application over real loopback sockets.
    static func live(_ body: @escaping @Sendable (APIClient) async throws -> Void) async throws {
        let server = try TestServer()
        let logger = Logger.quiet("live")
        let app = try buildApplication(configuration: server.configuration, store: server.store, logger: logger)
        try await app.test(.live) { client in try await body(APIClient(client: client)) }
    }

    @Test func handshakeTransactionIsFiledWithItsKaspaIDReceiverAndAmount() async throws {
        let handshake = try Self.transaction(
            .handshake(to: RelayFixtures.address(RelayFixtures.bob), payload: RelayFixtures.handshake()))
        let message = try Self.transaction(.selfSpend(payload: RelayFixtures.message()))
        let handshakeBody = try Self.body(handshake)
        let messageBody = try Self.body(message)
        try await Self.live { api in
            let answer = try await api.send(.post, APIPath.kasiaTransactions, json: handshakeBody)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json?["tx_id"] as? String == Hex.encode(handshake.id))
            let again = try await api.send(.post, APIPath.kasiaTransactions, json: handshakeBody)
            #expect(again.text == answer.text)
            let rows = try await api.send(
                .get, APIPath.kasiaHandshakesBySender + "?address=\(RelayFixtures.address(RelayFixtures.alice))")
            let list = try #require(try JSONSerialization.jsonObject(with: rows.body) as? [[String: Any]])
            #expect(list.count == 1)
            #expect(list.first?["tx_id"] as? String == Hex.encode(handshake.id))
            #expect(list.first?["receiver"] as? String == RelayFixtures.address(RelayFixtures.bob).description)

            let stored = try await api.send(.post, APIPath.kasiaTransactions, json: messageBody)
            #expect(stored.status == .ok, "\(stored.text)")
            #expect(stored.json?["tx_id"] as? String == Hex.encode(message.id))
        }
    }

    @Test func everyAlteredOrUnsignedTransactionIsRefusedWithA4xx() async throws {
        let signed = try Self.transaction(
            .payment(
                to: RelayFixtures.address(RelayFixtures.bob), amount: 70_000_000,
                memo: RelayFixtures.payment()))
        var altered = signed
        altered.outputs[0].value += 1
        var unsigned = signed
        unsigned.inputs[0].signatureScript = []
        var foreign = signed
        foreign.inputs[0].utxo?.scriptPublicKey = KaspaScriptPublicKey(
            address: RelayFixtures.address(RelayFixtures.carol))
        var noUTXO = signed
        noUTXO.inputs[0].utxo = nil
        var notKasia = try Self.transaction(.selfSpend(payload: Array("hello".utf8)))
        notKasia.version = 0
        let cases: [(String, String, HTTPResponse.Status, APIErrorCode)] = [
            ("altered output", try Self.body(altered), .badRequest, .invalidSignature),
            ("foreign key", try Self.body(foreign), .badRequest, .invalidSignature),
            ("unsigned", try Self.body(unsigned), .badRequest, .validationError),
            ("no utxo", try Self.body(noUTXO), .badRequest, .validationError),
            ("not a Kasia payload", try Self.body(notKasia), .badRequest, .notAKasiaPayload),
            ("not a transaction", #"{"transaction":{"version":0}}"#, .badRequest, .validationError),
            ("transaction not an object", #"{"transaction":7}"#, .badRequest, .validationError),
        ]
        try await Self.live { api in
            for (name, body, status, code) in cases {
                let answer = try await api.send(.post, APIPath.kasiaTransactions, json: body)
                #expect(answer.status == status, "\(name): \(answer.text)")
                #expect(answer.errorCode == code.rawValue, "\(name): \(answer.text)")
            }
        }
    }

    /// `transaction` re-signed with its inputs locked to alice's ECDSA address instead.
    static func ecdsa(_ transaction: KaspaTransaction) throws -> KaspaTransaction {
        let address = KaspaAddress(ecdsaPublicKey: RelayFixtures.alice.publicKey)
        var moved = transaction
        for index in moved.inputs.indices {
            moved.inputs[index].signatureScript = []
            moved.inputs[index].utxo?.address = address
            moved.inputs[index].utxo?.scriptPublicKey = KaspaScriptPublicKey(address: address)
        }
        return try moved.signed(with: RelayFixtures.alice)
    }

    @Test func ecdsaSignedTransactionIsAcceptedAndABadECDSASignatureOrP2SHInputRefused() async throws {
        let handshake = try Self.ecdsa(
            try Self.transaction(
                .handshake(to: RelayFixtures.address(RelayFixtures.bob), payload: RelayFixtures.handshake(3))))
        var badSignature = handshake
        badSignature.inputs[0].signatureScript[9] ^= 0x40
        var scriptHash = handshake
        scriptHash.inputs[0].utxo?.scriptPublicKey = KaspaScriptPublicKey(
            address: try KaspaAddress(
                network: .mainnet, version: .scriptHash, payload: [UInt8](repeating: 9, count: 32)))
        let bodies = (try Self.body(handshake), try Self.body(badSignature), try Self.body(scriptHash))
        let sender = KaspaAddress(ecdsaPublicKey: RelayFixtures.alice.publicKey).description
        try await Self.live { api in
            let answer = try await api.send(.post, APIPath.kasiaTransactions, json: bodies.0)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json?["tx_id"] as? String == Hex.encode(handshake.id))
            let rows = try await api.send(.get, APIPath.kasiaHandshakesBySender + "?address=\(sender)")
            let list = try #require(try JSONSerialization.jsonObject(with: rows.body) as? [[String: Any]])
            #expect(list.first?["tx_id"] as? String == Hex.encode(handshake.id))

            let bad = try await api.send(.post, APIPath.kasiaTransactions, json: bodies.1)
            #expect(bad.status == .badRequest, "\(bad.text)")
            #expect(bad.errorCode == APIErrorCode.invalidSignature.rawValue, "\(bad.text)")
            let p2sh = try await api.send(.post, APIPath.kasiaTransactions, json: bodies.2)
            #expect(p2sh.status == .badRequest, "\(p2sh.text)")
            #expect(p2sh.errorCode == APIErrorCode.unsupportedScript.rawValue, "\(p2sh.text)")
            #expect(p2sh.text.contains("script engine"), "\(p2sh.text)")
        }
    }
}
