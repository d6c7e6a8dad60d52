import TandemAPI

/// The username plugin's rules (betterauth-api.md §8): 3–30 UTF-16 units on the raw input,
/// only `[A-Za-z0-9_.]`, stored and looked up lower-cased.
enum UsernameRules {
    enum Violation: Equatable {
        case tooShort, tooLong, invalidCharacters

        var code: APIErrorCode {
            switch self {
            case .tooShort: .usernameTooShort
            case .tooLong: .usernameTooLong
            case .invalidCharacters: .invalidUsername
            }
        }

        var message: String {
            switch self {
            case .tooShort: "Username is too short"
            case .tooLong: "Username is too long"
            case .invalidCharacters: "Username is invalid"
            }
        }
    }

    /// The first rule `raw` breaks, or nil.
    static func violation(of raw: String) -> Violation? {
        let length = raw.utf16.count
        if length < 3 { return .tooShort }
        if length > 30 { return .tooLong }
        let valid = raw.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
        return valid ? nil : .invalidCharacters
    }

    /// `toLowerCase()` of an already valid (ASCII) username.
    static func normalize(_ raw: String) -> String { raw.lowercased() }
}

/// zod's `z.email()` shape (betterauth-api.md §9): ASCII local part of `[A-Za-z0-9_'+\-.]`
/// with no leading, trailing or double dot; dot-separated domain labels; a TLD of ≥ 2 letters.
enum EmailRules {
    static func isValid(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = Array(parts[0].utf8)
        let domain = String(parts[1])
        guard !local.isEmpty, local.first != UInt8(ascii: "."), local.last != UInt8(ascii: "."),
            !parts[0].contains("..")
        else { return false }
        let localAllowed = local.allSatisfy { isAlphanumeric($0) || "_'+-.".utf8.contains($0) }
        guard localAllowed else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let tld = labels.last, tld.utf8.count >= 2,
            tld.utf8.allSatisfy({ isLetter($0) })
        else { return false }
        return labels.allSatisfy { label in
            let bytes = Array(label.utf8)
            guard let first = bytes.first, let last = bytes.last else { return false }
            return isAlphanumeric(first) && isAlphanumeric(last)
                && bytes.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: "-") }
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
