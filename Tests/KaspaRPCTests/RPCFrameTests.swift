import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics
import Testing

/// The wRPC JSON frames of kaspa-node.md §2–§4, pinned from both sides: what we write, byte for
/// byte, and what a node writes, read back. (The simulated node's frames are proven against the
/// rusty-kaspa SDK in CI: `.ci/kaspa-node-sdk-check.py`.)
@Suite("wRPC JSON frames (issue 24)")
struct RPCFrameTests {
    static let key = try? PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")

    static func object(_ text: String) throws -> NSDictionary {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSDictionary)
    }

    @Test("a request is {id, method, params} with no jsonrpc member, and {} for no params")
    func requestShape() throws {
        let frame = try RPCFrame.request(id: 7, method: .getServerInfo, params: RPCEmpty())
        #expect(try Self.object(frame) == ["id": 7, "method": "getServerInfo", "params": [:] as NSDictionary])
    }

    @Test("subscriptions wrap their scope in its PascalCase name")
    func subscriptionScopes() throws {
        let key = try #require(Self.key)
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let utxos = try RPCFrame.request(
            id: 8, method: .subscribe, params: RPCSubscription.utxosChanged(addresses: [address]))
        #expect(
            try Self.object(utxos)
                == [
                    "id": 8, "method": "subscribe",
                    "params": ["UtxosChanged": ["addresses": [address.description]]] as NSDictionary,
                ])
        let daa = try RPCFrame.request(id: 9, method: .subscribe, params: RPCSubscription.virtualDaaScoreChanged)
        #expect(
            try Self.object(daa)
                == [
                    "id": 9, "method": "subscribe",
                    "params": ["VirtualDaaScoreChanged": [:] as NSDictionary] as NSDictionary,
                ])
    }

    @Test("a submitted transaction has every member of the SDK's, script keys as version-prefixed hex")
    func submitShape() throws {
        let key = try #require(Self.key)
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let script = KaspaScriptPublicKey(address: address)
        let utxo = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: Array(repeating: 0x36, count: 32), index: 0), amount: 100_000_000,
            scriptPublicKey: script)
        let transaction = try KaspaTransactionBuilder(key: key, network: .testnet).build(
            .selfSpend(payload: Array("ciph_msg:1:comm:".utf8)), utxos: [utxo])
        let frame = try RPCFrame.request(
            id: 1, method: .submitTransaction, params: RPCSubmitTransaction(transaction: RPCTransaction(transaction)))
        let params = try #require(try Self.object(frame)["params"] as? NSDictionary)
        #expect(params["allowOrphan"] as? Bool == false)
        let tx = try #require(params["transaction"] as? NSDictionary)
        #expect(
            Set(tx.allKeys.compactMap { $0 as? String })
                == [
                    "version", "inputs", "outputs", "lockTime", "subnetworkId", "gas", "payload", "mass", "storageMass",
                    "verboseData",
                ])
        #expect(tx["verboseData"] is NSNull)
        #expect(tx["subnetworkId"] as? String == String(repeating: "0", count: 40))
        #expect(tx["payload"] as? String == Hex.encode(Array("ciph_msg:1:comm:".utf8)))
        let input = try #require((tx["inputs"] as? [NSDictionary])?.first)
        #expect(
            Set(input.allKeys.compactMap { $0 as? String })
                == ["previousOutpoint", "signatureScript", "sequence", "sigOpCount", "computeBudget", "verboseData"])
        #expect((input["signatureScript"] as? String)?.count == 132)
        let output = try #require((tx["outputs"] as? [NSDictionary])?.first)
        #expect(output["scriptPublicKey"] as? String == "0000" + Hex.encode(script.script))
        #expect(output["covenant"] is NSNull)
        #expect(output["verboseData"] is NSNull)
    }

    @Test("answers are matched by id, ids above 2^53 stay exact, errors keep the node's text")
    func inboundFrames() throws {
        let answer = #"{"id":15041378495087255755,"method":"ping","params":{}}"#
        guard case .response(let id, let method, let data) = try RPCFrame.inbound(Data(answer.utf8)) else {
            Issue.record("not a response")
            return
        }
        #expect(id == 15_041_378_495_087_255_755)
        #expect(method == "ping")
        _ = try RPCFrame.params(RPCEmpty.self, from: data)
        let text = "Rejected transaction ab: transaction ab is an orphan where orphan is disallowed"
        let error = #"{"id":3,"method":"submitTransaction","error":{"code":0,"message":"\#(text)","data":null}}"#
        #expect(try RPCFrame.inbound(Data(error.utf8)) == .error(id: 3, method: "submitTransaction", message: text))
    }

    @Test("notifications decode from their scope wrapper; unknown ones are named, not fatal")
    func notifications() throws {
        let key = try #require(Self.key)
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let script = "0000" + Hex.encode(KaspaScriptPublicKey(address: address).script)
        let txid = String(repeating: "ab", count: 32)
        let frame = """
            {"method":"utxosChangedNotification","params":{"UtxosChanged":{"added":[{"address":"\(address)",\
            "outpoint":{"transactionId":"\(txid)","index":1},"utxoEntry":{"amount":994979000,"scriptPublicKey":"\(script)",\
            "blockDaaScore":1000004,"isCoinbase":false,"covenantId":null}}],"removed":[]}}}
            """
        guard case .notification(.utxosChanged(let change)) = try RPCFrame.inbound(Data(frame.utf8)) else {
            Issue.record("not a UtxosChanged notification")
            return
        }
        #expect(change.removed.isEmpty)
        let entry = try #require(change.added.first)
        #expect(entry.address == address)
        #expect(entry.kaspaEntry.amount == 994_979_000)
        #expect(entry.kaspaEntry.blockDAAScore == 1_000_004)
        #expect(entry.kaspaEntry.scriptPublicKey == KaspaScriptPublicKey(address: address))
        #expect(entry.outpoint == KaspaOutpoint(transactionID: Array(repeating: 0xab, count: 32), index: 1))

        let daa =
            #"{"method":"virtualDaaScoreChangedNotification","params":{"VirtualDaaScoreChanged":{"virtualDaaScore":1235}}}"#
        #expect(
            try RPCFrame.inbound(Data(daa.utf8)) == .notification(.virtualDaaScoreChanged(.init(virtualDaaScore: 1235)))
        )
        let other = #"{"method":"blockAddedNotification","params":{"BlockAdded":{}}}"#
        #expect(try RPCFrame.inbound(Data(other.utf8)) == .notification(.other(method: "blockAddedNotification")))
    }

    @Test(
        "malformed frames are typed errors, never a crash",
        arguments: [
            "", "[]", "{}", #"{"id":"1","method":"ping"}"#, #"{"id":-1,"method":"ping"}"#,
            #"{"method":"utxosChangedNotification","params":{"UtxosChanged":{"added":[{}]}}}"#,
            #"{"id":1,"method":"x","error":{"code":0}}"#, "\u{0}",
        ])
    func malformedFrames(text: String) {
        #expect(throws: RPCFrameError.self) { try RPCFrame.inbound(Data(text.utf8)) }
    }

    @Test("a node's answer reads back through the same models it was written with")
    func roundTripAnswers() throws {
        let info = RPCServerInfo(
            serverVersion: "2.0.1", networkId: .testnet10, hasUtxoIndex: true, isSynced: true, virtualDaaScore: 42)
        let frame = try RPCFrame.response(id: 5, method: "getServerInfo", params: info)
        #expect(
            try Self.object(frame)["params"] as? NSDictionary
                == [
                    "rpcApiVersion": 1, "rpcApiRevision": 0, "serverVersion": "2.0.1", "networkId": "testnet-10",
                    "hasUtxoIndex": true, "isSynced": true, "virtualDaaScore": 42,
                ])
        #expect(try RPCFrame.params(RPCServerInfo.self, from: Data(frame.utf8)) == info)
    }

    @Test(
        "network ids read as the node writes them",
        arguments: [
            ("mainnet", true), ("testnet-10", true), ("testnet-11", true), ("simnet", true), ("devnet", true),
            ("testnet", false), ("testnet-", false), ("testnet-010", false), ("Mainnet", false), ("", false),
        ])
    func networkIDs(text: String, valid: Bool) {
        #expect((KaspaNetworkID(text)?.description == text) == valid)
    }
}
