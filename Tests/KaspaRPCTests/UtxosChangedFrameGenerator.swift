import KaspaCrypto
import TandemBasics
import TandemTesting

/// Writes UtxosChanged frames by hand from a seed, so that every form the reader must agree with
/// `JSONDecoder` on comes up: the node's form with its freedoms (member order, whitespace, escapes,
/// unknown members, `null` and absent optional members, empty lists, amounts up to `UInt64.max`),
/// forms `JSONDecoder` reads that the node does not write, and frames `JSONDecoder` refuses.
struct UtxosChangedFrameGenerator {
    /// What a generated frame is, and so what the reader must do with it.
    enum Kind: CaseIterable {
        /// As a node may write it: the reader reads it.
        case node
        /// JSON no node writes (an integer as `1.0` or `1e0`, a member twice, a trailing comma,
        /// `{"version", "script"}`, non-ASCII text): the reader may leave it to `JSONDecoder`, which
        /// reads most of it (it refuses `UInt64.max` written with `.0` or `e0`, for one).
        case beyondNodeForm
        /// With something `JSONDecoder` refuses, most of the time: a bad address, hex, length or
        /// range, a required member left out, broken JSON.
        case invalid
    }

    private var random: SeededRandom
    private let addresses: [String]
    private var kind = Kind.node

    init(seed: UInt64) throws {
        random = SeededRandom(seed: seed)
        let keys = try (1...3).map { try PrivateKey(hex: String(repeating: "0\($0)", count: 32)) }
        addresses = [
            KaspaAddress(publicKey: keys[0].xOnlyPublicKey, network: .testnet).description,
            KaspaAddress(publicKey: keys[1].xOnlyPublicKey, network: .mainnet).description,
            KaspaAddress(ecdsaPublicKey: keys[2].publicKey, network: .testnet).description,
            try KaspaAddress(network: .simnet, version: .scriptHash, payload: Array(repeating: 7, count: 32))
                .description,
        ]
    }

    /// A frame of `kind`.
    mutating func frame(_ kind: Kind) -> String {
        self.kind = kind
        var members = [
            ("method", string("utxosChangedNotification")),
            ("params", object([("UtxosChanged", body())])),
        ]
        if chance(4) { members.append(("id", "null")) }
        if chance(6) { members.append(("error", "null")) }
        var text = space() + object(members) + space()
        if kind == .invalid && chance(8) { text = mangled(text) }
        return text
    }

    // MARK: The notification

    private mutating func body() -> String {
        var members = [("added", entries()), ("removed", entries())]
        if kind == .invalid && chance(20) { members.removeLast() }
        return object(members)
    }

    private mutating func entries() -> String {
        array((0..<below(4)).map { _ in entry() })
    }

    private mutating func entry() -> String {
        var members = [("outpoint", outpoint()), ("utxoEntry", utxoEntry())]
        switch below(5) {
        case 0: members.append(("address", "null"))
        case 1: break
        default: members.append(("address", address()))
        }
        if kind == .invalid && chance(30) { members.remove(at: below(members.count)) }
        return object(members)
    }

    private mutating func address() -> String {
        guard let text = addresses.randomElement(using: &random) else { return "null" }
        if kind == .invalid && chance(15) {
            // One character changed: a checksum that no longer matches (or an invalid character).
            var characters = Array(text)
            characters[characters.count - 1 - below(10)] = chance(2) ? "q" : "B"
            return string(String(characters))
        }
        return string(text)
    }

    private mutating func outpoint() -> String {
        var id = Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        if chance(6) { id = id.uppercased() }
        if kind == .invalid && chance(15) { id = chance(2) ? String(id.dropLast(2)) : "g" + id.dropFirst() }
        var index = String(below(3) == 0 ? UInt32.max : UInt32.random(in: 0...9, using: &random))
        if kind == .invalid && chance(20) { index = "4294967296" }
        return object([("transactionId", string(id)), ("index", number(index))])
    }

