import Foundation
import KasiaIndex
import KasiaProtocol
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemAPI
import TandemBasics
import Testing

/// The one kasia-indexer model (issue 43 item 7): which node transaction becomes which row, the
/// row's bytes as kasia-indexer writes them, and the client's `Indexer*` types reading those bytes
/// back; the server's `/kasia` routes, the simulated node's indexer and the Kaspa chat transport
/// all go through it.
@Suite struct KasiaIndexRowTests {
    static let sender = KaspaAddress(
        publicKey: (try? PrivateKey(rawRepresentation: [UInt8](repeating: 3, count: 32)))!.xOnlyPublicKey,
        network: .testnet)
    static let receiver = KaspaAddress(
        publicKey: (try? PrivateKey(rawRepresentation: [UInt8](repeating: 4, count: 32)))!.xOnlyPublicKey,
        network: .testnet)
    static let block = String(repeating: "e", count: 64)
    static let txID = String(repeating: "cd", count: 32)

    /// A transaction as a chain walk at High shows it: `payload`, the sender's spent entry (when
    /// `senderText` is given) and one output to the receiver.
    static func transaction(_ payload: String, senderText: String? = sender.description, blockTime: UInt64 = 1_234)
        -> RPCTransaction
    {
        let input = RPCTransactionInput(
            previousOutpoint: nil, signatureScript: [0x41] + [UInt8](repeating: 0xab, count: 64) + [0x01],
            sequence: nil, sigOpCount: nil,
            verboseData: senderText.map { text in
                RPCTransactionInputVerboseData(
                    utxoEntry: RPCVerboseUtxoEntry(
                        amount: nil, scriptPublicKey: nil, blockDaaScore: nil, isCoinbase: nil,
                        verboseData: RPCScriptVerboseData(scriptPublicKeyType: "PubKey", scriptPublicKeyAddress: text)))
            })
        return RPCTransaction(
            version: nil, inputs: [input],
            outputs: [
                RPCTransactionOutput(value: 20_000_000, scriptPublicKey: KaspaScriptPublicKey(address: receiver))
            ],
            lockTime: nil, subnetworkId: nil, gas: nil, payload: Array(payload.utf8), mass: nil,
            verboseData: RPCTransactionVerboseData(
                transactionId: [UInt8](repeating: 0xcd, count: 32), hash: [], computeMass: nil, blockHash: [],
                blockTime: blockTime))
    }

