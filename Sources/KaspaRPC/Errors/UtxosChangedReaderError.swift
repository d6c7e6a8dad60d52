import KaspaCrypto
import TandemBasics

/// Why ``UtxosChangedReader`` did not read a frame, and the offset of the byte where it stopped.
///
/// Callers never see it: ``RPCFrame/inbound(_:)`` hands such a frame to `JSONDecoder`, whose
/// verdict (a value, or an ``RPCFrameError`` with its text) is the one callers get. The reader
/// stops on every frame `JSONDecoder` refuses and on some it reads (see ``FrameScanner``).
struct UtxosChangedReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    enum Reason: Equatable, Sendable {
        /// An answer (an `id` that is not null) or another notification.
        case otherFrame
        case unexpected(expected: String)
        /// A member the reader uses, twice in one object (`JSONDecoder` keeps the first).
        case duplicateMember(String)
        case missingMember(String)
        /// A notification with an `error` member that is not null.
        case errorMember
        /// A sign, fraction, exponent or leading zero, or beyond the member's type.
        case unsupportedNumber
        /// A byte or an escape outside ASCII in a string.
        case nonASCIIString
        /// Nested deeper than ``FrameScanner/maximumDepth``.
        case tooDeep
        case invalidHex(member: String, Hex.DecodingError)
        case byteCount(member: String, expected: String, got: Int)
        case invalidAddress(KaspaAddressError)
    }

    var offset: Int
    var reason: Reason

    var description: String {
        let what =
            switch reason {
            case .otherFrame: "not a UtxosChanged notification"
            case .unexpected(let expected): "expected \(expected)"
            case .duplicateMember(let name): "member '\(name)' appears twice"
            case .missingMember(let name): "member '\(name)' is missing"
            case .errorMember: "a notification with an error member"
            case .unsupportedNumber: "a number other than plain digits within range"
            case .nonASCIIString: "a string with non-ASCII text"
            case .tooDeep: "nested deeper than \(FrameScanner.maximumDepth)"
            case .invalidHex(let member, let error): "\(member): \(error)"
            case .byteCount(let member, let expected, let got): "\(member): expected \(expected) bytes, got \(got)"
            case .invalidAddress(let error): "address: \(error)"
            }
        return "UtxosChanged reader stopped at byte \(offset): \(what)"
    }
}
