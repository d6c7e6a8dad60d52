import KaspaRPC
import KaspaTransaction
import TandemBasics

/// A chain page at level None as a real node writes it (kaspa-node.md §11; rusty-kaspa's
/// `RpcOptionalTransaction` under a None verbosity): each accepted transaction keeps its inputs
/// and outputs, one object each with every member `null`, and a verbose-data object of `null`s;
/// the members §11 names (`subnetworkId`, `gas`, `payload`, the masses) are present. A reader that
/// decodes such a page as a High one fails on it, as it would on a real node: Tandem reads only
/// the block hashes of a None page (``KaspaNodeClient/virtualChainHashes(from:)``).
struct NoneLevelChainPage: Encodable, Sendable {
    let answer: RPCVirtualChainFromBlockResponse
    /// The input and output counts of each accepted transaction, block by block.
    let shapes: [[(inputs: Int, outputs: Int)]]

    private enum Keys: String, CodingKey {
        case removedChainBlockHashes, addedChainBlockHashes, chainBlockAcceptedTransactions
    }

    func encode(to encoder: any Encoder) throws {
        var page = encoder.container(keyedBy: Keys.self)
        try page.encode(answer.removedChainBlockHashes.map { Hex.encode($0) }, forKey: .removedChainBlockHashes)
        try page.encode(answer.addedChainBlockHashes.map { Hex.encode($0) }, forKey: .addedChainBlockHashes)
        let blocks = zip(answer.chainBlockAcceptedTransactions, shapes).map { block, shapes in
            Block(
                header: block.chainBlockHeader,
                transactions: zip(block.acceptedTransactions, shapes).map { Transaction($0, $1) })
        }
        try page.encode(blocks, forKey: .chainBlockAcceptedTransactions)
    }

    struct Block: Encodable, Sendable {
        let header: RPCOptionalHeader
        let transactions: [Transaction]

        private enum Keys: String, CodingKey { case chainBlockHeader, acceptedTransactions }

        func encode(to encoder: any Encoder) throws {
            var block = encoder.container(keyedBy: Keys.self)
            try block.encode(header, forKey: .chainBlockHeader)
            try block.encode(transactions, forKey: .acceptedTransactions)
        }
    }

    struct Transaction: Encodable, Sendable {
        let transaction: RPCTransaction
        let inputs: Int
        let outputs: Int

        init(_ transaction: RPCTransaction, _ shape: (inputs: Int, outputs: Int)) {
            self.transaction = transaction
            inputs = shape.inputs
            outputs = shape.outputs
        }

        private enum Keys: String, CodingKey {
            case version, inputs, outputs, lockTime, subnetworkId, gas, payload, storageMass, mass, verboseData
        }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: Keys.self)
            try object.encodeNil(forKey: .version)
            try object.encode(Array(repeating: NullMembers.input, count: inputs), forKey: .inputs)
            try object.encode(Array(repeating: NullMembers.output, count: outputs), forKey: .outputs)
            try object.encodeNil(forKey: .lockTime)
            try object.encode(transaction.subnetworkId.map { Hex.encode($0) }, forKey: .subnetworkId)
            try object.encode(transaction.gas, forKey: .gas)
            try object.encode(transaction.payload.map { Hex.encode($0) }, forKey: .payload)
            try object.encode(transaction.mass, forKey: .storageMass)
            try object.encode(transaction.mass, forKey: .mass)
            try object.encode(NullMembers.transactionVerboseData, forKey: .verboseData)
        }
    }

    /// An object of the given members, each `null`, or holding the given nested objects.
    struct NullMembers: Encodable, Sendable {
        let names: [String]
        let nested: [(String, NullMembers)]

        static let scriptVerboseData = NullMembers(
            names: ["scriptPublicKeyType", "scriptPublicKeyAddress"], nested: [])
        static let input = NullMembers(
            names: ["previousOutpoint", "signatureScript", "sequence", "sigOpCount", "computeBudget"],
            nested: [
                (
                    "verboseData",
                    NullMembers(
                        names: [],
                        nested: [
                            (
                                "utxoEntry",
                                NullMembers(
                                    names: ["amount", "scriptPublicKey", "blockDaaScore", "isCoinbase", "covenantId"],
                                    nested: [("verboseData", scriptVerboseData)])
                            )
                        ])
                )
            ])
        static let output = NullMembers(
            names: ["value", "scriptPublicKey", "covenant"], nested: [("verboseData", scriptVerboseData)])
        static let transactionVerboseData = NullMembers(
            names: ["transactionId", "hash", "computeMass", "blockHash", "blockTime"], nested: [])

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: Key.self)
            for name in names { try object.encodeNil(forKey: Key(stringValue: name)) }
            for (name, value) in nested { try object.encode(value, forKey: Key(stringValue: name)) }
        }
    }
}