    static func row(_ transaction: RPCTransaction) throws -> KasiaIndexRow {
        try #require(
            KasiaIndexRow(
                transaction: transaction, fallbackTime: 99,
                acceptance: KasiaIndexRow.Acceptance(block: block, daaScore: 9), network: .testnet))
    }

    static func json(_ row: KasiaIndexRow, _ presentation: KasiaIndexPresentation = .stored, root: Bool = false)
        -> String
    {
        var out: [UInt8] = []
        row.writeJSON(into: &out, presentation: presentation, includingRoot: root)
        return String(decoding: out, as: UTF8.self)
    }

    @Test func aHandshakeIsWrittenInTheIndexersOrderAndReadBackByTheClient() throws {
        let row = try Self.row(Self.transaction("kchat:1:handshake:xy"))
        #expect(row.kind == .handshake && row.root == .kchat)
        #expect(row.sender == Self.sender.description && row.receiver == Self.receiver.description)
        #expect(row.amount == 20_000_000 && row.blockTime == 1_234 && row.body == Array("xy".utf8))
        let expected =
            #"{"tx_id":"\#(Self.txID)","sender":"\#(Self.sender)","receiver":"\#(Self.receiver)","block_time":1234,"#
            + #""accepting_block":"\#(Self.block)","accepting_daa_score":9,"message_payload":"7879"}"#
        #expect(Self.json(row) == expected)
        // A Tandem server adds its own member last.
        let withRoot = Self.json(row, root: true)
        #expect(withRoot == expected.dropLast() + #","root":"kchat"}"#)
        let read = try JSONDecoder().decode(IndexerHandshake.self, from: Data(withRoot.utf8))
        #expect(read.txID == row.txID && read.sender == row.sender && read.receiver == row.receiver)
        #expect(read.blockTime == row.blockTime && read.acceptingBlock == Self.block && read.acceptingDAAScore == 9)
        #expect(read.messagePayload == "7879" && read.root == "kchat")
    }

    @Test func eachKindKeepsItsKeyAndBodyAndTheClientReadsIt() throws {
        let message = try Self.row(Self.transaction("ciph_msg:1:comm:ABC:x:y"))
        #expect(message.kind == .contextualMessage && message.tag == "414243" && message.receiver == nil)
        #expect(message.amount == 0)
        let comm = try JSONDecoder().decode(IndexerContextualMessage.self, from: Data(Self.json(message).utf8))
        #expect(comm.alias == "414243" && comm.messagePayload == Hex.encode(Array("x:y".utf8)))

        let payment = try Self.row(Self.transaction("kchat:1:pay:zz"))
        #expect(payment.kind == .payment && payment.amount == 20_000_000)
        let paid = try JSONDecoder().decode(IndexerPayment.self, from: Data(Self.json(payment).utf8))
        #expect(paid.sender == Self.sender.description && paid.amount == 20_000_000 && paid.message == "7a7a")

        let stash = try Self.row(Self.transaction("ciph_msg:1:self_stash:sc:data"))
        #expect(stash.kind == .selfStash && stash.tag == "7363")
        let stashed = try JSONDecoder().decode(IndexerSelfStash.self, from: Data(Self.json(stash).utf8))
        #expect(stashed.owner == Self.sender.description && stashed.scope == "7363")

        // Broadcasts and what is not Kasia are not indexed.
        for payload in ["ciph_msg:1:bcast:news:hi", "hello", "kchat:"] {
            #expect(
                KasiaIndexRow(
                    transaction: Self.transaction(payload), fallbackTime: 0, acceptance: nil, network: .testnet) == nil)
        }
    }

    /// kasia-indexer's unresolved sender: `""` on handshakes and contextual messages, `null` on
    /// payments and self-stashes; a row not accepted yet has `null` acceptance members; a
    /// transaction without its including block's time takes the fallback.
    @Test func anUnknownSenderAndAnUnacceptedRowAreWrittenAsTheIndexerWritesThem() throws {
        func bare(_ payload: String) throws -> KasiaIndexRow {
            try #require(
                KasiaIndexRow(
                    transaction: Self.transaction(payload, senderText: nil, blockTime: 0), fallbackTime: 77,
                    acceptance: nil, network: .testnet))
        }
        let handshake = try bare("ciph_msg:1:handshake:xy")
        #expect(handshake.sender == nil && handshake.blockTime == 77)
        #expect(Self.json(handshake).contains(#""sender":"","#))
        #expect(Self.json(handshake).contains(#""accepting_block":null,"accepting_daa_score":null"#))
        let payment = try bare("ciph_msg:1:payment:zz")
        #expect(Self.json(payment).contains(#""sender":null,"#))
        #expect(try JSONDecoder().decode(IndexerPayment.self, from: Data(Self.json(payment).utf8)).sender == nil)
        let stash = try bare("ciph_msg:1:self_stash:data")
        #expect(Self.json(stash).contains(#""owner":null,"#))
        #expect(try JSONDecoder().decode(IndexerSelfStash.self, from: Data(Self.json(stash).utf8)).owner == "")
        // A mempool entry listed under its address names the sender the transaction does not.
        let named = try #require(
            KasiaIndexRow(
                transaction: Self.transaction("ciph_msg:1:comm:ab:x", senderText: nil), fallbackTime: 0,
                acceptance: nil, network: .testnet, knownSender: Self.sender))
        #expect(named.sender == Self.sender.description)
    }

    /// What a lying node says is checked before it is kept (issue 50 item 4): a sender or receiver
    /// that is not an address of the network, or a payload larger than the relay takes, makes no
    /// row, on the server and in the client alike (both read through this model).
    @Test func aNodesNonAddressesAndOversizedPayloadsMakeNoRow() throws {
        func kept(_ transaction: RPCTransaction) -> Bool {
            KasiaIndexRow(transaction: transaction, fallbackTime: 0, acceptance: nil, network: .testnet) != nil
        }
        for hostile in [#"kaspa:"},{"tx_id":"ff\#n"#, "<script>alert(1)</script>", "kaspatest:nope"] {
            #expect(!kept(Self.transaction("ciph_msg:1:handshake:xy", senderText: hostile)), "\(hostile)")
        }
        // An address of another network is not this chain's sender.
        let key = try PrivateKey(rawRepresentation: [UInt8](repeating: 3, count: 32))
        let mainnet = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .mainnet)
        #expect(!kept(Self.transaction("ciph_msg:1:comm:ab:x", senderText: mainnet.description)))
        // The receiver a node names is checked too.
        var toNowhere = Self.transaction("kchat:1:pay:zz")
        toNowhere.outputs[0].verboseData = RPCScriptVerboseData(
            scriptPublicKeyType: "PubKey", scriptPublicKeyAddress: "<b>bob</b>")
        #expect(!kept(toNowhere))
        // The relay's payload limit, to the byte.
        let prefix = "ciph_msg:1:comm:ab:"
        let largest = prefix + String(repeating: "x", count: KasiaIndexRow.maximumPayloadBytes - prefix.utf8.count)
        #expect(kept(Self.transaction(largest)))
        #expect(!kept(Self.transaction(largest + "x")))
    }

    /// A route's request, as the server and the simulated node both read it: the echoed texts,
    /// the selection's bytes whatever the hex case, and kasia-indexer's refusal texts.
    @Test func aRequestIsReadOnceForBothServers() throws {
        let comm = try KasiaIndexRequest(
            .contextualMessagesBySender, parameters: ["address": Self.sender.description, "alias": "4142AB"])
        #expect(comm.selection == .contextualMessagesBySender(Self.sender, alias: [0x41, 0x42, 0xab]))
        #expect(comm.presentation.aliasEcho == "4142AB")
        #expect(comm.limit == 10 && comm.blockTime == 0)
        let paid = try KasiaIndexRequest(
            .paymentsBySender, parameters: ["address": Self.sender.description, "limit": "500", "block_time": "7"])
        #expect(paid.presentation.paymentSenderEcho == Self.sender.description)
        #expect(paid.limit == 50 && paid.blockTime == 7)
        func refusal(_ route: KasiaIndexRoute, _ parameters: [String: String]) -> String? {
            do {
                _ = try KasiaIndexRequest(route, parameters: parameters)
                return nil
            } catch { return error.description }
        }
        #expect(
            refusal(.selfStashByOwner, ["owner": Self.sender.description])
                == "Failed to deserialize query string: missing field `scope`")
        #expect(
            refusal(
                .contextualMessagesBySender,
                ["address": Self.sender.description, "alias": String(repeating: "ab", count: 17)])
                == "Alias hex length cannot exceed 32 characters")
        #expect(refusal(.handshakesByReceiver, ["address": "kaspa:nope"])?.hasPrefix("Invalid address: ") == true)
        #expect(refusal(.handshakesByReceiver, ["address": Self.sender.description, "limit": "ten"]) != nil)
        #expect(
            refusal(.contextualMessagesBySender, ["address": Self.sender.description, "alias": "zz"])?
                .hasPrefix("Invalid alias hex") == true)
    }
}
