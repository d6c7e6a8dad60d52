public import CanonicalJSON
import Foundation

/// Validating many nodes at once on every core (issue 12 "Figures": a server that accepts nodes
/// at half the raw Ed25519 rate, a new device that pulls 10,000 nodes in under a second).
///
/// Each node gets exactly the checks of ``validate(_:)`` (spec §6.2 steps 2–7, the signature
/// included); only the order of the work changes. Ed25519 verification is most of the cost and
/// is independent per node, so the nodes are split into one contiguous chunk per core and the
/// results are put back in input order.
extension NodeValidator {
    /// Below this many nodes per chunk a second task costs more than it saves.
    static let minimumChunk = 32

    /// Each value's verdict, in the order given.
    public func validateConcurrently(_ values: [JSONValue]) async -> [Result<RedoNode, NodeValidationError>] {
        let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, values.count / Self.minimumChunk))
        guard workers > 1 else { return values.map(verdict) }
        let chunk = (values.count + workers - 1) / workers
        return await withTaskGroup(of: (Int, [Result<RedoNode, NodeValidationError>]).self) { group in
            for start in stride(from: 0, to: values.count, by: chunk) {
                let part = Array(values[start..<min(start + chunk, values.count)])
                group.addTask { (start, part.map(verdict)) }
            }
            var verdicts = [Result<RedoNode, NodeValidationError>?](repeating: nil, count: values.count)
            for await (start, part) in group {
                for (offset, result) in part.enumerated() { verdicts[start + offset] = result }
            }
            return verdicts.map { $0 ?? .failure(.schemaMismatch("node was not validated")) }
        }
    }

    private func verdict(_ value: JSONValue) -> Result<RedoNode, NodeValidationError> {
        do throws(NodeValidationError) { return .success(try validate(value)) } catch { return .failure(error) }
    }
}
