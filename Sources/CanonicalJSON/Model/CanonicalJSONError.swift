/// Why a text is not I-JSON or a value cannot be canonicalized (spec §2 value rules, §4).
///
/// Offsets are byte offsets into the input.
public enum CanonicalJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is larger than the parser's size limit.
    case inputTooLarge(size: Int, limit: Int)
    /// The input is not valid UTF-8 at this offset.
    case invalidUTF8(offset: Int)
    /// The input ended inside a value.
    case unexpectedEnd
    /// A byte that cannot start or continue a value at this offset (also `NaN`, `Infinity`).
    case unexpectedByte(UInt8, offset: Int)
    /// Non-whitespace after the top-level value.
    case trailingData(offset: Int)
    /// Arrays and objects nest deeper than the limit.
    case nestingTooDeep(limit: Int)
    /// A number literal that does not follow the JSON grammar.
    case malformedNumber(offset: Int)
    /// A number literal outside the finite IEEE-754 double range (e.g. `1e400`).
    case numberOutOfRange(literal: String)
    /// A value holds NaN or an infinity, which JSON cannot represent.
    case nonFiniteNumber
    /// An object repeats a member name (compared byte-wise).
    case duplicateKey(String)
    /// A `\u` escape names a surrogate that is not part of a valid pair.
    case loneSurrogate(offset: Int)
    /// An unknown or truncated escape sequence.
    case invalidEscape(offset: Int)
    /// A raw control character (U+0000–U+001F) inside a string.
    case controlCharacterInString(offset: Int)

    public var description: String {
        switch self {
        case .inputTooLarge(let size, let limit): "JSON text of \(size) bytes exceeds the limit of \(limit)"
        case .invalidUTF8(let offset): "invalid UTF-8 at byte \(offset)"
        case .unexpectedEnd: "JSON text ends inside a value"
        case .unexpectedByte(let byte, let offset): "unexpected byte 0x\(String(byte, radix: 16)) at byte \(offset)"
        case .trailingData(let offset): "data after the JSON value at byte \(offset)"
        case .nestingTooDeep(let limit): "arrays/objects nest deeper than \(limit)"
        case .malformedNumber(let offset): "malformed number at byte \(offset)"
        case .numberOutOfRange(let literal): "number \(literal) is not a finite IEEE-754 double"
        case .nonFiniteNumber: "NaN or infinity cannot be serialized"
        case .duplicateKey(let key): "duplicate object key '\(key)'"
        case .loneSurrogate(let offset): "lone surrogate in \\u escape at byte \(offset)"
        case .invalidEscape(let offset): "invalid escape sequence at byte \(offset)"
        case .controlCharacterInString(let offset): "raw control character in string at byte \(offset)"
        }
    }
}
