import Foundation
import RedoProtocol
import TandemBasics

/// Text folded for matching: lowercased, canonically decomposed, combining marks dropped, as
/// UTF-8 bytes; so "Café" and "CAFE" fold alike. ASCII text, the common case, folds byte by byte.
struct SearchText {
    /// The task's title, description and every todo's notes, folded, separated by newlines (a
    /// word never spans two fields: a folded word has no newline).
    let haystack: [UInt8]

    init(_ task: TaskSummary) {
        var bytes = Self.fold(task.title)
        if !task.description.isEmpty {
            bytes.append(0x0A)
            bytes += Self.fold(task.description)
        }
        for notes in task.notes where !notes.isEmpty {
            bytes.append(0x0A)
            bytes += Self.fold(notes)
        }
        haystack = bytes
    }

    /// Whether every word occurs somewhere in the haystack.
    func containsAll(_ words: [[UInt8]]) -> Bool {
        words.allSatisfy { Self.contains(haystack, $0) }
    }

    /// The folded words of a search text, split at whitespace; empty words dropped.
    static func words(_ text: String) -> [[UInt8]] {
        text.split(whereSeparator: \.isWhitespace).map { fold(String($0)) }.filter { !$0.isEmpty }
    }

    /// The folded form titles are sorted by.
    static func sortKey(_ text: String) -> [UInt8] { fold(text) }

    static func fold(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return foldUnicode(text) }
            bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        return bytes
    }

    /// Scalar by scalar: ASCII lowercased in place, any other scalar replaced by its folded form
    /// (lowercased, decomposed, marks dropped), which Foundation computes once per scalar and a
    /// table keeps, so a title with accents costs table lookups, not a Foundation call each.
    private static func foldUnicode(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            } else {
                bytes += folded(scalar)
            }
        }
        return bytes
    }

    private static let foldedScalars = Locked<[UInt32: [UInt8]]>([:])

    private static func folded(_ scalar: Unicode.Scalar) -> [UInt8] {
        if let known = foldedScalars.withLock({ $0[scalar.value] }) { return known }
        var kept = String.UnicodeScalarView()
        for part in String(Character(scalar)).lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            switch part.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: kept.append(part)
            }
        }
        let bytes = Array(String(kept).utf8)
        foldedScalars.withLock { $0[scalar.value] = bytes }
        return bytes
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard needle.count <= haystack.count else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { word in
                var start = 0
                let last = hay.count - word.count
                while start <= last {
                    if hay[start] == first {
                        var offset = 1
                        while offset < word.count && hay[start + offset] == word[offset] { offset += 1 }
                        if offset == word.count { return true }
                    }
                    start += 1
                }
                return false
            }
        }
    }
}
