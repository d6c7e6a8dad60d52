import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import Testing

/// `getVirtualChainFromBlockV2` (kaspa-node.md §5), pinned from both sides: the spec's example
/// answer read back member by member, the lower levels' nulls tolerated, and what we write
/// compared with golden JSON (every member present, nulls written). The simulated node's answers
/// are proven against the rusty-kaspa SDK in CI (`.ci/kaspa-node-sdk-check.py`).
@Suite("getVirtualChainFromBlockV2 frames (kaspa-node.md §5)")
struct VirtualChainFrameTests {
    static let block = "a170" + String(repeating: "0", count: 60)
    static let parent = "8d11" + String(repeating: "0", count: 60)
    static let spent = "d32a" + String(repeating: "0", count: 60)
    static let txid = "df57" + String(repeating: "0", count: 60)
    static let txHash = "df58" + String(repeating: "0", count: 60)
    static let root = String(repeating: "11", count: 32)
    static let script = "000020" + String(repeating: "ab", count: 32) + "ac"
    static let sender = "kaspatest:qzw9sender"
    static let signature = "41" + String(repeating: "cd", count: 64) + "01"
    static let payload = Hex.encode(Array("ciph_msg:1:comm:hi".utf8))

    /// The spec's High example, its elisions filled in.
    static let highExample = """
        {"removedChainBlockHashes":[],"addedChainBlockHashes":["\(block)"],
         "chainBlockAcceptedTransactions":[{"chainBlockHeader":{"hash":"\(block)","version":1,
           "parentsByLevel":[[1,["\(parent)"]]],"hashMerkleRoot":"\(root)","acceptedIdMerkleRoot":"\(root)",
           "utxoCommitment":null,"timestamp":1795686539426,"bits":486722099,"nonce":7,"daaScore":1000004,
           "blueWork":"3e9","blueScore":4,"pruningPoint":null},
          "acceptedTransactions":[{"version":null,"lockTime":null,"subnetworkId":null,"gas":null,
           "inputs":[{"previousOutpoint":{"transactionId":"\(spent)","index":1},"signatureScript":"\(signature)",
             "sequence":0,"sigOpCount":1,"computeBudget":0,"verboseData":{"utxoEntry":{"amount":994998000,
             "scriptPublicKey":"\(script)","blockDaaScore":null,"isCoinbase":false,"verboseData":{
             "scriptPublicKeyType":"PubKey","scriptPublicKeyAddress":"\(sender)"},"covenantId":null}}}],
           "outputs":[{"value":994979000,"scriptPublicKey":"\(script)","verboseData":{"scriptPublicKeyType":"PubKey",
             "scriptPublicKeyAddress":"\(sender)"},"covenant":null}],
           "payload":"\(payload)","storageMass":0,"mass":0,
           "verboseData":{"transactionId":"\(txid)","hash":"\(txHash)","computeMass":1638,
             "blockHash":"\(block)","blockTime":1795686539426}}]}]}
        """

    static func bytes(_ hex: String) throws -> [UInt8] { try Hex.decode(hex) }

    static func object(_ value: some Encodable) throws -> NSDictionary {
        let data = try JSONEncoder().encode(value)
        return try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    static func object(_ text: String) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test func readsTheSpecsHighExampleMemberByMember() throws {
        let response = try JSONDecoder().decode(
            RPCVirtualChainFromBlockResponse.self, from: Data(Self.highExample.utf8))
        #expect(response.removedChainBlockHashes.isEmpty)
        #expect(response.addedChainBlockHashes == [try Self.bytes(Self.block)])
        let entry = try #require(response.chainBlockAcceptedTransactions.first)

        let header = entry.chainBlockHeader
        #expect(header.hash == (try Self.bytes(Self.block)))
        #expect(header.version == 1)
        #expect(
            header.parentsByLevel == [
                RPCParentLevelRun(cumulativeLevelCount: 1, parents: [try Self.bytes(Self.parent)])
            ])
        #expect(header.hashMerkleRoot == (try Self.bytes(Self.root)))
        #expect(header.utxoCommitment == nil && header.pruningPoint == nil)
        #expect(header.timestamp == 1_795_686_539_426 && header.bits == 486_722_099 && header.nonce == 7)
        #expect(header.daaScore == 1_000_004 && header.blueScore == 4)
        #expect(header.blueWork?.hex == "3e9" && header.blueWork?.uint64Value == 1001)

        let transaction = try #require(entry.acceptedTransactions.first)
        #expect(transaction.version == nil && transaction.lockTime == nil)
        #expect(transaction.subnetworkId == nil && transaction.gas == nil)
        #expect(transaction.payload == Array("ciph_msg:1:comm:hi".utf8))
        #expect(transaction.mass == 0)
        let input = try #require(transaction.inputs.first)
        #expect(input.previousOutpoint == KaspaOutpoint(transactionID: try Self.bytes(Self.spent), index: 1))
        #expect(input.sequence == 0 && input.sigOpCount == 1 && input.computeBudget == 0)
        let utxo = try #require(input.verboseData?.utxoEntry)
        #expect(utxo.amount == 994_998_000 && utxo.blockDaaScore == nil && utxo.isCoinbase == false)
        #expect(utxo.verboseData?.scriptPublicKeyAddress == Self.sender)
        #expect(transaction.outputs.first?.verboseData?.scriptPublicKeyAddress == Self.sender)
        let verbose = try #require(transaction.verboseData)
        #expect(verbose.transactionId == (try Self.bytes(Self.txid)))
        #expect(verbose.computeMass == 1638)
        #expect(verbose.blockHash == (try Self.bytes(Self.block)) && verbose.blockTime == 1_795_686_539_426)
        // At High a transaction is whole but for its Full members, which default to version 0's.
        #expect(try transaction.kaspaTransaction { _ in nil }.payload == Array("ciph_msg:1:comm:hi".utf8))
    }

