import TandemBasics

/// The compact binary form of a record's replicated state, as the store keeps it in one BLOB
/// column. Binding one blob instead of a dozen columns makes a 10,000-record merge several
/// times cheaper; sync uses the JSON form (``ContactsSyncCipher``), never this one.
///
/// Layout (little-endian), version 1:
/// `u8 version=1 ‖ u64 causalLength ‖ u8 flags (1 purged, 2 deletedAt, 4 lastMessageAt) ‖
/// [stamp deletedAt] ‖ i64 addedAt ‖ [i64 lastMessageAt] ‖ string userAlias ‖ stamp ‖
/// string knsName ‖ stamp ‖ 3 × (u8 bool ‖ stamp)` for isAutoAdded, notificationsMuted,
/// realtimeUpdatesDisabled; `string = u32 length ‖ UTF-8`, `stamp = i64 wall ‖ u16 counter ‖
/// u8 length ‖ replica`.
enum ContactRecordCodec {
    static let version: UInt8 = 1

    static func encode(_ record: ContactRecord) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        let p = record.payload
        out.append(version)
        append(record.causalLength, to: &out)
        var flags: UInt8 = record.isPurged ? 1 : 0
        if record.deletedAt != nil { flags |= 2 }
        if p.lastMessageAt != nil { flags |= 4 }
        out.append(flags)
        if let deletedAt = record.deletedAt { append(deletedAt, to: &out) }
        append(UInt64(bitPattern: p.addedAt.rawValue), to: &out)
        if let last = p.lastMessageAt { append(UInt64(bitPattern: last.rawValue), to: &out) }
        for register in [p.userAlias, p.knsName] {
            let utf8 = register.value.utf8
            append(UInt32(truncatingIfNeeded: utf8.count), to: &out)
            out.append(contentsOf: utf8)
            append(register.stamp, to: &out)
        }
        for register in [p.isAutoAdded, p.notificationsMuted, p.realtimeUpdatesDisabled] {
            out.append(register.value ? 1 : 0)
            append(register.stamp, to: &out)
        }
        return out
    }

    /// Decodes ``encode(_:)``; nil when the bytes are not a version-1 record.
    static func decode(_ bytes: UnsafeRawBufferPointer, key: ContactKey) -> ContactRecord? {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == version, let length = reader.u64(), let flags = reader.byte() else { return nil }
        var deletedAt: HLCTimestamp?
        if flags & 2 != 0 {
            guard let stamp = reader.stamp() else { return nil }
            deletedAt = stamp
        }
        guard let added = reader.u64() else { return nil }
        var lastMessageAt: UnixMillis?
        if flags & 4 != 0 {
            guard let last = reader.u64() else { return nil }
            lastMessageAt = UnixMillis(Int64(bitPattern: last))
        }
        guard let userAlias = reader.stringRegister(), let knsName = reader.stringRegister(),
            let autoAdded = reader.boolRegister(), let muted = reader.boolRegister(),
            let realtimeOff = reader.boolRegister(), reader.isAtEnd
        else { return nil }
        return ContactRecord(
            key: key, causalLength: length, isPurged: flags & 1 != 0, deletedAt: deletedAt,
            payload: ContactPayload(
                addedAt: UnixMillis(Int64(bitPattern: added)), lastMessageAt: lastMessageAt,
                userAlias: userAlias, knsName: knsName, isAutoAdded: autoAdded,
                notificationsMuted: muted, realtimeUpdatesDisabled: realtimeOff))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    private static func append(_ stamp: HLCTimestamp, to out: inout [UInt8]) {
        append(UInt64(bitPattern: stamp.wallMillis), to: &out)
        append(stamp.counter, to: &out)
        let replica = stamp.replica.rawValue.utf8
        out.append(UInt8(truncatingIfNeeded: replica.count))
        out.append(contentsOf: replica)
    }

    /// A bounds-checked cursor over the bytes.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func integer<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            let size = MemoryLayout<T>.size
            guard bytes.count - offset >= size else { return nil }
            var value: T = 0
            withUnsafeMutableBytes(of: &value) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + size]))
            }
            offset += size
            return T(littleEndian: value)
        }

        mutating func u64() -> UInt64? { integer(UInt64.self) }

        mutating func text(count: Int) -> String? {
            guard count >= 0, bytes.count - offset >= count else { return nil }
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }

        mutating func stamp() -> HLCTimestamp? {
            guard let wall = u64(), let counter = integer(UInt16.self), let length = byte(),
                let name = text(count: Int(length)), let replica = try? ReplicaID(name)
            else { return nil }
            return HLCTimestamp(wallMillis: Int64(bitPattern: wall), counter: counter, replica: replica)
        }

        mutating func stringRegister() -> LWWRegister<String>? {
            guard let length = integer(UInt32.self), let value = text(count: Int(length)), let stamp = stamp() else {
                return nil
            }
            return LWWRegister(value, stamp: stamp)
        }

        mutating func boolRegister() -> LWWRegister<Bool>? {
            guard let raw = byte(), raw <= 1, let stamp = stamp() else { return nil }
            return LWWRegister(raw == 1, stamp: stamp)
        }
    }
}
