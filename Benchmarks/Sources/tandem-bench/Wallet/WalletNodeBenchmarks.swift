import BenchSupport
import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaTransaction
import MicroBenchmarks
import TandemMessaging
import TandemNIOTransport
import TandemProfile
import TandemWallet

/// Issue 24's wallet figures through a node: a profile's ``KaspaWallet`` on a
/// ``KaspaNodeClient`` over ``WebSocketClientTransport``, live on a `tandem-simnode` process (so
/// the node's CPU is not this process's), as `tandem wallet watch` runs it.
///
/// - Client CPU per sent message: this process's user + system CPU (`getrusage`, every thread:
///   the wallet, the node client, NIO's event loops) over `send` of a self-spend with a 160-byte
///   payload, against `KaspaTransactionBuilder.build` of the same request from one UTXO in the
///   same process, in rounds that alternate the two. After each round a block is mined through
///   the control API and the wallet applies the UtxosChanged that settles the round's pending
///   transactions: that settle is reported on its own and with the sends.
/// - Reconnect and resync: the node drops every WebSocket; timed from the drop request until the
///   wallet's `apply(.connected)` (its UTXO re-read) has returned; then a fund must arrive as a
///   UtxosChanged, proving the subscription was restored.
enum WalletNodeBenchmarks {
    struct Configuration {
        var simnode: String
        var messages = 200
        var messagesPerBlock = 20
        var baselineBuildsPerRound = 100
        var reconnects = 10
        var payloadBytes = 160
        /// Where the profile is made (its pending file is written on every send); nil: the
        /// system's temporary directory.
        var directory: URL?
    }

    struct SendFigures: Encodable {
        var messages: Int
        var rounds: Int
        /// Mean CPU per `send` (build, sign, submit over the WebSocket, answer, bookkeeping).
        var sendCPUMicroseconds: Double
        /// The median round's CPU per send.
        var sendCPUMedianRoundMicroseconds: Double
        /// CPU per message of the mine request and the UtxosChanged that settles the round.
        var settleCPUMicroseconds: Double
        var sendWallMedianMicroseconds: Double
        /// Mean CPU per baseline build (select from one UTXO, sign).
        var baselineCPUMicroseconds: Double
        var baselineCPUMedianRoundMicroseconds: Double
        var baselineWallMicroseconds: Double
        /// Mean CPU per `ping` through the node client: the floor of any call to the node.
        var pingCPUMicroseconds: Double
        /// Mean CPU per `ping` round trip on a bare swift-websocket connection
        /// (``MinimalRoundTrip``): the floor of any submit over a WebSocket, without our client.
        var minimalRoundTripCPUMicroseconds: Double
        /// Build + sign plus the bare round trip, over build + sign: the least a design that
        /// submits each message over this transport can reach on this machine.
        var floorRatio: Double
        var ratio: Double
        var ratioWithSettle: Double
    }

    struct ReconnectFigures: Encodable {
        /// Drop request → the wallet's `apply(.connected)` returned, per repetition.
        var resyncMilliseconds: [Double]
        /// Drop request → the wallet's `apply(.disconnected)` returned.
        var detectMilliseconds: [Double]
        /// A fund after the resync → its UtxosChanged applied.
        var fundAppliedMilliseconds: [Double]
        var medianMilliseconds: Double
        var maximumMilliseconds: Double
    }

    struct Report: Encodable {
        var send: SendFigures
        var reconnect: ReconnectFigures
    }

