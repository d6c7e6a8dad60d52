import Foundation
import KaspaCrypto
import KaspaRPC
import TandemBasics

/// Answers one connection's request frames (kaspa-node.md §2, §4, §11): the id echoed exactly,
/// the method's params read strictly, the answer or the node's error text. As rusty-kaspa's wRPC
/// server does: a frame that is not a request (not JSON, no id, no `params`) or names a method no
/// node has ends the connection with no answer; params that do not read as the method's are
/// answered `request deserialization error`.
struct RPCResponder: Sendable {
    let node: SimulatedKaspaNode
    let switches: NodeSwitches
    let configuration: SimulatedNodeConfiguration
    let subscriptions: ConnectionSubscriptions

    /// What one frame gets.
    enum Outcome: Sendable, Equatable {
        /// The request's method and the answer frame's text.
        case answer(method: String, text: String)
        /// Nothing (a stalled port).
        case silence
        /// The connection ends, unanswered.
        case close
    }

    func answer(_ frame: Data) async -> Outcome {
        let head: (id: UInt64, method: String)
        do { head = try RPCFrame.requestHead(frame) } catch { return .close }
        guard Self.knownMethods.contains(head.method) else { return .close }
        let state = await switches.state
        if state.isStalled { return .silence }
        let call = Call(id: head.id, method: head.method, frame: frame)
        do {
            return .answer(method: head.method, text: try await answer(call, switches: state))
        } catch {
            guard let text = try? RPCFrame.error(id: head.id, method: head.method, message: error.message) else {
                return .close
            }
            return .answer(method: head.method, text: text)
        }
    }

    /// rusty-kaspa's wRPC ops (`RpcApiOps`): one the simulation leaves out is refused
    /// `Not implemented`; a name outside the list closes the connection, as on a real node.
    static let knownMethods: Set<String> = Set(RPCMethod.allCases.map(\.rawValue)).union([
        "getMetrics", "getConnections", "getSystemInfo", "getSyncStatus", "getCurrentNetwork", "submitBlock",
        "getBlockTemplate", "getPeerAddresses", "getSink", "getMempoolEntries", "getConnectedPeerInfo", "addPeer",
        "submitTransactionReplacement", "getBlock", "getSubnetwork", "getVirtualChainFromBlock", "getBlocks",
        "getBlockCount", "resolveFinalityConflict", "shutdown", "getHeaders", "getSinkBlueScore", "ban", "unban",
        "getInfo", "estimateNetworkHashesPerSecond", "getCoinSupply", "getDaaScoreTimestampEstimate",
        "getFeeEstimateExperimental", "getCurrentBlockColor", "getUtxoReturnAddress",
    ])

    /// One request: its id and method, and the frame its params are read from.
    struct Call {
        let id: UInt64
        let method: String
        let frame: Data

        func params<T: Decodable>(_ type: T.Type) throws(RPCFailure) -> T {
            do { return try RPCFrame.params(type, from: frame) } catch { throw .deserialization }
        }

        func result(_ params: some Encodable & Sendable) throws(RPCFailure) -> String {
            do { return try RPCFrame.response(id: id, method: method, params: params) } catch {
                throw RPCFailure(error.description)
            }
        }
    }

    private func answer(_ call: Call, switches state: NodeSwitches.State) async throws(RPCFailure) -> String {
        guard let method = RPCMethod(rawValue: call.method) else { throw .notImplemented }
        let network = await node.network
        switch method {
        case .ping:
            return try call.result(RPCEmpty())
        case .getServerInfo:
            return try call.result(
                RPCServerInfo(
                    serverVersion: configuration.serverVersion, networkId: state.reportedNetwork ?? network,
                    hasUtxoIndex: state.hasUtxoIndex, isSynced: state.isSynced,
                    virtualDaaScore: await node.virtualDaaScore))
        case .getBlockDagInfo:
            return try call.result(await blockDAGInfo(network: state.reportedNetwork ?? network))
        case .getUtxosByAddresses:
            guard state.hasUtxoIndex else { throw .noUtxoIndex }
            guard state.isSynced else { throw .syncing }
            let addresses = try call.params(RPCAddresses.self).addresses
            let entries = await node.read { chain in addresses.flatMap { chain.utxos(of: $0) } }
            return try call.result(RPCUtxosByAddresses(entries: entries.map(RPCUtxosByAddressesEntry.init)))
        case .getBalanceByAddress:
            guard state.hasUtxoIndex else { throw .noUtxoIndex }
            guard state.isSynced else { throw .syncing }
            let address = try call.params(RPCAddress.self).address
            return try call.result(RPCBalance(balance: await node.read { $0.balance(of: address) }))
        case .getBalancesByAddresses:
            guard state.hasUtxoIndex else { throw .noUtxoIndex }
            guard state.isSynced else { throw .syncing }
            let addresses = try call.params(RPCAddresses.self).addresses
            let entries = await node.read { chain in
                addresses.map { RPCBalancesByAddressesEntry(address: $0, balance: chain.balance(of: $0)) }
            }
            return try call.result(RPCBalancesByAddresses(entries: entries))
        case .submitTransaction:
            // A node in IBD refuses the UTXO and chain calls, not a submit (kaspa-node.md §11).
            let submission = try call.params(RPCSubmitTransaction.self)
            if let forced = await switches.takeRejection() { throw RPCFailure(forced) }
            let id: [UInt8]
            do { id = try await node.submit(submission.transaction) } catch { throw RPCFailure(error.message) }
            return try call.result(RPCTransactionID(transactionId: id))
        case .getFeeEstimate:
            return try call.result(RPCFeeEstimateResponse(estimate: configuration.flooredFeeEstimate))
        case .getMempoolEntry:
            return try await mempoolEntry(call, network: network)
        case .getMempoolEntriesByAddresses:
            return try await mempoolEntries(call, network: network)
        case .subscribe, .unsubscribe:
            return try await subscription(call, subscribe: method == .subscribe)
        case .getVirtualChainFromBlockV2:
            guard state.isSynced else { throw .syncing }
            return try await virtualChain(call)
        }
    }

