import Foundation
import Hummingbird
import KaspaCrypto
import KaspaRPC
import KaspaTransaction
import TandemBasics

/// The HTTP control API of a simulated node, under `/sim/` on each port (JSON in and out; a bad
/// request is a 400 with `{"error": …}`, never a crash):
///
/// - `POST /sim/fund {"address" or "script", "amount", "coinbase"?}` → `{"transactionId"}` (`script`:
///   hex of a version-0 script, which may be non-standard: kaspa-node.md §11)
/// - `POST /sim/mine {"blocks"?}` → `{"virtualDaaScore"}`
/// - `POST /sim/reorg {"depth"}` → `{"virtualDaaScore"}`
/// - `POST /sim/switch {"port"?, "rejectNext"?: {"count", "message"}, "drop"?, "stall"?,
///   "networkId"?, "synced"?, "utxoIndex"?, "refuse"?, "mempoolFull"?}` → `{"port"}` (the port
///   switched: the one named, else the one asked; `mempoolFull` is the chain's, for every port)
/// - `POST /sim/traffic {"senders", "rounds", "roundsPerBlock"?}` → `{"addresses", "sent",
///   "virtualDaaScore"}`: deterministic Kasia traffic (``SimulatedKasiaTraffic``), each sender one
///   transaction per round, a block after every `roundsPerBlock` rounds
/// - `GET /sim/state` → `{"network", "virtualDaaScore", "tip", "blockCount", "mempool", "ports"}`
/// - `GET /v2/kaspa/{network}/{tls|any}/wrpc/json` → `{"uid", "url"}`: a Resolver naming this port
///
/// The kasia-indexer routes on the same server are ``IndexerAPI``'s.
struct ControlAPI: Sendable {
    let node: SimulatedKaspaNode
    let switches: NodeSwitches
    let traffic: SimulatedTrafficSource

    static let maximumBody = 1 << 20
    static let maximumBlocksPerCall = 100_000

    func register(on router: Router<BasicRequestContext>) {
        router.post("/sim/fund") { request, _ in await respond { try await fund(request) } }
        router.post("/sim/mine") { request, _ in await respond { try await mine(request) } }
        router.post("/sim/reorg") { request, _ in await respond { try await reorg(request) } }
        router.post("/sim/switch") { request, _ in await respond { try await flip(request) } }
        router.post("/sim/traffic") { request, _ in await respond { try await sendTraffic(request) } }
        router.get("/sim/state") { _, _ in await respond { try await state() } }
        // A Resolver's lookup (kaspa-node.md §1), answering with this port: `--resolver` in tests.
        router.get("/v2/kaspa/:network/:tls/wrpc/json") { request, context in
            await respond { try await resolve(request, network: context.parameters.get("network")) }
        }
    }

    /// `{"uid", "url"}` naming this node when `network` is the one it serves.
    private func resolve(_ request: Request, network: String?) async throws(ControlError) -> [String: String] {
        let served = await node.network
        guard let network, KaspaNetworkID(network) == served else {
            throw ControlError("no node for network \(network ?? "?")")
        }
        guard let port = request.head.authority.flatMap({ Self.port(ofAuthority: $0) }) else {
            throw ControlError("no port in the request's authority")
        }
        return ["uid": "simulated-\(port)", "url": "ws://127.0.0.1:\(port)"]
    }

    /// `address`, or `script` (hex of a version-0 script, which may be non-standard).
    private struct FundRequest: Decodable {
        var address: String?
        var script: String?
        var amount: UInt64
        var coinbase: Bool?
    }

    private struct MineRequest: Decodable { var blocks: Int? }

    private struct ReorgRequest: Decodable { var depth: Int }

    private struct SwitchRequest: Decodable {
        struct Rejection: Decodable {
            var count: Int
            var message: String
        }
        var port: Int?
        var rejectNext: Rejection?
        var drop: Bool?
        var stall: Bool?
        var networkId: String?
        var synced: Bool?
        var utxoIndex: Bool?
        var refuse: Bool?
        var mempoolFull: Bool?
    }

    private struct State: Encodable {
        var network: String
        var virtualDaaScore: UInt64
        var tip: String
        var blockCount: Int
        var mempool: [String]
        var ports: [Int]
    }

    private func fund(_ request: Request) async throws(ControlError) -> [String: String] {
        let body = try await Self.decode(FundRequest.self, from: request)
        switch (body.address, body.script) {
        case (let text?, nil):
            let address: KaspaAddress
            do { address = try KaspaAddress(text) } catch { throw ControlError("address: \(error.description)") }
            do {
                let id = try await node.fund(address, amount: body.amount, coinbase: body.coinbase ?? false)
                return ["transactionId": Hex.encode(id)]
            } catch {
                throw ControlError(error.description)
            }
        case (nil, let hex?):
            guard let script = try? Hex.decode(hex), !script.isEmpty else { throw ControlError("script: not hex") }
            do {
                let id = try await node.fund(script: KaspaScriptPublicKey(script: script), amount: body.amount)
                return ["transactionId": Hex.encode(id)]
            } catch {
                throw ControlError(error.description)
            }
        default:
            throw ControlError("give one of address and script")
        }
    }

