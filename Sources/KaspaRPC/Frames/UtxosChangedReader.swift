import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemBasics

/// Reads a `utxosChangedNotification` frame (kaspa-node.md §2; its entries are §3's "UtxoEntry (by
/// address)") in one pass over its bytes.
///
/// Issue 24 asks for a 1,000-entry UtxosChanged read and applied in < 10 ms; `JSONDecoder` took
/// ≈ 7 µs for each of its 2,000 entries, mostly in keyed containers, then bech32-checked the same
/// address text in every entry (BENCHMARKS.md, session 10). This reader makes no containers and
/// checks each distinct address text once per frame.
///
/// For every frame it reads, the value is the one ``RPCFrame/decodedInbound(_:)`` reads:
/// members in any order and around unknown members, whitespace, escapes, `address` null or absent,
/// `blockDaaScore` and `isCoinbase` null or absent (0 and false), `covenantId` anything. Any other
/// frame stops it with a ``UtxosChangedReaderError``, and ``RPCFrame/inbound(_:)`` hands that frame
/// to `JSONDecoder`: answers, other notifications, frames `JSONDecoder` refuses, and the forms the
/// node does not write that `JSONDecoder` reads anyway (numbers with a fraction or an exponent, a
/// member twice, `scriptPublicKey` as `{"version", "script"}`, non-ASCII strings; see
/// ``FrameScanner``).
struct UtxosChangedReader {
    private var scanner: FrameScanner
    /// Addresses read so far, by their text in the frame, and the last one read (most entries of
    /// a wallet's notification have the one before's address: no hashing then).
    private var addresses: [ArraySlice<UInt8>: KaspaAddress] = [:]
    private var lastAddress: (text: ArraySlice<UInt8>, address: KaspaAddress)?

    private static let method = Array(RPCNotificationMethod.utxosChanged.rawValue.utf8)

    /// The change a UtxosChanged frame carries.
    static func read(_ frame: Data) throws(UtxosChangedReaderError) -> RPCUtxosChanged {
        try read(Array(frame))
    }

    static func read(_ bytes: [UInt8]) throws(UtxosChangedReaderError) -> RPCUtxosChanged {
        var reader = UtxosChangedReader(scanner: FrameScanner(bytes))
        return try reader.frame()
    }

    /// `{"method": "utxosChangedNotification", "params": {...}}`, `id` and `error` null or absent.
    private mutating func frame() throws(UtxosChangedReaderError) -> RPCUtxosChanged {
        var sawID = false
        var sawMethod = false
        var sawError = false
        var change: RPCUtxosChanged?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "id":
                try markRead(&sawID, name)
                guard scanner.null() else { throw scanner.refusal(.otherFrame) }
            case "method":
                try markRead(&sawMethod, name)
                guard try scanner.string().elementsEqual(Self.method) else { throw scanner.refusal(.otherFrame) }
            case "error":
                try markRead(&sawError, name)
                guard scanner.null() else { throw scanner.refusal(.errorMember) }
            case "params":
                try refuseRepeat(change != nil, name)
                change = try params()
            default: try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard sawMethod else { throw scanner.refusal(.missingMember("method")) }
        guard let change else { throw scanner.refusal(.missingMember("params")) }
        return change
    }

