import Foundation

/// The record's sync plaintext bytes (DocC "Record format": JSON with sorted keys, slashes not
/// escaped), written directly rather than through `JSONEncoder` (issue 12 "Figures": encoding
/// each record twice per full sync took a third of a 10,000-record pull).
///
/// The bytes must equal `JSONEncoder`'s with `[.sortedKeys, .withoutEscapingSlashes]` exactly:
/// the digest of a record is what the sync state remembers, so a different byte would push every
/// record again. So only the plain case is written here — integers, booleans, and strings with
/// no quote, backslash or control character, which `JSONEncoder` copies as they are — and any
/// other record goes through `JSONEncoder` itself. `ContactRecordWirePlaintextTests` compares
/// both writers on random and edge-case records.
extension ContactRecordWire {
    /// The plaintext that ``ContactsSyncCipher/seal(_:)`` encrypts and ``ContactRecord/syncDigest``
    /// hashes.
    func plaintext() throws -> Data {
        if let bytes = plainBytes() { return Data(bytes) }
        return try Self.encoderBytes(self)
    }

    /// What `JSONEncoder` writes for `wire`, the reference the fast path must equal.
    static func encoderBytes(_ wire: ContactRecordWire) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(wire)
    }

    /// The sorted-key JSON bytes, or nil when a string needs escaping.
    func plainBytes() -> [UInt8]? {
        let strings = [
            wallet, address, deletedAt ?? "", userAlias.value, userAlias.stamp, knsName.value, knsName.stamp,
            isAutoAdded.stamp, notificationsMuted.stamp, realtimeUpdatesDisabled.stamp,
        ]
        guard strings.allSatisfy(Self.isPlain) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(512)
        func raw(_ text: String) { out.append(contentsOf: text.utf8) }
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
        }
        func key(_ name: String, first: Bool = false) {
            if !first { out.append(UInt8(ascii: ",")) }
            string(name)
            out.append(UInt8(ascii: ":"))
        }
        func register(_ value: () -> Void, stamp: String) {
            raw(#"{"stamp":"#)
            string(stamp)
            raw(#","value":"#)
            value()
            raw("}")
        }
        raw("{")
        key("addedAt", first: true)
        raw(String(addedAt))
        key("address")
        string(address)
        key("causalLength")
        raw(String(causalLength))
        if let deletedAt {
            key("deletedAt")
            string(deletedAt)
        }
        key("isAutoAdded")
        register({ raw(isAutoAdded.value ? "true" : "false") }, stamp: isAutoAdded.stamp)
        key("isPurged")
        raw(isPurged ? "true" : "false")
        key("knsName")
        register({ string(knsName.value) }, stamp: knsName.stamp)
        if let lastMessageAt {
            key("lastMessageAt")
            raw(String(lastMessageAt))
        }
        key("notificationsMuted")
        register({ raw(notificationsMuted.value ? "true" : "false") }, stamp: notificationsMuted.stamp)
        key("realtimeUpdatesDisabled")
        register({ raw(realtimeUpdatesDisabled.value ? "true" : "false") }, stamp: realtimeUpdatesDisabled.stamp)
        key("userAlias")
        register({ string(userAlias.value) }, stamp: userAlias.stamp)
        key("v")
        raw(String(v))
        key("wallet")
        string(wallet)
        raw("}")
        return out
    }

    /// Printable ASCII that `JSONEncoder` copies as it is: no quote, backslash or control
    /// character (anything else takes the `JSONEncoder` path).
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }
}
