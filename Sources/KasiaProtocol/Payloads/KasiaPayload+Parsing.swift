import Foundation
import KaspaCrypto
import TandemBasics

extension KasiaPayload {
    static let version1 = Array("1:".utf8)

    /// Parses the bytes of a transaction's `payload` field under either root (kasia-protocol
    /// §16); ``KasiaEnvelope`` keeps which one it was.
    public init(parsing bytes: some Collection<UInt8>) throws(KasiaPayloadError) {
        self = try KasiaEnvelope(parsing: bytes).payload
    }

    /// Parses lowercase or uppercase hex text of a payload (what indexers and explorers show).
    public init(parsingHex hex: some StringProtocol) throws(KasiaPayloadError) {
        self = try KasiaEnvelope(parsingHex: hex).payload
    }

    /// Parses what follows the root, as the indexer reads it (kasia-protocol §4 notes): without
    /// `1:` the rest is a legacy body (or KaChat's unversioned `pay:`); otherwise dispatch on the
    /// operation up to the next `:`.
    init(parsingAfterRoot afterRoot: ArraySlice<UInt8>) throws(KasiaPayloadError) {
        guard !afterRoot.isEmpty else { throw .notKasiaPayload }
        guard afterRoot.starts(with: Self.version1) else {
            let pay = KasiaOperation.pay.prefix
            if afterRoot.starts(with: pay) {
                self = .payment(sealed: try Self.sealedBody(afterRoot.dropFirst(pay.count)).bytes, form: .unversioned)
            } else {
                self = .legacy(sealed: Array(afterRoot))
            }
            return
        }
        let rest = afterRoot.dropFirst(Self.version1.count)
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else {
            throw .unknownOperation(String(decoding: rest.prefix(32), as: UTF8.self))
        }
        let name = String(decoding: rest[..<colon], as: UTF8.self)
        let body = rest[(colon + 1)...]
        guard let operation = KasiaOperation(rawValue: name) else { throw .unknownOperation(name) }
        switch operation {
        case .handshake:
            self = .handshake(sealed: try Self.sealedBody(body).bytes)
        case .comm:
            self = try Self.parseComm(body)
        case .pay:
            self = .payment(sealed: try Self.sealedBody(body).bytes, form: .kachat)
        case .payment:
            let decoded = try Self.sealedBody(body)
            self = .payment(sealed: decoded.bytes, form: .web(decoded.encoding))
        case .selfStash:
            self = try Self.parseSelfStash(body)
        case .broadcast:
            guard let split = body.firstIndex(of: UInt8(ascii: ":")),
                let text = String(strictUTF8: body[(split + 1)...])
            else { throw .malformedBroadcast }
            self = .broadcast(channel: String(decoding: body[..<split], as: UTF8.self), text: text)
        case .groupComm, .groupControl:
            throw .unsupportedOperation(name)
        }
    }

    private static func parseComm(_ body: ArraySlice<UInt8>) throws(KasiaPayloadError) -> KasiaPayload {
        // The alias runs up to the first ':' (aliases never contain one).
        guard let colon = body.firstIndex(of: UInt8(ascii: ":")) else { throw .commWithoutAliasDelimiter }
        guard let bits = Alias.parse(body[..<colon]) else {
            throw .invalidAlias(String(decoding: body[..<colon], as: UTF8.self))
        }
        let alias = Alias(bits: bits)
        let text = body[(colon + 1)...]
        guard !text.isEmpty else { throw .emptyBody }
        // Kasia's rule: hex first (all hex digits, even length), else base64. KaChat reads only
        // base64, so old hex-bodied web messages are readable only here.
        if text.count % 2 == 0, text.allSatisfy(Hex.isDigit),
            let bytes = try? Hex.decode(utf8: text)
        {
            return .contextualMessage(alias: alias, sealed: bytes, encoding: .hex)
        }
        guard let data = Data(base64Encoded: Data(text)) else { throw .undecodableBody }
        return .contextualMessage(alias: alias, sealed: Array(data), encoding: .base64)
    }

    private static func parseSelfStash(_ body: ArraySlice<UInt8>) throws(KasiaPayloadError) -> KasiaPayload {
        // `self_stash:<scope>:<sealed>`; the scope is optional and cannot contain ':'. A scope is
        // printable ASCII, which tells it from sealed bytes that merely contain a ':' byte.
        if let colon = body.firstIndex(of: UInt8(ascii: ":")),
            colon > body.startIndex,
            body[..<colon].allSatisfy({ (0x21...0x7e).contains($0) })
        {
            let scope = String(decoding: body[..<colon], as: UTF8.self)
            return .selfStash(scope: scope, sealed: try sealedBody(body[(colon + 1)...]).bytes)
        }
        return .selfStash(scope: nil, sealed: try sealedBody(body).bytes)
    }

    /// The robust sealed-body reader (kasia-protocol §4): ASCII hex that decodes to something
    /// shaped like a sealed message is hex text; anything else is binary.
    static func sealedBody(_ body: ArraySlice<UInt8>) throws(KasiaPayloadError) -> (
        bytes: [UInt8], encoding: BodyEncoding
    ) {
        guard !body.isEmpty else { throw .emptyBody }
        if body.count % 2 == 0, body.count >= 2 * KasiaCipher.minimumSealedLength,
            body.allSatisfy(Hex.isDigit),
            let bytes = try? Hex.decode(utf8: body),
            bytes[KasiaCipher.nonceLength] == 0x02 || bytes[KasiaCipher.nonceLength] == 0x03
        {
            return (bytes, .hex)
        }
        return (Array(body), .binary)
    }
}
