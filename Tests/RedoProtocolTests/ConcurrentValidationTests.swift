import CanonicalJSON
import RedoProtocol
import Testing

/// `validateConcurrently` splits the work into many small chunks (issue 12 "Figures"); each
/// value must still get exactly the verdict `validate` gives it, in the order given.
@Suite struct ConcurrentValidationTests {
    /// The vectors' valid and invalid nodes, interleaved and repeated to `count` values, so the
    /// run has many chunks and each chunk holds both kinds.
    static func mixed(count: Int) -> [JSONValue] {
        let valid = RedoVectorFile.list("validNodes").compactMap { $0["node"] }
        let invalid = RedoVectorFile.list("invalidNodes").compactMap { $0["node"] }
        let pool = zip(valid, invalid).flatMap { [$0, $1] }
        guard !pool.isEmpty else { return [] }
        return (0..<count).map { pool[$0 % pool.count] }
    }

    @Test(arguments: [0, 1, 31, 64, 250, 1_001])
    func verdictsEqualSequentialValidationInOrder(count: Int) async throws {
        let values = Self.mixed(count: count)
        try #require(values.count == count)
        let validator = NodeValidator(signaturePolicy: .required)
        let sequential = values.map { value -> Result<String, NodeValidationError> in
            do throws(NodeValidationError) { return .success(try validator.validate(value).id.description) } catch {
                return .failure(error)
            }
        }
        let concurrent = await validator.validateConcurrently(values).map { $0.map(\.id.description) }
        #expect(concurrent == sequential)
        let prepared = await validator.validateConcurrently(values) { $0.id.description }
        #expect(prepared == sequential)
        if count > 31 {
            #expect(sequential.contains { (try? $0.get()) != nil })
            #expect(sequential.contains { (try? $0.get()) == nil })
        }
    }
}