    @Test func toleratesWhatLowLeavesOutAndSaysWhatIsMissing() throws {
        let low = """
            {"version":null,"lockTime":null,"subnetworkId":null,"gas":null,
             "inputs":[{"previousOutpoint":null,"signatureScript":"\(Self.signature)","sequence":null,"sigOpCount":null,
               "computeBudget":null,"verboseData":{"utxoEntry":{"amount":null,"scriptPublicKey":null,"blockDaaScore":null,
               "isCoinbase":null,"verboseData":{"scriptPublicKeyType":"PubKey","scriptPublicKeyAddress":"\(Self.sender)"},
               "covenantId":null}}}],
             "outputs":[{"value":5,"scriptPublicKey":"\(Self.script)","verboseData":null,"covenant":null}],
             "payload":null,"storageMass":null,"mass":null,
             "verboseData":{"transactionId":"\(Self.txid)","hash":"\(Self.txHash)","computeMass":null,
               "blockHash":"\(Self.block)","blockTime":1}}
            """
        let transaction = try JSONDecoder().decode(RPCTransaction.self, from: Data(low.utf8))
        #expect(transaction.payload == nil && transaction.mass == nil)
        #expect(transaction.verboseData?.computeMass == nil)
        let input = try #require(transaction.inputs.first)
        #expect(input.previousOutpoint == nil && input.sequence == nil && input.sigOpCount == nil)
        #expect(input.computeBudget == nil)
        #expect(input.signatureScript.count == 66)
        #expect(input.verboseData?.utxoEntry?.verboseData?.scriptPublicKeyAddress == Self.sender)
        #expect(throws: RPCDecodingError.missing("payload")) { try transaction.kaspaTransaction { _ in nil } }

        // None: an empty shell.
        let none = try JSONDecoder().decode(
            RPCTransaction.self,
            from: Data(
                #"{"version":null,"inputs":[],"outputs":[],"lockTime":null,"subnetworkId":null,"gas":null,"payload":null,"storageMass":null,"mass":null,"verboseData":null}"#
                    .utf8))
        #expect(none.inputs.isEmpty && none.outputs.isEmpty && none.verboseData == nil)
    }

