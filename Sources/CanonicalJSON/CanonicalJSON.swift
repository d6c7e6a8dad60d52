/// Entry points for RFC 8785 canonical JSON (spec §4).
public enum CanonicalJSON {
    /// Parses strict I-JSON from UTF-8 bytes.
    public static func parse(_ bytes: some Sequence<UInt8>, limits: JSONParser.Limits = .init())
        throws(CanonicalJSONError) -> JSONValue
    {
        try JSONParser(limits: limits).parse(bytes)
    }

    /// The canonical UTF-8 bytes of a value.
    public static func canonicalBytes(of value: JSONValue) throws(CanonicalJSONError) -> [UInt8] {
        var writer = CanonicalWriter()
        try writer.write(value)
        return writer.bytes
    }

    /// The canonical UTF-8 bytes of a JSON text: parse, then serialize.
    public static func canonicalize(_ bytes: some Sequence<UInt8>, limits: JSONParser.Limits = .init())
        throws(CanonicalJSONError) -> [UInt8]
    {
        try canonicalBytes(of: parse(bytes, limits: limits))
    }

    /// The canonical text of a value.
    public static func canonicalString(of value: JSONValue) throws(CanonicalJSONError) -> String {
        String(decoding: try canonicalBytes(of: value), as: UTF8.self)
    }
}
