import TandemBasics

/// A refused call: the node's error text, sent as `{"error": {"code": 0, "message": …}}`.
struct RPCFailure: Error, Sendable {
    var message: String

    init(_ message: String) { self.message = message }

    // The texts of kaspa-node.md §4 and §6 that are not submit rejections.
    static let noUtxoIndex = RPCFailure("Method unavailable. Run the node with the --utxoindex argument.")
    static let safeMode = RPCFailure("Method unavailable in safe mode. Run the node with --unsaferpc argument.")
    static let syncing = RPCFailure("consensus is currently in a transitional ibd state")
    static let notImplemented = RPCFailure("Not implemented")
    /// Params that do not read as the method's (kaspa-node.md §11).
    static let deserialization = RPCFailure("request deserialization error")
    /// A chain walk at Low or above over an output with a non-standard script: the address
    /// conversion's failure fails the whole call (kaspa-node.md §11).
    static let invalidAddress = RPCFailure("The address is invalid")
    static let inconsistentQuery = RPCFailure(
        "transaction query must either not filter transactions or include orphans")

    /// A chain walk from a block the node does not know: rusty-kaspa's text (kaspa-node.md §11),
    /// the one refusal that sends a walk back to its fallback start.
    static func unknownStartHash(_ hash: [UInt8]) -> RPCFailure {
        RPCFailure("cannot find header \(Hex.encode(hash))")
    }
}
