import CanonicalJSON

/// Any bytes: parse either rejects them or yields a value whose canonical text parses back to
/// the same value and is a fixed point of canonicalization (spec §4, RFC 8785), and which the
/// streaming writer hands on unchanged; the parser says the text was canonical exactly when it
/// equals that canonical text.
enum CanonicalJSONFuzz {
    static func run(_ bytes: [UInt8]) {
        guard let value = try? CanonicalJSON.parse(bytes) else { return }
        guard let canonical = try? CanonicalJSON.canonicalBytes(of: value) else {
            // Parsed values are I-JSON, so they always have a canonical form.
            return invariant(false, "a parsed value has no canonical form")
        }
        guard let reparsed = try? CanonicalJSON.parse(canonical) else {
            return invariant(false, "canonical output does not parse")
        }
        invariant(reparsed == value, "parse ∘ write changed the value")
        invariant((try? CanonicalJSON.canonicalize(canonical)) == canonical, "canonical output is not a fixed point")
        // The streaming writer (content ids) hands on the same bytes, in chunks.
        var streamed: [UInt8] = []
        var streamFailed = false
        do {
            try CanonicalWriter.stream { output throws(CanonicalJSONError) in
                try output.write(value)
            } into: {
                streamed.append(contentsOf: $0)
            }
        } catch {
            streamFailed = true
        }
        invariant(!streamFailed && streamed == canonical, "the streaming writer disagrees with the writer")
        // The parser's own verdict on the form is exact, and a canonical object's remainder is
        // the writer's text of the object without the omitted member.
        let omitted = value.objectValue?.keys.first.map { [$0] } ?? []
        guard let form = try? JSONParser().parseNotingForm(bytes, omitting: omitted) else {
            return invariant(false, "parseNotingForm rejected what parse accepted")
        }
        invariant(form.isCanonical == (canonical == bytes), "the canonical verdict disagrees with the writer")
        // The elements of the first member's array (what a sync push stores as sent): each text
        // noted is the writer's text of that element, all of them when the whole was canonical.
        if let object = value.objectValue, let key = object.keys.first {
            guard let noted = try? JSONParser().parseNotingElements(bytes, ofMember: key) else {
                return invariant(false, "parseNotingElements rejected what parse accepted")
            }
            invariant(noted.value == value, "parseNotingElements read another value")
            let elements = object[key]?.arrayValue ?? []
            invariant(noted.elements.count == elements.count, "an element was not noted, or one too many")
            for (element, note) in zip(elements, noted.elements) {
                if let text = note.canonicalText {
                    invariant(text == (try? CanonicalJSON.canonicalBytes(of: element)), "a noted text is not canonical")
                } else {
                    invariant(!form.isCanonical, "an element of a canonical text was not noted as canonical")
                }
            }
        }
        if form.isCanonical, let object = value.objectValue {
            invariant(
                form.remainder?.bytes
                    == (try? CanonicalJSON.canonicalBytes(of: .object(object.removing(Set(omitted))))),
                "a canonical object's remainder is not the writer's text of its kept members")
        }
    }
}
