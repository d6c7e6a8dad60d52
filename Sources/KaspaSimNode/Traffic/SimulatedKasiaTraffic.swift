public import KasiaProtocol
public import KaspaCrypto
import KaspaRPC
public import KaspaTransaction

/// Deterministic Kasia traffic on a simulated node, for the chain index's tests and benchmarks
/// (issue 25): `senders` wallets with fixed keys, each spending its own change in a chain of
/// signed transactions whose payloads rotate through every kind kasia-indexer keeps — contextual
/// messages under three aliases, handshakes, web payments, self-stashes, legacy handshakes and
/// KaChat's `pay:` — and one it skips (a payload that is not Kasia). Every third transaction is
/// written under KaChat's `kchat:` root, the others under `ciph_msg:` (kasia-protocol §16).
///
/// No randomness: keys, aliases and sealed bytes all derive from the sender's and the
/// transaction's numbers, so a run makes the same chain every time.
public struct SimulatedKasiaTraffic: Sendable {
    struct Sender: Sendable {
        let builder: KaspaTransactionBuilder
        var coin: KaspaUtxoEntry
    }

    private var senders: [Sender]
    public private(set) var sent = 0
    /// Each sender's funding, in sompi.
    public static let funding: UInt64 = 10_000 * 100_000_000
    /// The fee of every transaction: far above the node's floor for these sizes.
    public static let fee: UInt64 = 1_000_000
    /// What a handshake or payment sends its receiver.
    public static let gift: UInt64 = 100_000_000
    /// How many kinds of transaction the rotation holds.
    public static let kinds = 8

    /// The senders' addresses, in order.
    public var addresses: [KaspaAddress] { senders.map(\.builder.address) }

    /// The aliases sender `index` writes under (12 hex characters each).
    public static func aliases(sender index: Int) -> [String] {
        (0..<3).map { String(format: "%06x%06x", index & 0xFF_FFFF, $0 + 0xa1) }
    }

    /// Funds `count` senders on `node` (one block each).
    public static func funded(on node: SimulatedKaspaNode, senders count: Int, seed: UInt8 = 1) async throws
        -> SimulatedKasiaTraffic
    {
        let network = await node.network.network
        var senders: [Sender] = []
        for index in 0..<count {
            var raw = [UInt8](repeating: seed, count: 32)
            raw[0] = 0x5e
            raw[30] = UInt8(truncatingIfNeeded: index >> 8)
            raw[31] = UInt8(truncatingIfNeeded: index)
            let builder = KaspaTransactionBuilder(key: try PrivateKey(rawRepresentation: raw), network: network)
            let id = try await node.fund(builder.address, amount: funding)
            let coin = KaspaUtxoEntry(
                outpoint: KaspaOutpoint(transactionID: id, index: 0), amount: funding,
                scriptPublicKey: KaspaScriptPublicKey(address: builder.address))
            senders.append(Sender(builder: builder, coin: coin))
        }
        return SimulatedKasiaTraffic(senders: senders)
    }

    /// Each sender submits one transaction per round, `rounds` times; a block is mined after
    /// every `roundsPerBlock` rounds (and after the last). Answers the transactions' ids.
    @discardableResult
    public mutating func send(rounds: Int, roundsPerBlock: Int = 1, on node: SimulatedKaspaNode) async throws
        -> [[UInt8]]
    {
        var ids: [[UInt8]] = []
        for round in 0..<rounds {
            for index in senders.indices {
                let transaction = try next(sender: index)
                ids.append(try await node.submit(RPCTransaction(transaction)))
            }
            if (round + 1) % max(roundsPerBlock, 1) == 0 || round == rounds - 1 { await node.mine() }
        }
        return ids
    }