    static func run(_ configuration: Configuration) async throws -> Report {
        let node = try SimNodeProcess(executable: configuration.simnode, network: "testnet-10")
        defer { node.stop() }
        let directory = (configuration.directory ?? FileManager.default.temporaryDirectory).appendingPathComponent(
            "tandem-wallet-node-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = Profile(directory: directory)
        // A fixed key: the node is fresh each run, so nothing about it needs to be random.
        let key = try profile.importWalletKey(PrivateKey(hex: String(repeating: "24", count: 32)))
        try profile.saveKaspaNetworkSettings(KaspaNetworkSettings(network: .testnet10, nodes: [node.url]))
        let wallet = try KaspaWallet(profile: profile, transport: WebSocketClientTransport())
        try await node.fund(wallet.address.description, sompi: 1_000 * 100_000_000)

        let client = wallet.node
        try await client.watch([wallet.address])
        try await client.followDaaScore()
        let probe = WalletProbe()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            group.addTask {
                for await event in client.events {
                    do {
                        _ = try await wallet.apply(event)
                        probe.record(WalletProbe.Kind(event))
                    } catch {
                        probe.record(.failed, failure: String(describing: error))
                    }
                }
            }
            _ = try await probe.instant(of: .connected, number: 1, timeout: .seconds(30))
            let send = try await sends(
                configuration, wallet: wallet, key: key, node: node, probe: probe,
                profile: profile)
            let reconnect = try await reconnects(configuration.reconnects, wallet: wallet, node: node, probe: probe)
            group.cancelAll()
            await client.disconnect()
            return Report(send: send, reconnect: reconnect)
        }
    }

    // MARK: CPU per sent message

    private static func sends(
        _ configuration: Configuration, wallet: KaspaWallet, key: PrivateKey, node: SimNodeProcess,
        probe: WalletProbe, profile: Profile
    ) async throws -> SendFigures {
        let request = KaspaTransactionBuilder.Request.selfSpend(
            payload: [UInt8](repeating: 0x61, count: configuration.payloadBytes))
        let estimate = try await wallet.node.call(.getFeeEstimate, as: RPCFeeEstimateResponse.self).estimate
        let builder = KaspaTransactionBuilder(
            key: key, network: wallet.address.network, feeRate: FeePriority.normal.feeRate(in: estimate))
        let perBlock = max(1, min(configuration.messagesPerBlock, configuration.messages))
        let rounds = max(1, configuration.messages / perBlock)
        let clock = ContinuousClock()
        var sendCPU: [Double] = []
        var settleCPU: [Double] = []
        var baselineCPU: [Double] = []
        var sendWall: [Double] = []
        var baselineWall: [Double] = []
        var pingCPU: [Double] = []
        var minimalCPU: [Double] = []

        // Round 0 warms both paths up and is not counted.
        for round in 0...rounds {
            guard let input = await wallet.state.spendable.last else { throw CLIError("wallet-node bench: no coins") }
            func baseline() throws {
                let start = (cpu: ownCPUSeconds(), wall: clock.now)
                for _ in 0..<configuration.baselineBuildsPerRound {
                    blackHole(try builder.build(request, utxos: [input]))
                }
                let builds = Double(configuration.baselineBuildsPerRound)
                guard round > 0 else { return }
                baselineCPU.append((ownCPUSeconds() - start.cpu) / builds)
                baselineWall.append((clock.now - start.wall).nanoseconds / 1e9 / builds)
            }
            // Alternate which goes first, so drift on the shared machine falls on both.
            if round % 2 == 0 { try baseline() }
            let sendStart = ownCPUSeconds()
            for _ in 0..<perBlock {
                let start = clock.now
                _ = try await wallet.send(request)
                if round > 0 { sendWall.append((clock.now - start).nanoseconds / 1e9) }
            }
            let settleStart = ownCPUSeconds()
            if round == 0 { try await checkPendingFile(profile, wallet: wallet) }
            let applied = probe.count(.utxosChanged)
            try await node.mine()
            _ = try await probe.instant(of: .utxosChanged, number: applied + 1, timeout: .seconds(30))
            let settleEnd = ownCPUSeconds()
            let pending = await wallet.state.pending.count
            guard pending == 0 else {
                throw CLIError("wallet-node bench: \(pending) transactions still pending after a block")
            }
            if round > 0 {
                sendCPU.append((settleStart - sendStart) / Double(perBlock))
                settleCPU.append((settleEnd - settleStart) / Double(perBlock))
            }
            if round % 2 == 1 { try baseline() }
            let pingStart = ownCPUSeconds()
            for _ in 0..<perBlock { _ = try await wallet.node.call(.ping, as: RPCEmpty.self) }
            if round > 0 { pingCPU.append((ownCPUSeconds() - pingStart) / Double(perBlock)) }
            let minimal = try await MinimalRoundTrip.cpuPerRoundTrip(url: node.url, count: 5 * perBlock)
            if round > 0 { minimalCPU.append(minimal) }
        }
        let send = mean(sendCPU)
        let settle = mean(settleCPU)
        let base = mean(baselineCPU)
        return SendFigures(
            messages: rounds * perBlock, rounds: rounds, sendCPUMicroseconds: send * 1e6,
            sendCPUMedianRoundMicroseconds: median(sendCPU) * 1e6, settleCPUMicroseconds: settle * 1e6,
            sendWallMedianMicroseconds: median(sendWall) * 1e6, baselineCPUMicroseconds: base * 1e6,
            baselineCPUMedianRoundMicroseconds: median(baselineCPU) * 1e6,
            baselineWallMicroseconds: median(baselineWall) * 1e6, pingCPUMicroseconds: mean(pingCPU) * 1e6,
            minimalRoundTripCPUMicroseconds: mean(minimalCPU) * 1e6, floorRatio: (base + mean(minimalCPU)) / base,
            ratio: send / base,
            ratioWithSettle: (send + settle) / base)
    }

