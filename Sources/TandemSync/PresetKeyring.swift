import Crypto
import Foundation
public import KaspaCrypto
public import RedoProtocol
import TandemAPI
import TandemBasics

/// The account's presets key (issue 28): one 32-byte key seals every saved task filter, so every
/// device of the account — a browser too, which has no wallet key — reads the same presets,
/// and the server only ever holds sealed boxes.
///
/// - A device with the wallet key derives the key from it (HKDF), so wallet devices agree
///   without talking. Without a wallet key, a device gets the key *wrapped* for it by a device
///   that holds it.
/// - Each device publishes a **slot**: its X25519 sealing key, signed by its Ed25519 device key
///   (which the account's key list vouches for). A holder wraps the key for every slot that
///   lacks it: X25519 agreement, HKDF-SHA256, AES-GCM.
/// - An **anchor** names the key in use (its id) — first writer wins, by the record's version.
///   An account whose first device had no wallet gets a random key, and its wallet devices then
///   use that key (wrapped for them) rather than their own.
///
/// Slots and the anchor travel as records of the presets collection itself (`box` = a magic
/// line and JSON, not sealed — they hold only public keys and wrapped keys), so the server needs
/// no route for them and its compare-and-swap settles races. An active server could list a
/// device key of its own making and get the key wrapped for it; the account's device list
/// (`tandem keys list`) shows every key.
public struct PresetKeyring: Sendable {
    let deviceKey: SigningKey
    let sealing: Curve25519.KeyAgreement.PrivateKey
    let walletKey: PrivateKey?

