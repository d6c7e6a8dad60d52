/// A Kaspa address: network, version and payload (kasia-protocol §1).
///
/// The text form is `<prefix>:<body>`, lowercase only; the body is a CashAddr-style base32 string
/// of `version ‖ payload` with a 40-bit BCH checksum.
public struct KaspaAddress: Sendable, Hashable, CustomStringConvertible {
    public let network: KaspaNetwork
    public let version: KaspaAddressVersion
    public let payload: [UInt8]

    /// Builds an address; the payload length must match the version.
    public init(network: KaspaNetwork, version: KaspaAddressVersion, payload: [UInt8]) throws(KaspaAddressError) {
        guard payload.count == version.payloadLength else {
            throw .payloadLength(payload.count, version: version.rawValue)
        }
        self.network = network
        self.version = version
        self.payload = payload
    }

    /// The Schnorr (version 0) address of an x-only key.
    public init(publicKey: XOnlyPublicKey, network: KaspaNetwork = .mainnet) {
        self.network = network
        self.version = .publicKey
        self.payload = publicKey.rawRepresentation
    }

    /// The ECDSA (version 1) address of a compressed key.
    public init(ecdsaPublicKey: PublicKey, network: KaspaNetwork = .mainnet) {
        self.network = network
        self.version = .publicKeyECDSA
        self.payload = ecdsaPublicKey.compressedRepresentation
    }

    /// Parses the text form. Strict: lowercase only, known prefix, valid checksum, zero padding,
    /// known version with its exact payload length. Does not check the key is on the curve; use
    /// ``publicKey()`` for that.
    public init(_ text: some StringProtocol) throws(KaspaAddressError) {
        self = try KaspaAddressCodec.decode(String(text))
    }

    /// The canonical text form.
    public var description: String { KaspaAddressCodec.encode(self) }

    /// The public key to encrypt to: v0 lifted to even y, v1 as given (kasia-protocol §2).
    public func publicKey() throws(KaspaAddressError) -> PublicKey {
        do throws(KaspaKeyError) {
            switch version {
            case .publicKey: return try XOnlyPublicKey(rawRepresentation: payload).evenYPublicKey
            case .publicKeyECDSA: return try PublicKey(compressedRepresentation: payload)
            case .scriptHash: break
            }
        } catch {
            throw .invalidPublicKey(error)
        }
        throw .noPublicKey
    }

    /// The x-only key of a version-0 address, validated on the curve.
    public func xOnlyPublicKey() throws(KaspaAddressError) -> XOnlyPublicKey {
        guard version == .publicKey else { throw .notSchnorr(version) }
        do { return try XOnlyPublicKey(rawRepresentation: payload) } catch { throw .invalidPublicKey(error) }
    }

    /// The script-version-0 locking script for this address (kasia-protocol §1).
    public var scriptPublicKey: [UInt8] {
        switch version {
        case .publicKey: [0x20] + payload + [0xac]
        case .publicKeyECDSA: [0x21] + payload + [0xab]
        case .scriptHash: [0xaa, 0x20] + payload + [0x87]
        }
    }
}

extension KaspaAddress: Codable {
    /// Encoded as its canonical text; decoding is as strict as ``init(_:)``.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = try KaspaAddress(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
