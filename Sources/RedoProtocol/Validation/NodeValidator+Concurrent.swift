public import CanonicalJSON
import Foundation

/// Validating many nodes at once on every core (issue 12 "Figures": a server that accepts nodes
/// at half the raw Ed25519 rate, a new device that pulls 10,000 nodes in under a second).
///
/// Each node gets exactly the checks of ``validate(_:)`` (spec §6.2 steps 2–7, the signature
/// included); only the order of the work changes. Ed25519 verification is most of the cost and
/// is independent per node, so the nodes are split into small contiguous chunks, several per
/// core, and the results are put back in input order. Small chunks matter because a core is
/// often busy with other work (the pull stores the previous page meanwhile): with one chunk per
/// core, the other cores idled while that core's chunk waited; with many, a free core takes the
/// next chunk and the busy one simply takes fewer.
extension NodeValidator {
    /// Below this many nodes per chunk a task costs more than it saves.
    static let minimumChunk = 32
    /// Chunks per core, so a core held up by other work leaves its share to the others.
    static let chunksPerCore = 8

    /// Each value's verdict, in the order given.
    public func validateConcurrently(_ values: [JSONValue]) async -> [Result<RedoNode, NodeValidationError>] {
        await validateConcurrently(values) { $0 }
    }

    /// Each value's verdict, in the order given, with `prepare` applied to each valid node on the
    /// same core that validated it: per-node work the caller needs next (a store's canonical
    /// text) is then spread over the cores too, instead of running after them on one.
    public func validateConcurrently<Prepared: Sendable>(
        _ values: [JSONValue], preparing prepare: @escaping @Sendable (RedoNode) -> Prepared
    ) async -> [Result<Prepared, NodeValidationError>] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks = max(1, min(cores * Self.chunksPerCore, values.count / Self.minimumChunk))
        guard chunks > 1, cores > 1 else { return values.map { verdict($0, prepare) } }
        let size = (values.count + chunks - 1) / chunks
        return await withTaskGroup(of: (Int, [Result<Prepared, NodeValidationError>]).self) { group in
            for start in stride(from: 0, to: values.count, by: size) {
                let part = values[start..<min(start + size, values.count)]
                group.addTask { (start, part.map { verdict($0, prepare) }) }
            }
            var verdicts = [Result<Prepared, NodeValidationError>?](repeating: nil, count: values.count)
            for await (start, part) in group {
                for (offset, result) in part.enumerated() { verdicts[start + offset] = result }
            }
            return verdicts.map { $0 ?? .failure(.schemaMismatch("node was not validated")) }
        }
    }

    private func verdict<Prepared>(
        _ value: JSONValue, _ prepare: (RedoNode) -> Prepared
    ) -> Result<Prepared, NodeValidationError> {
        do throws(NodeValidationError) { return .success(prepare(try validate(value))) } catch {
            return .failure(error)
        }
    }
}