    /// Sender `index`'s next transaction, signed, with its change kept as the next coin.
    public mutating func next(sender index: Int) throws -> KaspaTransaction {
        let number = sent
        sent += 1
        let sender = senders[index]
        let receiver = senders[(index + 1) % senders.count].builder.address
        let payload = Self.payload(number, sender: index)
        let pays = Self.paysReceiver(number)
        var outputs: [KaspaTransactionOutput] = []
        if pays { outputs.append(KaspaTransactionOutput(value: Self.gift, scriptPublicKey: .init(address: receiver))) }
        let change = sender.coin.amount - Self.fee - (pays ? Self.gift : 0)
        outputs.append(KaspaTransactionOutput(value: change, scriptPublicKey: .init(address: sender.builder.address)))
        let unsigned = KaspaTransaction(
            inputs: [KaspaTransactionInput(spending: sender.coin)], outputs: outputs, payload: payload)
        let signed = try sender.builder.sign(unsigned)
        senders[index].coin = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: signed.id, index: UInt32(outputs.count - 1)), amount: change,
            scriptPublicKey: KaspaScriptPublicKey(address: sender.builder.address))
        return signed
    }

    /// Whether transaction `number` pays the next sender (handshakes, payments, legacy).
    static func paysReceiver(_ number: Int) -> Bool { [3, 4, 6].contains(number % kinds) }

    /// The payload of transaction `number` by sender `sender`.
    public static func payload(_ number: Int, sender: Int) -> [UInt8] {
        let sealed = filler(number, count: 48 + number % 40)
        let root = root(number)
        switch number % kinds {
        case 0, 1, 2:
            let alias = aliases(sender: sender)[number % 3]
            guard let parsed = try? Alias(alias) else { return sealed }
            return KasiaPayload.contextualMessage(alias: parsed, sealed: sealed, encoding: .base64).encoded(root: root)
        case 3: return KasiaPayload.handshake(sealed: sealed).encoded(root: root)
        case 4: return KasiaPayload.payment(sealed: sealed, form: .web(.binary)).encoded(root: root)
        case 5: return KasiaPayload.selfStash(scope: "saved_handshake", sealed: sealed).encoded(root: root)
        case 6: return KasiaPayload.legacy(sealed: sealed).encoded(root: root)
        default:
            return number / kinds % 2 == 0
                ? KasiaPayload.payment(sealed: sealed, form: .kachat).encoded(root: root)
                : Array("not kasia \(number)".utf8)
        }
    }

    /// The root transaction `number` is written under: `kchat:` for every third.
    public static func root(_ number: Int) -> KasiaRoot { number % 3 == 0 ? .kchat : .ciphMsg }

    /// Bytes that look like ciphertext and never like hex text (the first is 0xff).
    static func filler(_ number: Int, count: Int) -> [UInt8] {
        var state = UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes: [UInt8] = [0xff]
        while bytes.count < count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes.append(UInt8(truncatingIfNeeded: state))
        }
        return bytes
    }
}

/// The traffic of one simulated node, for its control API (`POST /sim/traffic`): funded on first
/// use, then continued call after call. One call runs at a time.
public actor SimulatedTrafficSource {
    private var traffic: SimulatedKasiaTraffic?
    private var running = false

    public init() {}

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case busy
        case sendersChanged(had: Int)
        public var description: String {
            switch self {
            case .busy: "traffic is already being sent"
            case .sendersChanged(let had): "the traffic has \(had) senders; ask for that many"
            }
        }
    }

    /// Sends `rounds` rounds from `senders` senders (funding them on the first call); answers
    /// the senders' addresses and how many transactions were sent in all.
    public func send(senders: Int, rounds: Int, roundsPerBlock: Int, on node: SimulatedKaspaNode) async throws
        -> (addresses: [KaspaAddress], sent: Int)
    {
        guard !running else { throw Failure.busy }
        running = true
        defer { running = false }
        var current: SimulatedKasiaTraffic
        if let traffic {
            guard traffic.addresses.count == senders else { throw Failure.sendersChanged(had: traffic.addresses.count) }
            current = traffic
        } else {
            current = try await SimulatedKasiaTraffic.funded(on: node, senders: senders)
        }
        do {
            try await current.send(rounds: rounds, roundsPerBlock: roundsPerBlock, on: node)
        } catch {
            traffic = current
            throw error
        }
        traffic = current
        return (current.addresses, current.sent)
    }
}
