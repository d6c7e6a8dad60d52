import Foundation
import KaspaCrypto
import KaspaRPC
import TandemBasics

/// Answers one connection's request frames (kaspa-node.md §2, §4): the id echoed exactly, the
/// method's params read strictly, the answer or the node's error text. A frame without an id
/// (or that is not JSON) gets no answer; it never ends the connection.
struct RPCResponder: Sendable {
    let node: SimulatedKaspaNode
    let switches: NodeSwitches
    let configuration: SimulatedNodeConfiguration
    let subscriptions: ConnectionSubscriptions

    /// The request's method and the answer frame's text, or nil when none is sent (unreadable
    /// frame, stalled port).
    func answer(_ frame: Data) async -> (method: String, text: String)? {
        let head: (id: UInt64, method: String)
        do { head = try RPCFrame.requestHead(frame) } catch { return nil }
        let state = await switches.state
        if state.isStalled { return nil }
        let call = Call(id: head.id, method: head.method, frame: frame)
        do {
            return (head.method, try await answer(call, switches: state))
        } catch {
            return (try? RPCFrame.error(id: head.id, method: head.method, message: error.message)).map {
                (head.method, $0)
            }
        }
    }

    /// One request: its id and method, and the frame its params are read from.
    struct Call {
        let id: UInt64
        let method: String
        let frame: Data

        func params<T: Decodable>(_ type: T.Type) throws(RPCFailure) -> T {
            do { return try RPCFrame.params(type, from: frame) } catch { throw RPCFailure(error.description) }
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
            let addresses = try call.params(RPCAddresses.self).addresses
            let entries = await node.read { chain in addresses.flatMap { chain.utxos(of: $0) } }
            return try call.result(RPCUtxosByAddresses(entries: entries.map(RPCUtxosByAddressesEntry.init)))
        case .getBalanceByAddress:
            guard state.hasUtxoIndex else { throw .noUtxoIndex }
            let address = try call.params(RPCAddress.self).address
            return try call.result(RPCBalance(balance: await node.read { $0.balance(of: address) }))
        case .getBalancesByAddresses:
            guard state.hasUtxoIndex else { throw .noUtxoIndex }
            let addresses = try call.params(RPCAddresses.self).addresses
            let entries = await node.read { chain in
                addresses.map { RPCBalancesByAddressesEntry(address: $0, balance: chain.balance(of: $0)) }
            }
            return try call.result(RPCBalancesByAddresses(entries: entries))
        case .submitTransaction:
            guard state.isSynced else { throw .syncing }
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
            return try await virtualChain(call)
        }
    }

    /// The chain walk (kaspa-node.md §5), computed by the chain (``SimulatedChain/virtualChain(_:limit:)``).
    private func virtualChain(_ call: Call) async throws(RPCFailure) -> String {
        let request = try call.params(RPCVirtualChainFromBlockRequest.self)
        let answer = await node.read { chain in
            Result { () throws(SimulatedChainError) in try chain.virtualChain(request) }
        }
        switch answer {
        case .success(let response): return try call.result(response)
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

    /// Addresses with no mempool transaction are left out of `entries`.
    private func mempoolEntries(_ call: Call, network: KaspaNetworkID) async throws(RPCFailure) -> String {
        let query = try call.params(RPCMempoolEntriesQuery.self)
        if query.filterTransactionPool && !query.includeOrphanPool { throw .inconsistentQuery }
        guard !query.filterTransactionPool else { return try call.result(RPCMempoolEntriesByAddresses(entries: [])) }
        let addresses = query.addresses
        let entries = await node.read { chain in
            addresses.compactMap { address -> RPCMempoolEntriesByAddress? in
                let (sending, receiving) = chain.mempoolTransactions(of: address)
                guard !sending.isEmpty || !receiving.isEmpty else { return nil }
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
        return try call.result(RPCListenerID(id: subscriptions.listenerID))
    }
}
