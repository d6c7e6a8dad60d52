import Foundation
import KaspaSimNode
import TandemAccounts
import TandemBasics
import TandemWallet

/// What a restore read, seen from both sides of the client: where each of its chain walks
/// started (the node's `getVirtualChainFromBlockV2` requests, through the server's frame
/// observer) and which indexer routes it asked (through ``transport(wrapping:)``, which passes
/// every request on to the real transport and its answer back).
final class RestoreWitness: Sendable {
    private let walkStarts = Locked<[[UInt8]]>([])
    private let indexerPaths = Locked<[String]>([])

    /// Records the start hash of every chain walk any connection of the node asks for.
    var frameObserver: NodeFrameObserver {
        NodeFrameObserver { [self] event in
            guard event.kind == .request(method: "getVirtualChainFromBlockV2"),
                let object = try? JSONSerialization.jsonObject(with: Data(event.frame.utf8)) as? [String: Any],
                let params = object["params"] as? [String: Any], let text = params["startHash"] as? String,
                let start = try? Hex.decode(text)
            else { return }
            walkStarts.withLock { $0.append(start) }
        }
    }

    /// `transport`, recording the path of each request it sends.
    func transport(wrapping transport: any HTTPTransport) -> any HTTPTransport {
        Recording(wrapped: transport, witness: self)
    }

    /// The chain walks' start hashes so far, in the order the node read them.
    var walks: [[UInt8]] { walkStarts.withLock { $0 } }

    /// The indexer paths asked so far.
    var paths: [String] { indexerPaths.withLock { $0 } }

    private struct Recording: HTTPTransport {
        let wrapped: any HTTPTransport
        let witness: RestoreWitness

        func send(_ request: TransportRequest) async throws -> TransportResponse {
            witness.indexerPaths.withLock { $0.append(request.url.path) }
            return try await wrapped.send(request)
        }
    }
}
