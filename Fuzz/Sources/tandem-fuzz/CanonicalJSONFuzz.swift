import CanonicalJSON

/// Any bytes: parse either rejects them or yields a value whose canonical text parses back to
/// the same value and is a fixed point of canonicalization (spec §4, RFC 8785).
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
    }
}