    /// The pending journal, read by a fresh wallet of the profile (another process's view),
    /// holds the wallet's pending list. Checked in the warm-up round, which is not measured.
    private static func checkPendingFile(_ profile: Profile, wallet: KaspaWallet) async throws {
        let pending = await wallet.state.pending
        let fresh = try KaspaWallet(profile: profile, settings: wallet.settings, node: wallet.node)
        guard !pending.isEmpty, await fresh.state.pending == pending else {
            throw CLIError("wallet-node bench: the pending journal differs from the wallet's pending list")
        }
    }

    // MARK: Reconnect and resync

    private static func reconnects(_ count: Int, wallet: KaspaWallet, node: SimNodeProcess, probe: WalletProbe)
        async throws -> ReconnectFigures
    {
        let clock = ContinuousClock()
        let amount: UInt64 = 100_000_000
        var resync: [Double] = []
        var detect: [Double] = []
        var fundApplied: [Double] = []
        for _ in 0..<count {
            let connected = probe.count(.connected)
            let disconnected = probe.count(.disconnected)
            let start = clock.now
            try await node.dropConnections()
            let lost = try await probe.instant(of: .disconnected, number: disconnected + 1, timeout: .seconds(30))
            let back = try await probe.instant(of: .connected, number: connected + 1, timeout: .seconds(30))
            detect.append((lost - start).nanoseconds / 1e6)
            resync.append((back - start).nanoseconds / 1e6)

            let before = await wallet.balance.balance
            let changes = probe.count(.utxosChanged)
            let fundStart = clock.now
            try await node.fund(wallet.address.description, sompi: amount)
            let arrived = try await probe.instant(of: .utxosChanged, number: changes + 1, timeout: .seconds(30))
            fundApplied.append((arrived - fundStart).nanoseconds / 1e6)
            let after = await wallet.balance.balance
            guard after == before + amount else {
                throw CLIError("wallet-node bench: after a reconnect the fund was not applied (\(before) → \(after))")
            }
        }
        return ReconnectFigures(
            resyncMilliseconds: resync, detectMilliseconds: detect, fundAppliedMilliseconds: fundApplied,
            medianMilliseconds: median(resync), maximumMilliseconds: resync.max() ?? 0)
    }

    // MARK: Arithmetic

    /// User + system CPU of this process (every thread) so far, in seconds.
    static func ownCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(Int32(RUSAGE_SELF.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func mean(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count) }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
