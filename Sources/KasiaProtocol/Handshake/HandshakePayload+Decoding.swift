import CanonicalJSON

extension HandshakePayload {
    /// What an old web client put before the JSON: the handshake's own payload prefix, under
    /// either root (kasia-protocol §5.1, §16).
    static let envelopePrefixes = KasiaRoot.allCases.map { String(decoding: $0.prefix, as: UTF8.self) + "1:handshake:" }

    /// Decodes every form clients write (kasia-protocol §5.1): legacy alias-bearing, alias-less
    /// deterministic, camelCase and snake_case, and plaintexts that still carry the
    /// `ciph_msg:1:handshake:` (or `kchat:1:handshake:`) prefix. An alias is only ever read from
    /// the `alias` field — never from the first 12 characters of the plaintext, as an older
    /// KaChat fallback did.
    public init(decoding plaintext: String) throws(HandshakeError) {
        self = try Self.decodeWithForm(plaintext).payload
    }

    /// Decodes and reports which form the plaintext had.
    public static func decodeWithForm(_ plaintext: String) throws(HandshakeError) -> (
        payload: HandshakePayload, form: Form
    ) {
        var text = Substring(plaintext)
        var form = Form.json
        if let prefix = envelopePrefixes.first(where: { text.hasPrefix($0) }) {
            text = text.dropFirst(prefix.count)
            form = .prefixedJSON
        }
        return (try HandshakePayload(object: parseObject(text)), form)
    }

    /// Builds the payload from an already-parsed object (shared with the self-stash decoder).
    init(object: JSONObject) throws(HandshakeError) {
        let fields = HandshakeFields(object)
        if let type = try fields.string("type"), type != "handshake" { throw .notAHandshake(type: type) }
        let version = try fields.number("version") ?? 1
        guard version <= 1 else { throw .unsupportedVersion(version) }
        guard version >= 0, version == version.rounded() else { throw .invalidField("version") }
        self.init(
            alias: try fields.alias("alias"),
            theirAlias: try fields.alias("theirAlias", "their_alias"),
            timestamp: try fields.timestamp(),
            version: Int(version),
            conversationID: try fields.string("conversationId", "conversation_id"),
            recipientAddress: try fields.string("recipientAddress", "recipient_address"),
            sendToRecipient: try fields.bool("sendToRecipient", "send_to_recipient"),
            isResponse: try fields.bool("isResponse", "is_response") ?? false,
            supportsDeterministicAliases: try fields.bool(
                "supportsDeterministicAliases", "supports_deterministic_aliases")
        )
    }

    static func parseObject(_ text: Substring) throws(HandshakeError) -> JSONObject {
        let value: JSONValue
        do {
            value = try JSONParser(limits: .init(maxBytes: 64 << 10, maxDepth: 16)).parse(text.utf8)
        } catch {
            throw .notJSON(error.description)
        }
        guard case .object(let object) = value else { throw .notAnObject }
        return object
    }
}

/// Reads a handshake object's fields under their camelCase or snake_case names. JSON `null`
/// counts as absent, as Swift's `decodeIfPresent` treats it in KaChat.
struct HandshakeFields {
    let object: JSONObject

    init(_ object: JSONObject) { self.object = object }

    func value(_ names: [String]) -> JSONValue? {
        for name in names {
            if let value = object[name], value != .null { return value }
        }
        return nil
    }

    func string(_ names: String...) throws(HandshakeError) -> String? {
        guard let value = value(names) else { return nil }
        guard case .string(let text) = value else { throw .invalidField(names[0]) }
        return text
    }

    func bool(_ names: String...) throws(HandshakeError) -> Bool? {
        guard let value = value(names) else { return nil }
        guard case .bool(let flag) = value else { throw .invalidField(names[0]) }
        return flag
    }

    func number(_ names: String...) throws(HandshakeError) -> Double? {
        guard let value = value(names) else { return nil }
        guard case .number(let number) = value else { throw .invalidField(names[0]) }
        return number
    }

    func alias(_ names: String...) throws(HandshakeError) -> Alias? {
        guard let value = value(names) else { return nil }
        guard case .string(let text) = value, let alias = try? Alias(text) else { throw .invalidAlias(field: names[0]) }
        return alias
    }

    func timestamp() throws(HandshakeError) -> HandshakePayload.Timestamp? {
        switch value(["timestamp"]) {
        case nil: return nil
        case .string(let text): return .text(text)
        case .number(let ms) where ms == ms.rounded() && abs(ms) < 9.2e18: return .milliseconds(Int64(ms))
        default: throw .invalidField("timestamp")
        }
    }
}