    private func sendTraffic(_ request: Request) async throws(ControlError) -> TrafficAnswer {
        let body = try await Self.decode(TrafficRequest.self, from: request)
        guard (1...1_000).contains(body.senders), (1...100_000).contains(body.rounds),
            (1...100_000).contains(body.roundsPerBlock ?? 1)
        else { throw ControlError("senders 1…1000, rounds and roundsPerBlock 1…100000") }
        do {
            let (addresses, sent) = try await traffic.send(
                senders: body.senders, rounds: body.rounds, roundsPerBlock: body.roundsPerBlock ?? 1, on: node)
            return TrafficAnswer(
                addresses: addresses.map(\.description), sent: sent, virtualDaaScore: await node.virtualDaaScore)
        } catch {
            throw ControlError(String(describing: error))
        }
    }

    private struct TrafficRequest: Decodable {
        var senders: Int
        var rounds: Int
        var roundsPerBlock: Int?
    }

    private struct TrafficAnswer: Encodable {
        var addresses: [String]
        var sent: Int
        var virtualDaaScore: UInt64
    }

    private func mine(_ request: Request) async throws(ControlError) -> [String: UInt64] {
        let blocks = try await Self.decode(MineRequest.self, from: request, emptyIs: MineRequest()).blocks ?? 1
        guard (1...Self.maximumBlocksPerCall).contains(blocks) else {
            throw ControlError("blocks: 1 to \(Self.maximumBlocksPerCall), not \(blocks)")
        }
        return ["virtualDaaScore": await node.mine(blocks: blocks)]
    }

    private func reorg(_ request: Request) async throws(ControlError) -> [String: UInt64] {
        let depth = try await Self.decode(ReorgRequest.self, from: request).depth
        do { return ["virtualDaaScore": try await node.reorg(depth: depth)] } catch {
            throw ControlError(error.description)
        }
    }

    private func flip(_ request: Request) async throws(ControlError) -> [String: Int] {
        let body = try await Self.decode(SwitchRequest.self, from: request)
        let target: NodeSwitches
        if let port = body.port {
            guard let found = await node.switches(port: port) else {
                throw ControlError("no simulated node on port \(port)")
            }
            target = found
        } else {
            target = switches
        }
        var network: KaspaNetworkID?
        if let text = body.networkId {
            guard let parsed = KaspaNetworkID(text) else { throw ControlError("networkId: unknown network id \(text)") }
            network = parsed
        }
        if let rejection = body.rejectNext {
            guard rejection.count >= 0 else { throw ControlError("rejectNext.count: must not be negative") }
            await target.rejectNextSubmits(rejection.count, message: rejection.message)
        }
        if let stall = body.stall { await target.setStalled(stall) }
        if let network { await target.setReportedNetwork(network) }
        if let synced = body.synced { await target.setSynced(synced) }
        if let utxoIndex = body.utxoIndex { await target.setUtxoIndex(utxoIndex) }
        if let refuse = body.refuse { await target.setRefusingConnections(refuse) }
        if let full = body.mempoolFull { await node.setMempoolFull(full) }
        if body.drop == true { await target.dropConnections() }
        return ["port": body.port ?? request.head.authority.flatMap { Self.port(ofAuthority: $0) } ?? 0]
    }

    private func state() async throws(ControlError) -> State {
        let ports = await node.ports
        return await node.read { chain in
            State(
                network: chain.network.description, virtualDaaScore: chain.virtualDaaScore,
                tip: Hex.encode(chain.tip.hash), blockCount: chain.blocks.count,
                mempool: chain.mempool.map { Hex.encode($0.id) }, ports: ports)
        }
    }

    // MARK: JSON in and out

    private static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, emptyIs empty: T? = nil
    ) async throws(ControlError) -> T {
        let buffer: ByteBuffer
        do { buffer = try await request.body.collect(upTo: maximumBody) } catch {
            throw ControlError("the body is over \(maximumBody) bytes or unreadable")
        }
        let data = Data(buffer.readableBytesView)
        if data.allSatisfy({ [0x20, 0x0a, 0x0d, 0x09].contains($0) }), let empty { return empty }
        do { return try JSONDecoder().decode(type, from: data) } catch { throw ControlError("bad JSON body: \(error)") }
    }

    private static func port(ofAuthority authority: String) -> Int? {
        authority.split(separator: ":").last.flatMap { Int($0) }
    }
}

/// A control request the node cannot carry out: a 400 with the reason.
struct ControlError: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
