/// Comparisons whose running time does not depend on where two secrets differ.
enum ConstantTime {
    /// Equal length and equal bytes; the loop always visits every byte.
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
