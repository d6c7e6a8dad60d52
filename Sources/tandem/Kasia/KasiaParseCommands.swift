import ArgumentParser
import KasiaProtocol
import KaspaCrypto
import TandemBasics

extension KasiaCommand {
    /// `tandem kasia payload parse HEX --json`: a transaction payload, decoded.
    struct Payload: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "payload", abstract: "Transaction payload tools.", subcommands: [Parse.self])

        struct Parse: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "parse",
                abstract: "Decode a Kasia transaction payload given in hex.",
                discussion:
                    "Reads both roots (ciph_msg: and KaChat's kchat:). Prints kind, root, alias/scope/channel where present, the sealed bytes after body decoding and what the indexer stores, with the field names of the reference vectors."
            )

            @Argument(help: "The tx payload field in hex.") var hex: String
            @Flag(name: .long, help: "Print the fields as JSON.") var json = false

            struct Output: Encodable {
                let kind: String
                /// `kchat` or `ciph_msg` (kasia-protocol §16).
                let root: String
                var alias: String?
                var scope: String?
                var channel: String?
                var text: String?
                var body_encoding: String?
                var payment_form: String?
                var sealed_hex_after_body_decode: String?
                let indexer_stored_hex: String
                var indexer_alias_query_param: String?
                var indexer_scope_query_param: String?
            }

            func run() throws {
                let envelope: KasiaEnvelope
                do {
                    envelope = try KasiaEnvelope(parsingHex: hex.trimmingCharacters(in: .whitespacesAndNewlines))
                } catch {
                    throw CLIError("payload: \(error.description)")
                }
                let payload = envelope.payload
                var output = Output(
                    kind: payload.kindName, root: envelope.root.rawValue,
                    indexer_stored_hex: Hex.encode(payload.indexerStoredBody))
                output.sealed_hex_after_body_decode = payload.sealed.map(Hex.encode)
                switch payload {
                case .contextualMessage(let alias, _, let encoding):
                    output.alias = alias.rawValue
                    output.indexer_alias_query_param = alias.indexerQueryParameter
                    output.body_encoding = encoding.rawValue
                case .selfStash(let scope, _):
                    output.scope = scope
                    output.indexer_scope_query_param = scope.map { Hex.encode($0.utf8) }
                case .broadcast(let channel, let text):
                    output.channel = channel
                    output.text = text
                case .payment(_, let form):
                    output.payment_form = form.name
                    if case .web(let encoding) = form { output.body_encoding = encoding.rawValue }
                case .handshake, .legacy: break
                }
                if json {
                    try CommandIO.printJSON(output)
                } else {
                    CommandIO.write(
                        "kind: \(output.kind)\nroot: \(output.root)\n"
                            + [
                                ("alias", output.alias), ("scope", output.scope),
                                ("channel", output.channel), ("text", output.text),
                                ("sealed", output.sealed_hex_after_body_decode),
                            ].compactMap { name, value in value.map { "\(name): \($0)\n" } }.joined())
                }
            }
        }
    }
}

extension KasiaCommand {
    /// `tandem kasia handshake parse --json`: a decrypted handshake plaintext from stdin, decoded.
    struct Handshake: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "handshake", abstract: "Handshake plaintext tools.", subcommands: [Parse.self])

        struct Parse: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "parse",
                abstract: "Decode a handshake plaintext read from standard input.",
                discussion:
                    "Accepts every form clients write: legacy with alias, alias-less, camelCase and snake_case, and plaintexts that still carry the ciph_msg:1:handshake: prefix."
            )

            @Flag(name: .long, help: "Print the fields as JSON (absent fields as null).") var json = false

            struct Output: Encodable {
                let form: String
                let alias: String?
                let theirAlias: String?
                let timestamp: HandshakePayload.Timestamp?
                let version: Int
                let conversationId: String?
                let recipientAddress: String?
                let sendToRecipient: Bool?
                let isResponse: Bool
                let aliasless: Bool
                let supportsDeterministicAliases: Bool?

                enum CodingKeys: String, CodingKey {
                    case form, type, alias, theirAlias, timestamp, version, conversationId, recipientAddress
                    case sendToRecipient, isResponse, aliasless, supportsDeterministicAliases
                }

                /// Every reference key is written, `null` when absent, like the vectors' `parsed` objects.
                func encode(to encoder: any Encoder) throws {
                    var c = encoder.container(keyedBy: CodingKeys.self)
                    try c.encode(form, forKey: .form)
                    try c.encode("handshake", forKey: .type)
                    try c.encode(alias, forKey: .alias)
                    try c.encode(theirAlias, forKey: .theirAlias)
                    switch timestamp {
                    case .milliseconds(let ms): try c.encode(ms, forKey: .timestamp)
                    case .text(let text): try c.encode(text, forKey: .timestamp)
                    case nil: try c.encodeNil(forKey: .timestamp)
                    }
                    try c.encode(version, forKey: .version)
                    try c.encode(conversationId, forKey: .conversationId)
                    try c.encode(recipientAddress, forKey: .recipientAddress)
                    try c.encode(sendToRecipient, forKey: .sendToRecipient)
                    try c.encode(isResponse, forKey: .isResponse)
                    try c.encode(aliasless, forKey: .aliasless)
                    // Not in the reference objects: written only when a handshake carries the hint.
                    try c.encodeIfPresent(supportsDeterministicAliases, forKey: .supportsDeterministicAliases)
                }
            }

            func run() throws {
                let text = try CommandIO.readStandardInputText()
                let decoded: (payload: HandshakePayload, form: HandshakePayload.Form)
                do {
                    decoded = try HandshakePayload.decodeWithForm(text.trimmingCharacters(in: .whitespacesAndNewlines))
                } catch {
                    throw CLIError("handshake: \(error.description)")
                }
                let p = decoded.payload
                let output = Output(
                    form: decoded.form.rawValue, alias: p.alias?.rawValue, theirAlias: p.theirAlias?.rawValue,
                    timestamp: p.timestamp, version: p.version, conversationId: p.conversationID,
                    recipientAddress: p.recipientAddress, sendToRecipient: p.sendToRecipient, isResponse: p.isResponse,
                    aliasless: p.isAliasless, supportsDeterministicAliases: p.supportsDeterministicAliases)
                if json {
                    try CommandIO.printJSON(output)
                } else {
                    CommandIO.write(
                        "form: \(output.form)\nalias: \(output.alias ?? "-")\nversion: \(output.version)\nisResponse: \(output.isResponse)\naliasless: \(output.aliasless)\n"
                    )
                }
            }
        }
    }
}
