/// One output: an amount in sompi and the script that locks it.
public struct KaspaTransactionOutput: Sendable, Hashable, Codable {
    public var value: UInt64
    public var scriptPublicKey: KaspaScriptPublicKey

    public init(value: UInt64, scriptPublicKey: KaspaScriptPublicKey) {
        self.value = value
        self.scriptPublicKey = scriptPublicKey
    }

    private enum CodingKeys: String, CodingKey { case value, scriptPublicKey, covenant }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(UInt64.self, forKey: .value)
        scriptPublicKey = try container.decode(KaspaScriptPublicKey.self, forKey: .scriptPublicKey)
        // Covenant bindings exist only in later transaction versions, which this module does not build.
        if container.contains(.covenant), !(try container.decodeNil(forKey: .covenant)) {
            throw DecodingError.dataCorruptedError(
                forKey: .covenant, in: container, debugDescription: "covenant: output covenants are not supported")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(value, forKey: .value)
        try container.encode(scriptPublicKey, forKey: .scriptPublicKey)
        try container.encodeNil(forKey: .covenant)
    }
}