    /// The chain walk (kaspa-node.md §5), computed by the chain (``SimulatedChain/virtualChain(_:limit:)``).
    private func virtualChain(_ call: Call) async throws(RPCFailure) -> String {
        let request = try call.params(RPCVirtualChainFromBlockRequest.self)
        if let forced = await switches.takeChainWalkRefusal(
            startingAt: request.startHash, level: request.dataVerbosityLevel)
        {
            throw RPCFailure(forced)
        }
        let limit = await switches.state.chainPageLimit ?? SimulatedChain.virtualChainPageSize
        let answer = await node.read { chain in
            Result { () throws(SimulatedChainError) in
                let walk = try chain.virtualChainWalk(
                    from: request.startHash, minConfirmationCount: request.minConfirmationCount, limit: limit)
                let response = try chain.virtualChain(walk, level: request.level)
                // At None a real node lists inputs and outputs with null members (kaspa-node.md §11).
                let shapes =
                    request.level == .none
                    ? walk.added.map { block in
                        block.transactions.map { ($0.transaction.inputs.count, $0.transaction.outputs.count) }
                    } : nil
                return (response, shapes)
            }
        }
        switch answer {
        case .success((let response, let shapes?)):
            return try call.result(NoneLevelChainPage(answer: response, shapes: shapes))
        case .success((let response, nil)): return try call.result(response)
        case .failure(.nonStandardScriptInPage): throw .invalidAddress
        case .failure: throw .unknownStartHash(request.startHash)
        }
    }

    private func blockDAGInfo(network: KaspaNetworkID) async -> RPCBlockDAGInfo {
        await node.read { chain in
            let tip = Hex.encode(chain.tip.hash)
            return RPCBlockDAGInfo(
                network: network, blockCount: UInt64(chain.blocks.count), headerCount: UInt64(chain.blocks.count),
                tipHashes: [tip], difficulty: 1, pastMedianTime: UInt64(max(chain.tip.time.rawValue, 0)),
                virtualParentHashes: [tip], pruningPointHash: Hex.encode(chain.genesis.hash),
                virtualDaaScore: chain.virtualDaaScore, sink: tip)
        }
    }

    private func mempoolEntry(_ call: Call, network: KaspaNetworkID) async throws(RPCFailure) -> String {
        let query = try call.params(RPCMempoolEntryQuery.self)
        if query.filterTransactionPool && !query.includeOrphanPool { throw .inconsistentQuery }
        let notFound = RPCFailure("Transaction \(query.transactionId) not found")
        // Filtering the transaction pool leaves the orphan pool, which is always empty here.
        guard !query.filterTransactionPool, let id = try? Hex.decode(query.transactionId), id.count == 32,
            let entry = await node.read({ $0.mempoolTransaction(id) })
        else { throw notFound }
        return try call.result(RPCMempoolEntryResponse(mempoolEntry: entry.rpcEntry(network: network.network)))
    }

    /// Every requested address is listed, with empty lists where it has nothing (kaspa-node.md §11).
    private func mempoolEntries(_ call: Call, network: KaspaNetworkID) async throws(RPCFailure) -> String {
        let query = try call.params(RPCMempoolEntriesQuery.self)
        if query.filterTransactionPool && !query.includeOrphanPool { throw .inconsistentQuery }
        let addresses = query.addresses
        let filtered = query.filterTransactionPool
        let entries = await node.read { chain in
            addresses.map { address -> RPCMempoolEntriesByAddress in
                // Filtering the transaction pool leaves the orphan pool, which is always empty here.
                let (sending, receiving) = filtered ? ([], []) : chain.mempoolTransactions(of: address)
                return RPCMempoolEntriesByAddress(
                    address: address, sending: sending.map { $0.rpcEntry(network: network.network) },
                    receiving: receiving.map { $0.rpcEntry(network: network.network) })
            }
        }
        return try call.result(RPCMempoolEntriesByAddresses(entries: entries))
    }

    private func subscription(_ call: Call, subscribe: Bool) async throws(RPCFailure) -> String {
        // Scopes other than UtxosChanged and VirtualDaaScoreChanged are not simulated.
        guard let scope = try? call.params(RPCSubscription.self) else { throw .notImplemented }
        switch scope {
        case .utxosChanged(let addresses):
            if subscribe {
                guard !addresses.isEmpty else { throw .safeMode }
                await subscriptions.subscribe(addresses)
                switches.recordSubscription(addresses)
            } else {
                await subscriptions.unsubscribe(addresses)
            }
        case .virtualDaaScoreChanged:
            await subscriptions.setVirtualDaaScore(subscribe)
        }
        // subscribe answers the connection's listener id; unsubscribe answers {} (kaspa-node.md §11).
        return subscribe ? try call.result(RPCListenerID(id: subscriptions.listenerID)) : try call.result(RPCEmpty())
    }
}
