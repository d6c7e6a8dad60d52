/// Error codes of PROTOCOL.md §5.1 plus the reference's pruning reasons (spec §6.1).
public enum RedoCode: String, Sendable, CaseIterable, Codable {
    case invalidSignature = "E_INVALID_SIGNATURE"
    case schemaMismatch = "E_SCHEMA_MISMATCH"
    case hashMismatch = "E_HASH_MISMATCH"
    case encodingViolation = "E_ENCODING_VIOLATION"
    case forbiddenField = "E_FORBIDDEN_FIELD"
    case duplicateCreate = "E_DUPLICATE_CREATE"
    case invalidTodoRef = "E_INVALID_TODO_REF"
    case missingDeletedChain = "E_MISSING_DELETED_CHAIN"
    case lamportViolation = "E_LAMPORT_VIOLATION"
    case parentNotFound = "E_PARENT_NOT_FOUND"
    /// A parent was rejected, so this node is too (Broken Branch, §7.3).
    case ancestorRejected = "R_ANCESTOR_REJECTED"
    /// A parent is a DELETE tombstone (§7.4).
    case descendantOfDelete = "R_DESCENDANT_OF_DELETE"
    /// A parent is pending, so this node waits too (RES-12).
    case ancestorPending = "R_ANCESTOR_PENDING"
}

/// Why a node failed the standalone checks of spec §6.2; the associated text names the member.
public enum NodeValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    case schemaMismatch(String)
    case encodingViolation(String)
    case forbiddenField(String)
    case missingDeletedChain(String)
    case lamportViolation(String)
    case hashMismatch(String)
    case invalidSignature(String)

    public var code: RedoCode {
        switch self {
        case .schemaMismatch: .schemaMismatch
        case .encodingViolation: .encodingViolation
        case .forbiddenField: .forbiddenField
        case .missingDeletedChain: .missingDeletedChain
        case .lamportViolation: .lamportViolation
        case .hashMismatch: .hashMismatch
        case .invalidSignature: .invalidSignature
        }
    }

    public var detail: String {
        switch self {
        case .schemaMismatch(let text), .encodingViolation(let text), .forbiddenField(let text),
            .missingDeletedChain(let text), .lamportViolation(let text), .hashMismatch(let text),
            .invalidSignature(let text):
            text
        }
    }

    public var description: String { "\(code.rawValue): \(detail)" }
}
