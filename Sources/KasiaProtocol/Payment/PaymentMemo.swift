import CanonicalJSON

/// The sealed memo of a payment (kasia-protocol §5.3, issue 43 item 3): a JSON object sealed to
/// the payee, riding in the transaction that pays them.
///
/// KaChat writes `{"type":"payment","message","amount","timestamp","version":1}` with the amount
/// in sompi (an integer); Kasia web the same members with the amount in KAS (a number, sompi ÷
/// 10^8) and one space for an empty memo. Readers show the amount on chain, not this one.
public struct PaymentMemo: Sendable, Equatable {
    /// KaChat's cap on a chat payment's memo, in characters; longer memos are refused here.
    public static let maximumCharacters = 140

    public var message: String
    public var amountSompi: UInt64
    public var timestampMilliseconds: Int64

    public init(message: String, amountSompi: UInt64, timestampMilliseconds: Int64) {
        self.message = message
        self.amountSompi = amountSompi
        self.timestampMilliseconds = timestampMilliseconds
    }

    /// The JSON text to seal for a peer reading `form`, members in RFC 8785 order.
    public func jsonText(form: KasiaPayload.PaymentForm) throws(PaymentMemoError) -> String {
        guard message.count <= Self.maximumCharacters else { throw .memoTooLong(characters: message.count) }
        // JSON numbers are exact up to 2^53: 90,071,992 KAS, more than any one payment here.
        guard amountSompi <= 1 << 53 else { throw .notEncodable("an amount above 2^53 sompi") }
        let isWeb = if case .web = form { true } else { false }
        let amount = isWeb ? Double(amountSompi) / 100_000_000 : Double(amountSompi)
        let members: [(String, JSONValue)] = [
            ("type", .string("payment")), ("message", .string(isWeb && message.isEmpty ? " " : message)),
            ("amount", .number(amount)), ("timestamp", .number(Double(timestampMilliseconds))), ("version", .number(1)),
        ]
        var writer = CanonicalWriter()
        do { try writer.write(try JSONObject(members)) } catch { throw .notEncodable("\(error)") }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// Why a payment memo cannot be written.
public enum PaymentMemoError: Error, Sendable, Equatable, CustomStringConvertible {
    case memoTooLong(characters: Int)
    /// A bug: the members are fixed and finite.
    case notEncodable(String)

    public var description: String {
        switch self {
        case .memoTooLong(let characters):
            "the memo is \(characters) characters; at most \(PaymentMemo.maximumCharacters)"
        case .notEncodable(let reason): "the memo cannot be written as JSON: \(reason)"
        }
    }
}