    /// `{"UtxosChanged": {"added": [...], "removed": [...]}}`.
    private mutating func params() throws(UtxosChangedReaderError) -> RPCUtxosChanged {
        var change: RPCUtxosChanged?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "UtxosChanged":
                try refuseRepeat(change != nil, name)
                change = try body()
            default: try scanner.skipValue()
            }
        }
        guard let change else { throw scanner.refusal(.missingMember("UtxosChanged")) }
        return change
    }

    private mutating func body() throws(UtxosChangedReaderError) -> RPCUtxosChanged {
        var added: [RPCUtxosByAddressesEntry]?
        var removed: [RPCUtxosByAddressesEntry]?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "added":
                try refuseRepeat(added != nil, name)
                added = try entries()
            case "removed":
                try refuseRepeat(removed != nil, name)
                removed = try entries()
            default: try scanner.skipValue()
            }
        }
        guard let added else { throw scanner.refusal(.missingMember("added")) }
        guard let removed else { throw scanner.refusal(.missingMember("removed")) }
        return RPCUtxosChanged(added: added, removed: removed)
    }

    private mutating func entries() throws(UtxosChangedReaderError) -> [RPCUtxosByAddressesEntry] {
        var entries: [RPCUtxosByAddressesEntry] = []
        try scanner.enterArray()
        while try scanner.nextElement() { entries.append(try entry()) }
        return entries
    }

    /// `{"address", "outpoint", "utxoEntry"}` (`RpcUtxosByAddressesEntry`).
    private mutating func entry() throws(UtxosChangedReaderError) -> RPCUtxosByAddressesEntry {
        var address: KaspaAddress?
        var sawAddress = false
        var outpoint: KaspaOutpoint?
        var utxoEntry: RPCUtxoEntry?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "address":
                try markRead(&sawAddress, name)
                address = scanner.null() ? nil : try self.address()
            case "outpoint":
                try refuseRepeat(outpoint != nil, name)
                outpoint = try self.outpoint()
            case "utxoEntry":
                try refuseRepeat(utxoEntry != nil, name)
                utxoEntry = try self.utxoEntry()
            default: try scanner.skipValue()
            }
        }
        guard let outpoint else { throw scanner.refusal(.missingMember("outpoint")) }
        guard let utxoEntry else { throw scanner.refusal(.missingMember("utxoEntry")) }
        return RPCUtxosByAddressesEntry(address: address, outpoint: outpoint, utxoEntry: utxoEntry)
    }

    /// An address's text, parsed (and its checksum checked) the first time the frame has it.
    private mutating func address() throws(UtxosChangedReaderError) -> KaspaAddress {
        let text = try scanner.string()
        if let lastAddress, lastAddress.text == text { return lastAddress.address }
        let address: KaspaAddress
        if let known = addresses[text] {
            address = known
        } else {
            do { address = try KaspaAddress(String(decoding: text, as: UTF8.self)) } catch {
                throw scanner.refusal(.invalidAddress(error))
            }
            addresses[text] = address
        }
        lastAddress = (text, address)
        return address
    }

    /// `{"transactionId": 64 hex digits, "index": u32}`.
    private mutating func outpoint() throws(UtxosChangedReaderError) -> KaspaOutpoint {
        var transactionID: [UInt8]?
        var index: UInt32?
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "transactionId":
                try refuseRepeat(transactionID != nil, name)
                let bytes = try hex("transactionId")
                guard bytes.count == 32 else {
                    throw scanner.refusal(.byteCount(member: "transactionId", expected: "32", got: bytes.count))
                }
                transactionID = bytes
            case "index":
                try refuseRepeat(index != nil, name)
                guard let value = UInt32(exactly: try scanner.unsignedInteger()) else {
                    throw scanner.refusal(.unsupportedNumber)
                }
                index = value
            default: try scanner.skipValue()
            }
        }
        guard let transactionID else { throw scanner.refusal(.missingMember("transactionId")) }
        guard let index else { throw scanner.refusal(.missingMember("index")) }
        return KaspaOutpoint(transactionID: transactionID, index: index)
    }

    /// `{"amount", "scriptPublicKey", "blockDaaScore", "isCoinbase", "covenantId"}` (`RpcUtxoEntry`).
    private mutating func utxoEntry() throws(UtxosChangedReaderError) -> RPCUtxoEntry {
        var amount: UInt64?
        var script: KaspaScriptPublicKey?
        var daaScore: UInt64?
        var sawDaaScore = false
        var isCoinbase: Bool?
        var sawCoinbase = false
        try scanner.enterObject()
        while let name = try scanner.nextMember() {
            switch name {
            case "amount":
                try refuseRepeat(amount != nil, name)
                amount = try scanner.unsignedInteger()
            case "scriptPublicKey":
                try refuseRepeat(script != nil, name)
                let bytes = try hex("scriptPublicKey")
                guard let value = RPCScriptPublicKey.value(wireBytes: bytes) else {
                    throw scanner.refusal(
                        .byteCount(member: "scriptPublicKey", expected: "at least 2", got: bytes.count))
                }
                script = value
            case "blockDaaScore":
                try markRead(&sawDaaScore, name)
                daaScore = scanner.null() ? nil : try scanner.unsignedInteger()
            case "isCoinbase":
                try markRead(&sawCoinbase, name)
                isCoinbase = scanner.null() ? nil : try scanner.boolean()
            default: try scanner.skipValue()
            }
        }
        guard let amount else { throw scanner.refusal(.missingMember("amount")) }
        guard let script else { throw scanner.refusal(.missingMember("scriptPublicKey")) }
        return RPCUtxoEntry(
            amount: amount, scriptPublicKey: script, blockDaaScore: daaScore ?? 0, isCoinbase: isCoinbase ?? false)
    }

    /// A hex string member's bytes, either case as `Hex.decode` reads them.
    private mutating func hex(_ member: String) throws(UtxosChangedReaderError) -> [UInt8] {
        let text = try scanner.string()
        do { return try Hex.decode(utf8: text) } catch { throw scanner.refusal(.invalidHex(member: member, error)) }
    }

    /// `JSONDecoder` keeps the first of a repeated member; the reader leaves such frames to it.
    private func refuseRepeat(_ seen: Bool, _ name: MemberName) throws(UtxosChangedReaderError) {
        if seen { throw scanner.refusal(.duplicateMember(name.text)) }
    }

    /// Notes that a member whose value may be `null` was read, refusing it the second time.
    private func markRead(_ seen: inout Bool, _ name: MemberName) throws(UtxosChangedReaderError) {
        try refuseRepeat(seen, name)
        seen = true
    }
}
