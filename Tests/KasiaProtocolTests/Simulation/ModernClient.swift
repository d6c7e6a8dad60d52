import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// Our client: routing state decides every alias; the cipher and codecs do the rest.
final class ModernClient: SimulatedPeer {
    let key: PrivateKey
    let address: KaspaAddress
    var table = RoutingTable()
    var policy: RoutingPolicy
    var nowMs: UInt64 = 1_000
    private(set) var inbox: [KaspaAddress: [String]] = [:]
    /// Composer results seen, for assertions.
    private(set) var composerLog: [ComposerState] = []
    private var cursor = 0

    init(key: PrivateKey = .generate(), policy: RoutingPolicy = .init(stage: .a)) {
        self.key = key
        self.address = KaspaAddress(publicKey: key.xOnlyPublicKey)
        self.policy = policy
    }

    func state(for peer: KaspaAddress) throws -> ConversationRoutingState {
        if let state = table[peer] { return state }
        let state = try ConversationRoutingState(contact: peer, privateKey: key, now: UnixMillis(Int64(nowMs)))
        table[peer] = state
        return state
    }

    func sendHandshake(to peer: KaspaAddress, on chain: SimulatedChain, isResponse: Bool) throws {
        var state = try state(for: peer)
        let payload = state.handshake(
            policy: policy, isResponse: isResponse, timestampMs: Int64(nowMs), conversationID: nil)
        try chain.submitHandshake(try payload.jsonText, from: address, to: peer)
        state.recordHandshakeSent(payload)
        table[peer] = state
    }

    /// Follows the composer: announces the alias first when asked, refuses on a warning
    /// unless `force` (the user accepted it).
    func send(_ text: String, to peer: KaspaAddress, on chain: SimulatedChain) throws -> Bool {
        try send(text, to: peer, on: chain, force: false)
    }

    func send(_ text: String, to peer: KaspaAddress, on chain: SimulatedChain, force: Bool) throws -> Bool {
        let composer = try state(for: peer).composerState(policy: policy)
        composerLog.append(composer)
        let alias: Alias
        switch composer {
        case .ready(let ready): alias = ready
        case .needsHandshake:
            try sendHandshake(to: peer, on: chain, isResponse: false)
            guard case .ready(let ready) = try state(for: peer).composerState(policy: policy) else { return false }
            alias = ready
        case .warning(_, let warned):
            guard force else { return false }
            alias = warned
        }
        try chain.submitMessage(text, alias: alias, from: address, to: peer)
        return true
    }

    func poll(_ chain: SimulatedChain) throws {
        for tx in chain.read(after: &cursor) {
            if let plaintext = handshakePlaintext(tx, key: key, me: address),
                let handshake = try? HandshakePayload(decoding: plaintext)
            {
                var state = try state(for: tx.sender)
                state.receiveHandshake(handshake, at: UnixMillis(Int64(nowMs)), policy: policy)
                table[tx.sender] = state
                continue
            }
            guard tx.sender != address, var state = table[tx.sender],
                case .contextualMessage(let alias, _, _)? = try? KasiaPayload(parsing: tx.payload),
                state.incomingAliases(policy: policy, now: UnixMillis(Int64(nowMs))).contains(alias),
                let message = contextualMessage(tx, key: key)
            else { continue }
            if state.receiveMessage(on: alias, at: UnixMillis(Int64(nowMs)), policy: policy) != .ignored {
                inbox[tx.sender, default: []].append(message.text)
            }
            table[tx.sender] = state
        }
    }
}
