import CanonicalJSON
import Foundation

/// Reading a record's plaintext with the project's strict `JSONParser` rather than `JSONDecoder`
/// (issue 12 "Figures": `JSONDecoder` was a quarter of a 10,000-record pull's CPU).
///
/// `JSONDecoder` stays the reference: the parser path only ever *accepts*, and only inputs it is
/// sure `JSONDecoder` reads the same way — a strictly valid object (no repeated name, valid
/// UTF-8), every member the record needs with its exact JSON type, and integers written as
/// plain non-negative literals that fit their Swift type. Anything else (a negative time, an
/// exponent, a repeated member, a wrong type, malformed JSON) goes to `JSONDecoder`, which then
/// accepts or rejects it exactly as before. Unknown members are ignored, as `JSONDecoder` does.
/// The `contact-record` fuzz target and `ContactRecordWireParsingTests` check that whenever the
/// parser path accepts, `JSONDecoder` decodes the same record.
extension ContactRecordWire {
    /// The record in `plaintext`: the parser path when it applies, `JSONDecoder` otherwise.
    static func decode(_ plaintext: Data) throws -> ContactRecordWire {
        if let wire = parsed(plaintext) { return wire }
        return try JSONDecoder().decode(ContactRecordWire.self, from: plaintext)
    }

    /// The record read by `JSONParser`, or nil when `JSONDecoder` must decide.
    static func parsed(_ plaintext: Data) -> ContactRecordWire? {
        let limits = JSONParser.Limits(maxBytes: max(plaintext.count, 1), maxDepth: 4)
        guard let (value, integers) = try? JSONParser(limits: limits).parseKeepingIntegers(plaintext),
            case .object(let object) = value
        else { return nil }
        func integer(_ key: String) -> Int64? {
            guard case .number? = object[key], let raw = integers[key], raw <= UInt64(Int64.max) else { return nil }
            return Int64(raw)
        }
        guard let v = integer("v"), let addedAt = integer("addedAt"),
            case .number? = object["causalLength"], let causalLength = integers["causalLength"],
            case .string(let wallet)? = object["wallet"], case .string(let address)? = object["address"],
            case .bool(let isPurged)? = object["isPurged"],
            let userAlias = stringRegister(object["userAlias"]), let knsName = stringRegister(object["knsName"]),
            let isAutoAdded = boolRegister(object["isAutoAdded"]),
            let notificationsMuted = boolRegister(object["notificationsMuted"]),
            let realtimeUpdatesDisabled = boolRegister(object["realtimeUpdatesDisabled"])
        else { return nil }
        let deletedAt: String?
        switch object["deletedAt"] {
        case nil, .null?: deletedAt = nil
        case .string(let text)?: deletedAt = text
        default: return nil
        }
        let lastMessageAt: Int64?
        switch object["lastMessageAt"] {
        case nil, .null?: lastMessageAt = nil
        case .number?:
            guard let value = integer("lastMessageAt") else { return nil }
            lastMessageAt = value
        default: return nil
        }
        return ContactRecordWire(
            v: Int(v), wallet: wallet, address: address, causalLength: causalLength, isPurged: isPurged,
            deletedAt: deletedAt, addedAt: addedAt, lastMessageAt: lastMessageAt, userAlias: userAlias,
            knsName: knsName, isAutoAdded: isAutoAdded, notificationsMuted: notificationsMuted,
            realtimeUpdatesDisabled: realtimeUpdatesDisabled)
    }

    private static func stringRegister(_ value: JSONValue?) -> StringRegister? {
        guard case .object(let register)? = value, case .string(let text)? = register["value"],
            case .string(let stamp)? = register["stamp"]
        else { return nil }
        return StringRegister(value: text, stamp: stamp)
    }

    private static func boolRegister(_ value: JSONValue?) -> BoolRegister? {
        guard case .object(let register)? = value, case .bool(let flag)? = register["value"],
            case .string(let stamp)? = register["stamp"]
        else { return nil }
        return BoolRegister(value: flag, stamp: stamp)
    }
}
