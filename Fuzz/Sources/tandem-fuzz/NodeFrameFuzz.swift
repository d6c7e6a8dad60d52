import Foundation

@testable import KaspaRPC

/// A frame a Kaspa node sends (issue 24, kaspa-node.md §2): reading it either fails with a typed
/// error or yields an answer, an error or a notification, exactly as `JSONDecoder` alone reads it
/// (``RPCFrame/inbound(_:)`` reads UtxosChanged frames with its own reader first). A notification
/// written back by ``RPCFrame/notification(_:)`` reads as the same notification, and an answer's
/// params are read as every type the client relies on without trapping.
enum NodeFrameFuzz {
    static func run(_ bytes: [UInt8]) {
        let data = Data(bytes)
        let read = Result { () throws(RPCFrameError) in try RPCFrame.inbound(data) }
        let decoded = Result { () throws(RPCFrameError) in try RPCFrame.decodedInbound(data) }
        invariant(read == decoded, "the UtxosChanged reader and JSONDecoder read a frame differently")
        guard case .success(let inbound) = read else { return }
        switch inbound {
        case .notification(let notification):
            guard case .other = notification else {
                guard let text = try? RPCFrame.notification(notification) else {
                    return invariant(false, "a notification read from a frame cannot be written")
                }
                let again = try? RPCFrame.inbound(Data(text.utf8))
                return invariant(again == .notification(notification), "a notification changed when written back")
            }
        case .response(_, _, let frame):
            _ = try? RPCFrame.params(RPCServerInfo.self, from: frame)
            _ = try? RPCFrame.params(RPCUtxosByAddresses.self, from: frame).entries.map(\.kaspaEntry)
            _ = try? RPCFrame.params(RPCTransactionID.self, from: frame)
            _ = try? RPCFrame.params(RPCFeeEstimateResponse.self, from: frame)
            if let entry = try? RPCFrame.params(RPCMempoolEntryResponse.self, from: frame) {
                _ = try? entry.mempoolEntry.transaction.kaspaTransaction { _ in nil }
            }
            _ = try? RPCFrame.params(RPCMempoolEntriesByAddresses.self, from: frame)
            if let walk = try? RPCFrame.params(RPCVirtualChainFromBlockResponse.self, from: frame) {
                for block in walk.chainBlockAcceptedTransactions {
                    for transaction in block.acceptedTransactions { _ = try? transaction.kaspaTransaction { _ in nil } }
                }
            }
        case .error:
            return
        }
    }
}
