import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reverse proxies whose `X-Forwarded-For` the server believes (`--trusted-proxy CIDR`,
/// issue 13 item 5). Rate limits key on the client address; behind a proxy every TCP peer is
/// the proxy, so the client is read from `X-Forwarded-For` — but only when the peer is a
/// configured proxy, since anyone else can write any header. The client is the right-most hop
/// that is not itself a trusted proxy: hops to its left were written by the client and prove
/// nothing.
public struct TrustedProxies: Sendable, Equatable {
    struct Block: Sendable, Equatable {
        let bytes: [UInt8]
        let prefixLength: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var remaining = prefixLength
            for index in bytes.indices where remaining > 0 {
                let bits = min(8, remaining)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[index] & mask != bytes[index] & mask { return false }
                remaining -= bits
            }
            return true
        }
    }

    let blocks: [Block]

    public static let none = TrustedProxies(blocks: [])

    init(blocks: [Block]) { self.blocks = blocks }

    /// Parses `a.b.c.d/n`, `x:y::z/n`, or a bare address (one host). Nil when any entry is
    /// not a CIDR block.
    public init?(cidrs: [String]) {
        var blocks: [Block] = []
        for cidr in cidrs {
            let parts = cidr.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard let bytes = Self.parse(parts[0]) else { return nil }
            let maximum = bytes.count * 8
            let length = parts.count == 2 ? Int(parts[1]) : maximum
            guard let length, (0...maximum).contains(length) else { return nil }
            blocks.append(Block(bytes: bytes, prefixLength: length))
        }
        self.blocks = blocks
    }

    /// Whether any proxy is configured; without one, `X-Forwarded-For` is never read.
    var isEmpty: Bool { blocks.isEmpty }

    func isTrusted(_ address: String?) -> Bool {
        guard !blocks.isEmpty, let address, let bytes = Self.parse(address) else { return false }
        let unmapped = Self.unmapIPv4(bytes)
        return blocks.contains { $0.contains(bytes) || $0.contains(unmapped) }
    }

    /// The client's address for a request from `peer` carrying `forwardedFor` (every
    /// `X-Forwarded-For` value, in order).
    func clientAddress(peer: String?, forwardedFor: [String]) -> String? {
        guard isTrusted(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        for hop in hops.reversed() where !isTrusted(hop) { return hop }
        return hops.first ?? peer
    }

    static func parse(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// `::ffff:a.b.c.d` as the IPv4 address it carries.
    private static func unmapIPv4(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return bytes }
        return Array(bytes.suffix(4))
    }
}
