/// One element of a top-level array member, as the text held it.
public struct ElementText: Sendable {
    /// The element's text, when it was byte for byte the canonical form of its value
    /// (`CanonicalJSON.canonicalBytes(of:)`); nil otherwise.
    public let canonicalText: [UInt8]?
}

extension JSONParser {
    /// Parses like `parse(_:)` and also returns, when the top-level value is an object whose
    /// member `name` is an array, each element's text in its canonical form or nil (an empty list
    /// otherwise). A sync push then keeps the nodes a client sent in canonical form as they came,
    /// instead of writing each one again (issue 49 item 6).
    public func parseNotingElements(_ bytes: some Sequence<UInt8>, ofMember name: String)
        throws(CanonicalJSONError) -> (value: JSONValue, elements: [ElementText])
    {
        let result: Result<(JSONValue, [ElementText]), CanonicalJSONError>? =
            bytes.withContiguousStorageIfAvailable { buffer in
                parseNotingElements(buffer, ofMember: name)
            }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { parseNotingElements($0, ofMember: name) }.get()
    }

    private func parseNotingElements(_ buffer: UnsafeBufferPointer<UInt8>, ofMember name: String) -> Result<
        (JSONValue, [ElementText]), CanonicalJSONError
    > {
        run(buffer) { cursor in
            cursor.elementsMember = name
        }.map { value, cursor in
            let elements = cursor.elementSpans.map { span in
                ElementText(
                    canonicalText: span.isCanonical
                        ? Array(UnsafeBufferPointer(rebasing: buffer[span.start..<span.end])) : nil)
            }
            return (value, elements)
        }
    }
}
