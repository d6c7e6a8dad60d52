import CanonicalJSON

extension HandshakePayload {
    /// What a handshake write carries about aliases (seed 000 §4.4, Phase 3).
    public enum AliasPolicy: Sendable, Equatable {
        /// For unknown or legacy peers: include `alias` = the sender's actual outgoing alias for
        /// that peer (the deterministic `theirAlias` once deterministic), plus KaChat's fields.
        case compatibility(outgoingAlias: Alias)
        /// Only for peers confirmed deterministic: type, timestamp, version, isResponse.
        case aliasless
    }

    /// A handshake to send, always `version` 1 (old web rejects anything higher).
    ///
    /// The compatibility form mirrors KaChat HEAD: camelCase fields plus the snake_case
    /// duplicates older iOS builds read, `sendToRecipient: true`, `isResponse` only on responses.
    public static func outgoing(
        policy: AliasPolicy, timestampMilliseconds: Int64, isResponse: Bool,
        recipientAddress: String, conversationID: String?
    ) -> HandshakePayload {
        switch policy {
        case .aliasless:
            return HandshakePayload(timestamp: .milliseconds(timestampMilliseconds), isResponse: isResponse)
        case .compatibility(let alias):
            return HandshakePayload(
                alias: alias, timestamp: .milliseconds(timestampMilliseconds), conversationID: conversationID,
                recipientAddress: recipientAddress, sendToRecipient: true, isResponse: isResponse)
        }
    }

    /// The JSON text to seal. Alias-bearing payloads also get the snake_case duplicates; keys are
    /// written in RFC 8785 order so the bytes are reproducible.
    public var jsonText: String {
        get throws(HandshakeError) {
            var members: [(String, JSONValue)] = [
                ("type", .string("handshake")), ("version", .number(Double(version))),
            ]
            if let timestamp {
                switch timestamp {
                case .milliseconds(let ms): members.append(("timestamp", .number(Double(ms))))
                case .text(let text): members.append(("timestamp", .string(text)))
                }
            }
            if let alias { members.append(("alias", .string(alias.rawValue))) }
            if let theirAlias { members.append(("theirAlias", .string(theirAlias.rawValue))) }
            let withSnake = !isAliasless
            func add(_ camel: String, _ snake: String, _ value: JSONValue?) {
                guard let value else { return }
                members.append((camel, value))
                if withSnake { members.append((snake, value)) }
            }
            add("conversationId", "conversation_id", conversationID.map(JSONValue.string))
            add("recipientAddress", "recipient_address", recipientAddress.map(JSONValue.string))
            add("sendToRecipient", "send_to_recipient", sendToRecipient.map(JSONValue.bool))
            if isResponse { add("isResponse", "is_response", .bool(true)) }
            if let supportsDeterministicAliases {
                members.append(("supportsDeterministicAliases", .bool(supportsDeterministicAliases)))
            }
            return try Self.canonicalText(members)
        }
    }

    /// Canonical JSON of distinct keys. Callers never repeat a key or write a non-finite number,
    /// so a failure is a bug; it surfaces as ``HandshakeError/notEncodable(_:)``, never as a
    /// placeholder text that would be sealed and sent.
    static func canonicalText(_ members: [(String, JSONValue)]) throws(HandshakeError) -> String {
        var writer = CanonicalWriter()
        do {
            try writer.write(try JSONObject(members))
        } catch {
            throw .notEncodable("\(error)")
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