    private mutating func utxoEntry() -> String {
        let amounts: [UInt64] = [
            0, 1, 994_979_000, (1 << 53) + 1, UInt64.max, .random(in: 0...UInt64.max, using: &random),
        ]
        var amount = String(amounts.randomElement(using: &random) ?? 0)
        if kind == .invalid && chance(20) { amount = chance(2) ? "18446744073709551616" : "-1" }
        var members = [("amount", number(amount)), ("scriptPublicKey", scriptPublicKey())]
        switch below(4) {
        case 0: members.append(("blockDaaScore", "null"))
        case 1: break
        default: members.append(("blockDaaScore", number(String(UInt64.random(in: 0...UInt64.max, using: &random)))))
        }
        switch below(4) {
        case 0: members.append(("isCoinbase", "null"))
        case 1: break
        default: members.append(("isCoinbase", chance(2) ? "true" : "false"))
        }
        if chance(2) { members.append(("covenantId", chance(2) ? "null" : unknownValue(depth: 0))) }
        return object(members)
    }

    private mutating func scriptPublicKey() -> String {
        let script = (0..<below(40)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let version = chance(5) ? [UInt8.random(in: 0...255, using: &random), 1] : [0, 0]
        if kind == .beyondNodeForm && chance(10) {
            return object([
                ("version", String(Int(version[0]) << 8 | Int(version[1]))), ("script", string(Hex.encode(script))),
            ])
        }
        if kind == .invalid && chance(15) { return string(chance(2) ? "00" : Hex.encode(version + script) + "0") }
        return string(Hex.encode(version + script))
    }

    // MARK: JSON text

    private mutating func object(_ known: [(String, String)]) -> String {
        var members = known
        if chance(3) { members.append((unknownName(), unknownValue(depth: 0))) }
        members.shuffle(using: &random)
        if kind == .beyondNodeForm, chance(12), let first = members.first {
            // A member twice: JSONDecoder keeps the first.
            members.append(first)
        }
        let body = members.map { name, value in space() + string(name) + space() + ":" + space() + value + space() }
        var text = "{" + body.joined(separator: ",")
        if kind == .beyondNodeForm && !members.isEmpty && chance(20) { text += "," }
        return text + space() + "}"
    }

    private mutating func array(_ items: [String]) -> String {
        "[" + space() + items.map { $0 + space() }.joined(separator: "," + space()) + "]"
    }

    /// A string with some of its characters written as escapes.
    private mutating func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "/" where chance(2): out += "\\/"
            case _ where scalar.value < 0x20 || (scalar.isASCII && chance(40)):
                let digits = String(scalar.value, radix: 16)
                let escape = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
                out += "\\u" + (chance(2) ? escape : escape.uppercased())
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An integer member's text: plain digits, or (beyond the node's form) `.0` or an exponent.
    private mutating func number(_ digits: String) -> String {
        guard kind == .beyondNodeForm, chance(15) else { return digits }
        return chance(2) ? digits + ".0" : digits + "e0"
    }

    private mutating func unknownName() -> String {
        ["covenantId", "verboseData", "x", "", "Added", "utxoEntries", "note/1", "tab\there"]
            .randomElement(using: &random) ?? "x"
    }

    private mutating func unknownValue(depth: Int) -> String {
        let pick = depth > 2 ? below(7) : below(9)
        switch pick {
        case 0: return ["0", "-12", "3.25", "1e5", "-0.5E-3", "18446744073709551616", "1e400"][below(7)]
        case 1: return string(["", "text", "quote \" and \\ backslash", "line\nbreak", "0000ab"][below(5)])
        case 2: return "true"
        case 3: return "false"
        case 4: return "null"
        case 5 where kind == .beyondNodeForm: return string("caf\u{e9} \u{1F600}")
        case 5, 6: return "[]"
        case 7: return array((0..<below(3)).map { _ in unknownValue(depth: depth + 1) })
        default: return object([(unknownName(), unknownValue(depth: depth + 1))])
        }
    }

    private mutating func space() -> String {
        guard chance(4) else { return "" }
        return [" ", "\n", "\t", "\r\n  ", "  "][below(5)]
    }

    /// The frame with one change that breaks its JSON.
    private mutating func mangled(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let at = below(bytes.count)
        switch below(4) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert([UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "\""), 0x01][below(4)], at: at)
        case 2: bytes = Array(bytes[..<at])
        default: bytes += Array(" x".utf8)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func chance(_ oneIn: Int) -> Bool { below(oneIn) == 0 }

    private mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int.random(in: 0..<bound, using: &random) }
}
