import KaspaTransaction
import TandemBasics

/// Request params that write their own JSON: the value `JSONEncoder` writes for them, members in
/// the same order, without its containers and boxing (issue 49 item 4: the submit's encoding was a
/// fixed cost of every sent message).
protocol RPCParamsWriter {
    /// Appends the params' JSON to `out` and returns true, or returns false (leaving `out` as it
    /// was) for a value it does not write, which then goes to `JSONEncoder`.
    func writeJSON(into out: inout [UInt8]) -> Bool
}

/// A submission in the form a wallet sends: no verbose data anywhere (a chain walk's answers carry
/// it, never a submission). One with verbose data goes to `JSONEncoder`.
extension RPCSubmitTransaction: RPCParamsWriter {
    func writeJSON(into out: inout [UInt8]) -> Bool {
        let transaction = self.transaction
        guard transaction.verboseData == nil, !transaction.inputs.contains(where: { $0.verboseData != nil }),
            !transaction.outputs.contains(where: { $0.verboseData != nil })
        else { return false }
        out.append(contentsOf: #"{"transaction":{"version":"#.utf8)
        JSONWriting.number(transaction.version, into: &out)
        out.append(contentsOf: #","inputs":["#.utf8)
        for (index, input) in transaction.inputs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"previousOutpoint":"#.utf8)
            if let outpoint = input.previousOutpoint {
                out.append(contentsOf: #"{"transactionId":"#.utf8)
                JSONWriting.hex(outpoint.transactionID, into: &out)
                out.append(contentsOf: #","index":"#.utf8)
                JSONWriting.number(outpoint.index, into: &out)
                out.append(UInt8(ascii: "}"))
            } else {
                out.append(contentsOf: "null".utf8)
            }
            out.append(contentsOf: #","signatureScript":"#.utf8)
            JSONWriting.hex(input.signatureScript, into: &out)
            out.append(contentsOf: #","sequence":"#.utf8)
            JSONWriting.number(input.sequence, into: &out)
            out.append(contentsOf: #","sigOpCount":"#.utf8)
            JSONWriting.number(input.sigOpCount, into: &out)
            out.append(contentsOf: #","computeBudget":"#.utf8)
            JSONWriting.number(input.computeBudget, into: &out)
            out.append(contentsOf: #","verboseData":null}"#.utf8)
        }
        out.append(contentsOf: #"],"outputs":["#.utf8)
        for (index, output) in transaction.outputs.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: #"{"value":"#.utf8)
            JSONWriting.number(output.value, into: &out)
            out.append(contentsOf: #","scriptPublicKey":"#.utf8)
            let key = output.scriptPublicKey.value
            JSONWriting.hex([UInt8(key.version >> 8), UInt8(key.version & 0xff)] + key.script, into: &out)
            out.append(contentsOf: #","verboseData":null,"covenant":null}"#.utf8)
        }
        out.append(contentsOf: #"],"lockTime":"#.utf8)
        JSONWriting.number(transaction.lockTime, into: &out)
        out.append(contentsOf: #","subnetworkId":"#.utf8)
        JSONWriting.hex(transaction.subnetworkId, into: &out)
        out.append(contentsOf: #","gas":"#.utf8)
        JSONWriting.number(transaction.gas, into: &out)
        out.append(contentsOf: #","payload":"#.utf8)
        JSONWriting.hex(transaction.payload, into: &out)
        out.append(contentsOf: #","storageMass":"#.utf8)
        JSONWriting.number(transaction.mass, into: &out)
        out.append(contentsOf: #","mass":"#.utf8)
        JSONWriting.number(transaction.mass, into: &out)
        out.append(contentsOf: #","verboseData":null},"allowOrphan":"#.utf8)
        out.append(contentsOf: (allowOrphan ? "true" : "false").utf8)
        out.append(UInt8(ascii: "}"))
        return true
    }
}

/// The pieces of JSON the writers above are made of.
enum JSONWriting {
    /// A non-negative integer in decimal, or `null`.
    static func number(_ value: (some FixedWidthInteger & UnsignedInteger)?, into out: inout [UInt8]) {
        guard let value else { return out.append(contentsOf: "null".utf8) }
        guard value != 0 else { return out.append(UInt8(ascii: "0")) }
        var digits: [UInt8] = []
        var rest = UInt64(value)
        while rest > 0 {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        out.append(contentsOf: digits.reversed())
    }

    /// Bytes as a lowercase hex string, or `null`.
    static func hex(_ bytes: [UInt8]?, into out: inout [UInt8]) {
        guard let bytes else { return out.append(contentsOf: "null".utf8) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: Hex.encode(bytes).utf8)
        out.append(UInt8(ascii: "\""))
    }

    /// A string of printable ASCII without `"`, `\` or `/` (a method name) as JSON; nil for any
    /// other, which `JSONEncoder` escapes.
    static func plainString(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        guard
            bytes.allSatisfy({
                (0x20..<0x7f).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                    && $0 != UInt8(ascii: "/")
            })
        else { return nil }
        return [UInt8(ascii: "\"")] + bytes + [UInt8(ascii: "\"")]
    }
}