    @Test func aSubmissionWithALevelsNullsIsRefused() throws {
        let key = try PrivateKey(rawRepresentation: [UInt8](repeating: 0x11, count: 32))
        let builder = KaspaTransactionBuilder(key: key, network: .testnet)
        let utxo = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: Array(repeating: 0x36, count: 32), index: 0), amount: 100_000_000,
            scriptPublicKey: KaspaScriptPublicKey(address: builder.address))
        var transaction = RPCTransaction(try builder.build(.selfSpend(payload: []), utxos: [utxo]))
        let whole = try RPCFrame.request(
            id: 1, method: .submitTransaction, params: RPCSubmitTransaction(transaction: transaction))
        #expect(try RPCFrame.params(RPCSubmitTransaction.self, from: Data(whole.utf8)).transaction == transaction)

        transaction.inputs[0].sequence = nil
        let partial = try RPCFrame.request(
            id: 2, method: .submitTransaction, params: RPCSubmitTransaction(transaction: transaction))
        #expect(throws: RPCFrameError.self) { try RPCFrame.params(RPCSubmitTransaction.self, from: Data(partial.utf8)) }
    }

    @Test func writesEveryMemberWithNullsUnderTheLevel() throws {
        // Given a Low header and a Low transaction, as the simulated node builds them
        let block = try Self.bytes(Self.block)
        let header = RPCOptionalHeader(
            hash: block, version: 1, timestamp: 1000, bits: 7, nonce: 0, daaScore: 1_000_001,
            blueWork: RPCBlueWork(1001), blueScore: 1)
        let input = RPCTransactionInput(
            previousOutpoint: nil, signatureScript: [0x41], sequence: nil, sigOpCount: nil, computeBudget: nil,
            verboseData: RPCTransactionInputVerboseData(
                utxoEntry: RPCVerboseUtxoEntry(
                    amount: nil, scriptPublicKey: nil, blockDaaScore: nil, isCoinbase: nil,
                    verboseData: RPCScriptVerboseData(
                        scriptPublicKeyType: "PubKey", scriptPublicKeyAddress: Self.sender))))
        let transaction = RPCTransaction(
            version: nil, inputs: [input], outputs: [], lockTime: nil, subnetworkId: nil, gas: nil, payload: nil,
            mass: nil,
            verboseData: RPCTransactionVerboseData(
                transactionId: try Self.bytes(Self.txid), hash: try Self.bytes(Self.txHash), computeMass: nil,
                blockHash: block, blockTime: 1000))
        let response = RPCVirtualChainFromBlockResponse(
            removedChainBlockHashes: [try Self.bytes(Self.parent)], addedChainBlockHashes: [block],
            chainBlockAcceptedTransactions: [
                RPCChainBlockAcceptedTransactions(chainBlockHeader: header, acceptedTransactions: [transaction])
            ])

        // Then the JSON is the golden one, member for member
        let golden = """
            {"removedChainBlockHashes":["\(Self.parent)"],"addedChainBlockHashes":["\(Self.block)"],
             "chainBlockAcceptedTransactions":[{"chainBlockHeader":{"hash":"\(Self.block)","version":1,
               "parentsByLevel":null,"hashMerkleRoot":null,"acceptedIdMerkleRoot":null,"utxoCommitment":null,
               "timestamp":1000,"bits":7,"nonce":0,"daaScore":1000001,"blueWork":"0000000000000000000000000000000000000000000003e9",
               "blueScore":1,"pruningPoint":null},
              "acceptedTransactions":[{"version":null,"inputs":[{"previousOutpoint":null,"signatureScript":"41",
                "sequence":null,"sigOpCount":null,"computeBudget":null,"verboseData":{"utxoEntry":{"amount":null,
                "scriptPublicKey":null,"blockDaaScore":null,"isCoinbase":null,"verboseData":{"scriptPublicKeyType":"PubKey",
                "scriptPublicKeyAddress":"\(Self.sender)"},"covenantId":null}}}],"outputs":[],"lockTime":null,
                "subnetworkId":null,"gas":null,"payload":null,"storageMass":null,"mass":null,
                "verboseData":{"transactionId":"\(Self.txid)","hash":"\(Self.txHash)","computeMass":null,
                "blockHash":"\(Self.block)","blockTime":1000}}]}]}
            """
        #expect(try Self.object(response) == (try Self.object(golden)))
        // And it reads back as it was
        let data = try JSONEncoder().encode(response)
        #expect(try JSONDecoder().decode(RPCVirtualChainFromBlockResponse.self, from: data) == response)
    }

    @Test func theRequestWritesItsLevelAsAStringAndNullForNone() throws {
        let start = try Self.bytes(Self.block)
        let high = try RPCFrame.request(
            id: 4, method: .getVirtualChainFromBlockV2,
            params: RPCVirtualChainFromBlockRequest(startHash: start, dataVerbosityLevel: .high))
        #expect(
            try Self.object(high)["params"] as? NSDictionary
                == ["startHash": Self.block, "dataVerbosityLevel": "High", "minConfirmationCount": NSNull()])
        let unset = RPCVirtualChainFromBlockRequest(startHash: start, dataVerbosityLevel: nil, minConfirmationCount: 10)
        #expect(
            try Self.object(unset)
                == ["startHash": Self.block, "dataVerbosityLevel": NSNull(), "minConfirmationCount": 10])

        // A node reads a missing or null level as Full.
        let bare = try JSONDecoder().decode(
            RPCVirtualChainFromBlockRequest.self, from: Data(#"{"startHash":"\#(Self.block)"}"#.utf8))
        #expect(bare.level == .full && bare.minConfirmationCount == nil)
        let low = try JSONDecoder().decode(
            RPCVirtualChainFromBlockRequest.self,
            from: Data(#"{"startHash":"\#(Self.block)","dataVerbosityLevel":"Low","minConfirmationCount":3}"#.utf8))
        #expect(low.level == .low && low.minConfirmationCount == 3)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(RPCVirtualChainFromBlockRequest.self, from: Data(#"{"startHash":"ab"}"#.utf8))
        }
    }

    @Test func levelsAreOrderedAndSpelledAsTheNodeSpellsThem() {
        #expect(RPCDataVerbosityLevel.allCases == [.none, .low, .high, .full])
        #expect(RPCDataVerbosityLevel.allCases.map(\.rawValue) == ["None", "Low", "High", "Full"])
        #expect(RPCDataVerbosityLevel.allCases.sorted() == RPCDataVerbosityLevel.allCases)
    }

    @Test(
        "blue work reads as hex without leading zeros, up to 192 bits",
        arguments: [
            ("3e9", "3e9"), ("0003E9", "3e9"), ("0", "0"), ("000", "0"),
            (String(repeating: "f", count: 48), String(repeating: "f", count: 48)),
            (String(repeating: "0", count: 47) + "1", "1"),
        ])
    func blueWork(text: String, canonical: String) throws {
        #expect(try RPCBlueWork(hex: text).hex == canonical)
    }

    @Test(
        "blue work that is not a hex number of 192 bits is refused",
        arguments: ["", "xyz", "0x1", "1" + String(repeating: "0", count: 48)])
    func badBlueWork(text: String) {
        #expect(throws: RPCDecodingError.self) { try RPCBlueWork(hex: text) }
    }
}
