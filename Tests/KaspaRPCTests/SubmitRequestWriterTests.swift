import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemTesting
import Testing

@testable import KaspaRPC

/// The submit request's own writer (issue 49 item 4) held to `JSONEncoder`: the same members and
/// values as the frame `JSONEncoder` writes for the same id, method and params, on seeded
/// submissions with every optional member present or null.
@Suite("Submit request writer (issue 49 item 4)")
struct SubmitRequestWriterTests {
    /// `RPCFrame`'s envelope, encoded as `JSONEncoder` encodes it.
    struct Reference<Params: Encodable>: Encodable {
        var id: UInt64
        var method: String
        var params: Params
    }

    static func reference(_ id: UInt64, _ params: RPCSubmitTransaction) throws -> String {
        String(
            decoding: try JSONEncoder().encode(Reference(id: id, method: "submitTransaction", params: params)),
            as: UTF8.self)
    }

    /// What a frame says, members sorted: `JSONEncoder` keeps no member order of its own, so frames
    /// are compared as JSON values.
    static func sorted(_ frame: String) throws -> Data {
        let value = try JSONSerialization.jsonObject(with: Data(frame.utf8))
        return try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
    }

    /// The frame's params read back exactly (integers past 2^53 included): the transaction as a
    /// chain walk's reader reads one, null members kept.
    struct ReadBack: Decodable, Equatable {
        struct Params: Decodable, Equatable {
            var transaction: RPCTransaction
            var allowOrphan: Bool
        }
        var id: UInt64
        var method: String
        var params: Params
    }

    /// The writer's frame says what `JSONEncoder`'s says, member for member, and reads back as
    /// the same values.
    static func expectSame(_ frame: String, _ id: UInt64, _ params: RPCSubmitTransaction) throws {
        let reference = try Self.reference(id, params)
        #expect(try sorted(frame) == sorted(reference))
        let read = try JSONDecoder().decode(ReadBack.self, from: Data(frame.utf8))
        #expect(read == (try JSONDecoder().decode(ReadBack.self, from: Data(reference.utf8))))
        #expect(read.id == id)
        #expect(read.params.transaction == params.transaction)
        #expect(read.params.allowOrphan == params.allowOrphan)
    }

    static func bytes(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    static func maybe<T>(_ value: T, _ random: inout SeededRandom) -> T? {
        Int.random(in: 0..<4, using: &random) == 0 ? nil : value
    }

    static func submission(_ random: inout SeededRandom) -> RPCSubmitTransaction {
        let inputs = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            RPCTransactionInput(
                previousOutpoint: maybe(
                    KaspaOutpoint(
                        transactionID: bytes(32, &random), index: UInt32.random(in: 0...UInt32.max, using: &random)),
                    &random),
                signatureScript: bytes(Int.random(in: 0...70, using: &random), &random),
                sequence: maybe(UInt64.random(in: 0...UInt64.max, using: &random), &random),
                sigOpCount: maybe(UInt8.random(in: 0...255, using: &random), &random),
                computeBudget: maybe(UInt16.random(in: 0...UInt16.max, using: &random), &random))
        }
        let outputs = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            RPCTransactionOutput(
                value: UInt64.random(in: 0...UInt64.max, using: &random),
                scriptPublicKey: KaspaScriptPublicKey(
                    version: UInt16.random(in: 0...UInt16.max, using: &random),
                    script: bytes(Int.random(in: 0...40, using: &random), &random)))
        }
        let transaction = RPCTransaction(
            version: maybe(UInt16.random(in: 0...UInt16.max, using: &random), &random), inputs: inputs,
            outputs: outputs, lockTime: maybe(UInt64.random(in: 0...UInt64.max, using: &random), &random),
            subnetworkId: maybe(bytes(20, &random), &random),
            gas: maybe(UInt64.random(in: 0...UInt64.max, using: &random), &random),
            payload: maybe(bytes(Int.random(in: 0...300, using: &random), &random), &random),
            mass: maybe(UInt64.random(in: 0...UInt64.max, using: &random), &random))
        return RPCSubmitTransaction(transaction: transaction, allowOrphan: Bool.random(using: &random))
    }

    @Test("seeded submissions: the writer's frame says what JSONEncoder's says, member for member")
    func matchesJSONEncoder() throws {
        var random = SeededRandom(seed: 49_4)
        for _ in 0..<400 {
            let params = Self.submission(&random)
            let id = UInt64.random(in: 0...UInt64.max, using: &random)
            var written: [UInt8] = []
            #expect(params.writeJSON(into: &written))
            let frame = try RPCFrame.request(id: id, method: .submitTransaction, params: params)
            #expect(
                frame.utf8.elementsEqual(#"{"id":\#(id),"method":"submitTransaction","params":"#.utf8 + written + [125])
            )
            try Self.expectSame(frame, id, params)
        }
    }

    @Test("a signed transaction's submission reads back as the node reads it")
    func readsBack() throws {
        var random = SeededRandom(seed: 7)
        let key = try PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let coin = KaspaUtxoEntry(
            address: address, outpoint: KaspaOutpoint(transactionID: Self.bytes(32, &random), index: 1),
            amount: 500_000_000, scriptPublicKey: KaspaScriptPublicKey(address: address), blockDAAScore: 3)
        let signed = try KaspaTransactionBuilder(key: key, network: .testnet, feeRate: 1)
            .build(.selfSpend(payload: Self.bytes(100, &random)), utxos: [coin])
        let params = RPCSubmitTransaction(transaction: RPCTransaction(signed))
        let frame = try RPCFrame.request(id: 9, method: .submitTransaction, params: params)
        try Self.expectSame(frame, 9, params)
        let head = try RPCFrame.requestHead(Data(frame.utf8))
        #expect(head.id == 9 && head.method == "submitTransaction")
        #expect(try RPCFrame.params(RPCSubmitTransaction.self, from: Data(frame.utf8)) == params)
    }

    @Test("a submission carrying verbose data is left to JSONEncoder")
    func verboseDataFallsBack() throws {
        var random = SeededRandom(seed: 11)
        var params = Self.submission(&random)
        params.transaction.verboseData = RPCTransactionVerboseData(
            transactionId: Self.bytes(32, &random), hash: Self.bytes(32, &random), computeMass: 1,
            blockHash: Self.bytes(32, &random), blockTime: 2)
        var written: [UInt8] = []
        #expect(!params.writeJSON(into: &written))
        #expect(written.isEmpty)
        let frame = try RPCFrame.request(id: 1, method: .submitTransaction, params: params)
        #expect(try Self.sorted(frame) == Self.sorted(Self.reference(1, params)))
    }
}
