import Foundation
import KasiaProtocol
import KaspaCrypto

/// The Kasia web deterministic branch (seed 000 §1): derives both aliases from keys, sends
/// alias-less `version: 1` handshakes, rejects versions above 1, sends with `theirAlias` and
/// watches only `myAlias`.
final class WebDeterministicPeer: SimulatedPeer {
    let key = PrivateKey.generate()
    let address: KaspaAddress
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    private(set) var contacts: Set<KaspaAddress> = []
    private(set) var rejectedHandshakes = 0
    private var cursor = 0

    init() { address = KaspaAddress(publicKey: key.xOnlyPublicKey) }

    func pair(_ peer: KaspaAddress) throws -> AliasPair { try AliasPair(privateKey: key, peer: peer) }

    func sendHandshake(to peer: KaspaAddress, on chain: SimulatedChain, isResponse: Bool) throws {
        contacts.insert(peer)
        let text =
            isResponse
            ? #"{"type":"handshake","timestamp":1735689600000,"version":1,"isResponse":true}"#
            : #"{"type":"handshake","timestamp":1735689600000,"version":1}"#
        try chain.submitHandshake(text, from: address, to: peer)
    }

    func send(_ text: String, to peer: KaspaAddress, on chain: SimulatedChain) throws -> Bool {
        contacts.insert(peer)
        try chain.submitMessage(text, alias: try pair(peer).theirAlias, from: address, to: peer)
        return true
    }

    func poll(_ chain: SimulatedChain) throws {
        for tx in chain.read(after: &cursor) {
            if let plaintext = handshakePlaintext(tx, key: key, me: address) {
                let version =
                    ((try? JSONSerialization.jsonObject(with: Data(plaintext.utf8))) as? [String: Any])?["version"]
                    as? Int
                guard let version, version <= 1 else {
                    rejectedHandshakes += 1
                    continue
                }
                contacts.insert(tx.sender)
                continue
            }
            guard contacts.contains(tx.sender), let message = contextualMessage(tx, key: key),
                message.alias == (try pair(tx.sender)).myAlias
            else { continue }
            inbox[tx.sender, default: []].append(message.text)
        }
    }
}