    public init(deviceKey: SigningKey, walletKey: PrivateKey?) {
        self.deviceKey = deviceKey
        self.walletKey = walletKey
        let seed = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: deviceKey.seed), salt: Data(Self.salt.utf8),
            info: Data("tandem task presets: device sealing key v1".utf8), outputByteCount: 32)
        // Any 32 bytes are an X25519 private key (RFC 7748 clamps them).
        sealing =
            (try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: seed.withUnsafeBytes { Data($0) }))
            ?? Curve25519.KeyAgreement.PrivateKey()
    }

    static let salt = "tandem.tasks.presets.sync"
    static let magic = "tandem-preset-key/v1\n"

    public var sealingKey: String { Hex.encode(Array(sealing.publicKey.rawRepresentation)) }

    /// The key a wallet device derives; nil without a wallet key.
    var walletAccountKey: SymmetricKey? {
        walletKey.map {
            HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: $0.rawRepresentation), salt: Data(Self.salt.utf8),
                info: Data("tandem task presets sync v2: account presets key".utf8), outputByteCount: 32)
        }
    }

    /// A key's public name: the first 32 hex digits of SHA-256("tandem-preset-key-id/v1\n" ‖ key).
    static func keyID(_ key: SymmetricKey) -> String {
        var hasher = SHA256()
        hasher.update(data: Data("tandem-preset-key-id/v1\n".utf8))
        key.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return String(Hex.encode(Array(hasher.finalize())).prefix(32))
    }

    /// The record id of the anchor (one per account) and of a device's slot.
    static let anchorID = hexDigest("tandem-preset-anchor/v1")
    static func slotID(sealingKey: String) -> String { hexDigest("tandem-preset-slot/v1\n" + sealingKey) }

    private static func hexDigest(_ text: String) -> String { Hex.encode(Array(SHA256.hash(data: Data(text.utf8)))) }

    /// The text a device key signs to vouch for its sealing key.
    static func slotMessage(accountID: String, deviceKey: String, sealingKey: String) -> [UInt8] {
        Array("tandem-preset-slot/v1\n\(accountID)\n\(deviceKey)\n\(sealingKey)".utf8)
    }

    /// One key record: an anchor or a slot.
    public struct Record: Codable, Sendable, Equatable {
        public var kind: String
        public var keyId: String?
        public var deviceKey: String?
        public var sealingKey: String?
        public var signature: String?
        public var wraps: [Wrap]?

        public struct Wrap: Codable, Sendable, Equatable {
            public var keyId: String
            public var by: String
            public var box: String
        }

        /// The record's `box` bytes: the magic line, then canonical-order JSON.
        func box() throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Data(PresetKeyring.magic.utf8) + (try encoder.encode(self))
        }

        /// True when the box is a key record's (it starts with the magic line), whatever follows.
        static func hasMagic(_ box: Data) -> Bool { box.starts(with: Data(PresetKeyring.magic.utf8)) }

        /// A key record from a box, or nil when the box is something else (a sealed preset) or a
        /// key record of a shape this build does not read.
        static func parse(_ box: Data) -> Record? {
            guard hasMagic(box) else { return nil }
            return try? JSONDecoder().decode(Record.self, from: box.dropFirst(PresetKeyring.magic.utf8.count))
        }

        /// Stands for a key record this build cannot read: only its version is used.
        static let unknown = Record(
            kind: "unknown", keyId: nil, deviceKey: nil, sealingKey: nil, signature: nil, wraps: nil)
    }

    /// This device's slot, signed.
    func ownSlot(accountID: String) -> Record {
        let device = deviceKey.publicKey.description
        let signature = deviceKey.signature(
            for: Self.slotMessage(accountID: accountID, deviceKey: device, sealingKey: sealingKey))
        return Record(
            kind: "slot", keyId: nil, deviceKey: device, sealingKey: sealingKey, signature: signature.description,
            wraps: [])
    }

    /// A slot whose device key is the account's and whose signature verifies.
    static func isVouched(_ slot: Record, accountID: String, accountKeys: Set<String>) -> Bool {
        guard slot.kind == "slot", let device = slot.deviceKey, let sealing = slot.sealingKey,
            let signatureText = slot.signature, accountKeys.contains(device),
            let publicKey = PublicKeyHex(device), let signature = SignatureHex(signatureText),
            Hex.decodeLowercase(sealing, byteCount: 32) != nil
        else { return false }
        return SigningKey.isValidSignature(
            signature, for: slotMessage(accountID: accountID, deviceKey: device, sealingKey: sealing),
            publicKey: publicKey)
    }

    private func wrapKey(peer: String, sender: String, recipient: String) -> SymmetricKey? {
        guard let bytes = Hex.decodeLowercase(peer, byteCount: 32),
            let peerKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes),
            let shared = try? sealing.sharedSecretFromKeyAgreement(with: peerKey)
        else { return nil }
        return shared.hkdfDerivedSymmetricKey(
            using: SHA256.self, salt: Data("tandem.tasks.presets.wrap".utf8),
            sharedInfo: Data("tandem task presets key wrap v1\n\(sender)\n\(recipient)".utf8), outputByteCount: 32)
    }

    /// `key` wrapped for the slot with sealing key `recipient`.
    func wrap(_ key: SymmetricKey, for recipient: String) -> Record.Wrap? {
        let keyID = Self.keyID(key)
        guard let wrapping = wrapKey(peer: recipient, sender: sealingKey, recipient: recipient),
            let sealed = try? AES.GCM.seal(
                key.withUnsafeBytes { Data($0) }, using: wrapping, authenticating: Data(keyID.utf8)),
            let combined = sealed.combined
        else { return nil }
        return Record.Wrap(keyId: keyID, by: sealingKey, box: combined.base64EncodedString())
    }

    /// The key a wrap in this device's slot carries, when it opens and has the id it claims.
    func unwrap(_ wrap: Record.Wrap) -> SymmetricKey? {
        guard let wrapping = wrapKey(peer: wrap.by, sender: wrap.by, recipient: sealingKey),
            let combined = Data(base64Encoded: wrap.box), let box = try? AES.GCM.SealedBox(combined: combined),
            let bytes = try? AES.GCM.open(box, using: wrapping, authenticating: Data(wrap.keyId.utf8)),
            bytes.count == 32
        else { return nil }
        let key = SymmetricKey(data: bytes)
        return Self.keyID(key) == wrap.keyId ? key : nil
    }

    /// What the key records say, and what this device should write.
    struct Resolution: Sendable {
        /// The account's presets key, when this device can have it.
        var key: SymmetricKey?
        /// Records to write, by id, with the records they replace (nil = new).
        var writes: [(id: String, record: Record, replacing: Int64)] = []
    }

    /// Reads the key records (`records`: id → (version, record)) for `accountID`, whose device
    /// keys are `accountKeys` (live keys only); decides the key and the records to write: this
    /// device's slot, the anchor if none exists (or no device holds its key), and a wrap for
    /// every vouched slot that lacks the key. A record of unknown shape has kind "unknown": its
    /// version is what a write replaces.
    func resolve(records: [String: (version: Int64, record: Record)], accountID: String, accountKeys: Set<String>)
        -> Resolution
    {
        var resolution = Resolution()
        let ownID = Self.slotID(sealingKey: sealingKey)
        var slots: [String: (version: Int64, record: Record)] = [:]
        for (id, entry) in records where entry.record.kind == "slot" {
            guard let sealing = entry.record.sealingKey, id == Self.slotID(sealingKey: sealing),
                Self.isVouched(entry.record, accountID: accountID, accountKeys: accountKeys)
            else { continue }
            slots[id] = entry
        }
        let vouched = Set(slots.values.compactMap(\.record.sealingKey))
        /// A slot holds the key when a wrap of it there was made by a device of the account.
        func holds(_ slot: Record, _ keyID: String) -> Bool {
            (slot.wraps ?? []).contains { $0.keyId == keyID && vouched.contains($0.by) }
        }
        let anchorEntry = records[Self.anchorID]
        let anchor = anchorEntry.flatMap { $0.record.kind == "anchor" ? $0.record.keyId : nil }
        var duds: Set<String> = []
        if let anchor {
            if let derived = walletAccountKey, Self.keyID(derived) == anchor {
                resolution.key = derived
            } else {
                for wrap in slots[ownID]?.record.wraps ?? [] where wrap.keyId == anchor && vouched.contains(wrap.by) {
                    if let key = unwrap(wrap) {
                        resolution.key = key
                        break
                    }
                    duds.insert(wrap.box)
                }
            }
        }
        // No key named yet — or one that no device of the account holds any more (its last
        // holder gone), so nobody can read what it sealed: this device names one, its wallet's
        // or a random one.
        if resolution.key == nil, anchor.map({ keyID in !slots.values.contains { holds($0.record, keyID) } }) ?? true {
            let key = walletAccountKey ?? SymmetricKey(size: .bits256)
            resolution.key = key
            let anchorRecord = Record(
                kind: "anchor", keyId: Self.keyID(key), deviceKey: nil, sealingKey: nil, signature: nil, wraps: nil)
            resolution.writes.append((Self.anchorID, anchorRecord, anchorEntry?.version ?? 0))
        }
        // This device's slot: published once; the key is kept wrapped in it by the device itself
        // — for its next run, and so that other devices see the key held (a wallet device too,
        // though it could derive it) — whoever wrapped one for it; wraps for it that do not open
        // are dropped, so holders wrap the key again.
        var own = slots[ownID]?.record ?? ownSlot(accountID: accountID)
        var writeOwn = slots[ownID] == nil
        if resolution.key == nil, !duds.isEmpty {
            own.wraps = (own.wraps ?? []).filter { !duds.contains($0.box) }
            writeOwn = true
        }
        if let key = resolution.key,
            !(own.wraps ?? []).contains(where: { $0.keyId == Self.keyID(key) && $0.by == sealingKey }),
            let wrap = wrap(key, for: sealingKey)
        {
            own.wraps = (own.wraps ?? []).filter { $0.keyId == Self.keyID(key) } + [wrap]
            writeOwn = true
        }
        if writeOwn { resolution.writes.append((ownID, own, records[ownID]?.version ?? 0)) }
        guard let key = resolution.key else { return resolution }
        let keyID = Self.keyID(key)
        for (id, entry) in slots.sorted(by: { $0.key < $1.key }) where id != ownID {
            guard !holds(entry.record, keyID), let sealing = entry.record.sealingKey, let wrap = wrap(key, for: sealing)
            else { continue }
            var record = entry.record
            record.wraps = (record.wraps ?? []).filter { $0.keyId == keyID } + [wrap]
            resolution.writes.append((id, record, entry.version))
        }
        return resolution
    }
}
