extension String {
    /// The text that `bytes` encode when they are well-formed UTF-8, and `nil` otherwise (a
    /// truncated or overlong sequence, a surrogate, a scalar past U+10FFFF), where
    /// `String(decoding:as:)` would put U+FFFD in their place.
    ///
    /// The standard library's `String(validating:as:)` says the same from iOS 18 and macOS 15; the
    /// libraries deploy to iOS 16 and macOS 13 (issue 46 item 1).
    public init?(strictUTF8 bytes: some Collection<UInt8>) {
        let malformed = transcode(bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true) { _ in }
        guard !malformed else { return nil }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
