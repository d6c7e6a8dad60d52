#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rate limiters' notion of "one client": an IPv4 address as is, an IPv6 address by its
/// /64 prefix (one subscriber usually holds a whole /64, betterauth-api.md §11). The address
/// is parsed with `inet_pton`, never sliced as text: `2001:db8::1:2:3:4` and
/// `2001:db8::5:2:3:4` are the same /64 although their compressed texts differ (issue 14 audit).
enum ClientAddressKey {
    /// The key for a peer address; text that is no IP address at all shares one bucket.
    static func key(for address: String?) -> String {
        guard let address else { return "unknown" }
        if let v4 = parseIPv4(address) { return v4.map(String.init).joined(separator: ".") }
        if let v6 = parseIPv6(address) {
            // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 client.
            if v6.prefix(10).allSatisfy({ $0 == 0 }) && v6[10] == 0xff && v6[11] == 0xff {
                return v6.suffix(4).map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map {
                String(UInt16(v6[$0]) << 8 | UInt16(v6[$0 + 1]), radix: 16)
            }
            return groups.joined(separator: ":") + "::/64"
        }
        return "unknown"
    }

    private static func parseIPv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// 16 bytes in network order; a zone suffix (`fe80::1%eth0`) is dropped first.
    private static func parseIPv6(_ text: String) -> [UInt8]? {
        let bare =
            text.split(separator: "%", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        var address = in6_addr()
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }
}
