import Foundation
import SecretFiles
import TandemBasics

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A profile's pending transactions on disk as an append-only journal (issue 49 item 4):
/// ``Profile/File/kaspaPendingJournal``, JSON lines.
///
/// - The first line is `{"kaspaPendingJournal":1,"file":"<32 hex>"}`: the version, and a random
///   name each compaction gives its new file. Each later line is one change:
///   `{"add":{"submittedAtMs":…,"transaction":{…}}}` appends a transaction to the list, and
///   `{"drop":"<64 hex>"}` removes one. Replaying the lines in order gives the list.
/// - A send appends its own transaction, one `write` of one line, where the earlier design
///   rewrote the whole list into a new file and renamed it over the old one.
/// - When the lines outnumber twice the list by more than ``compactionSlack``, the next write
///   rewrites the journal as the header and one `add` per entry, atomically (a new file renamed
///   over the old).
/// - Written only under the profile's pending lock. Read by any process without it: a line is
///   counted only once its newline is there, so a reader never acts on half a line, and bytes
///   after the last newline (a write cut short when its process died) are cut off by the next
///   writer.
/// - Another process's changes are read from where this one stopped, unless the file was
///   replaced (compacted) or shortened: then it is read again whole. A replaced file is known by
///   its header, not its inode, which the file system may give the next file again.
/// - Neither appends nor compactions call `fsync`, as the pending file before: the journal
///   survives the process being killed at any point; a machine crash can lose the last lines,
///   which costs a send refused for spending an input again, never a coin.
struct PendingJournal {
    typealias Entry = WalletLedger.PendingTransaction

    let url: URL
    /// The pending file of earlier builds (a JSON array), read while no journal exists and
    /// removed by the first write of the journal.
    let legacyURL: URL
    /// The list the journal's complete lines make, in submission order.
    private(set) var entries: [Entry] = []
    /// Complete lines in the file, the header included.
    private(set) var lines = 0
    /// The bytes those lines take: where the next line goes.
    private(set) var length: Int64 = 0
    /// The file as it was when this journal last read or wrote it.
    private var seen: FileIdentity?
    /// Each entry's `add` line, by id, for compactions.
    private var addLines: [[UInt8]: Data] = [:]
    /// The first line of the file read or written, newline included: what tells it from a
    /// later compaction's file.
    private var header = Data()

    /// Dead lines allowed beyond the list's own before a write compacts.
    static let compactionSlack = 64
    /// A new file's first line, naming it at random.
    static func newHeader() -> Data {
        var random = SystemRandomNumberGenerator()
        let name = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        return Data(#"{"kaspaPendingJournal":1,"file":""#.utf8) + Data(Hex.encode(name).utf8) + Data(#""}"#.utf8)
            + [newline]
    }
    static let newline = UInt8(ascii: "\n")

    /// What identifies one state of a file: a write changes the size or the modification time,
    /// and a compaction the inode.
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64

        init(_ info: stat) {
            #if canImport(Darwin)
                let modified = info.st_mtimespec
            #else
                let modified = info.st_mtim
            #endif
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modifiedSeconds = Int64(modified.tv_sec)
            modifiedNanoseconds = Int64(modified.tv_nsec)
        }

        func sameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }
    }

    /// Opens the journal of the profile and reads it (or the earlier pending file) whole.
    init(url: URL, legacyURL: URL) throws(WalletError) {
        self.url = url
        self.legacyURL = legacyURL
        _ = try refresh()
    }

    // MARK: Reading

    /// Reads what changed since the last read or write: the lines another process appended, or
    /// the whole file when it was replaced. Returns whether ``entries`` may have changed.
    mutating func refresh() throws(WalletError) -> Bool {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw Self.failure(url, errno) }
            return try readLegacy()
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.failure(url, errno) }
        let now = FileIdentity(info)
        if let seen, now == seen { return false }
        if let seen, now.sameFile(as: seen), now.size >= length, lines > 0, try startsWithHeader(descriptor) {
            try readLines(descriptor, from: length, size: now.size)
        } else {
            entries = []
            addLines = [:]
            lines = 0
            length = 0
            header = Data()
            try readLines(descriptor, from: 0, size: now.size)
        }
        seen = now
        return true
    }

    /// Whether the file open at `descriptor` starts with the header this journal read: the same
    /// file, not a later compaction's under a reused inode.
    private func startsWithHeader(_ descriptor: Int32) throws(WalletError) -> Bool {
        var bytes = [UInt8](repeating: 0, count: header.count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard read >= 0 else { throw Self.failure(url, errno) }
        return read == header.count && bytes.elementsEqual(header)
    }

    /// Applies the complete lines of `descriptor` from `offset`; stops before a line that has no
    /// newline yet.
    private mutating func readLines(_ descriptor: Int32, from offset: Int64, size: Int64) throws(WalletError) {
        guard size > offset else { return }
        let count = Int(size - offset)
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
        guard read >= 0 else { throw Self.failure(url, errno) }
        var start = 0
        var position = offset
        while let end = bytes[start..<read].firstIndex(of: Self.newline) {
            try apply(line: bytes[start..<end], at: position)
            position += Int64(end + 1 - start)
            start = end + 1
            lines += 1
            length = position
        }
    }

    private mutating func apply(line: ArraySlice<UInt8>, at offset: Int64) throws(WalletError) {
        let record: Record
        do { record = try JSONDecoder().decode(Record.self, from: Data(line)) } catch {
            throw .storage("\(url.path) is damaged at byte \(offset): \(error)")
        }
        if lines == 0 {
            guard case .header(let version) = record else {
                throw .storage("\(url.path) is damaged: it does not start with the journal's header")
            }
            guard version == 1 else {
                throw .storage("\(url.path) is version \(version) of the journal, written by a newer Tandem")
            }
            header = Data(line) + [Self.newline]
            return
        }
        switch record {
        case .header:
            throw .storage("\(url.path) is damaged at byte \(offset): a second header")
        case .add(let entry):
            guard !entries.contains(where: { $0.id == entry.id }) else { return }
            entries.append(entry)
            addLines[entry.id] = Data(line) + [Self.newline]
        case .drop(let id):
            entries.removeAll { $0.id == id }
            addLines[id] = nil
        }
    }

    /// No journal: the list is the earlier pending file's, read again when it changes.
    private mutating func readLegacy() throws(WalletError) -> Bool {
        var info = stat()
        guard stat(legacyURL.path, &info) == 0 else {
            let changed = seen != nil || !entries.isEmpty
            entries = []
            addLines = [:]
            header = Data()
            seen = nil
            lines = 0
            length = 0
            return changed
        }
        let now = FileIdentity(info)
        if let seen, now == seen, lines == 0 { return false }
        do {
            entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: legacyURL))
        } catch {
            throw .storage("\(legacyURL.path) is damaged: \(error)")
        }
        addLines = [:]
        header = Data()
        lines = 0
        length = 0
        seen = now
        return true
    }

    static func failure(_ url: URL, _ code: Int32) -> WalletError {
        .storage("\(url.path): \(String(cString: strerror(code)))")
    }
}

extension PendingJournal {
    // MARK: Writing

    /// Makes the journal say `pending` (called under the profile's pending lock): appends the
    /// drops and adds that turn ``entries`` into it, or compacts.
    mutating func save(_ pending: [Entry]) throws(WalletError) {
        guard let changes = try changeLines(to: pending) else { return try compact(pending) }
        guard !changes.isEmpty else { return }
        let descriptor = open(url.path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Self.failure(url, errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.failure(url, errno) }
        // Only this journal's own file, as it last saw it, is appended to; a file another
        // writer changed meanwhile is rewritten from the list the caller holds under the lock.
        guard let seen, FileIdentity(info) == seen, try startsWithHeader(descriptor) else {
            return try compact(pending)
        }
        // Bytes past the last newline are a line whose writer died mid-write: cut off.
        if seen.size > length, ftruncate(descriptor, off_t(length)) != 0 { throw Self.failure(url, errno) }
        var bytes = Data()
        for line in changes.lines { bytes.append(line) }
        let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(length)) }
        guard written == bytes.count else {
            let reason = written < 0 ? String(cString: strerror(errno)) : "a short write"
            self.seen = nil
            throw .storage("\(url.path): \(reason)")
        }
        guard fstat(descriptor, &info) == 0 else { throw Self.failure(url, errno) }
        entries = pending
        for (id, line) in changes.added { addLines[id] = line }
        for id in changes.dropped { addLines[id] = nil }
        lines += changes.lines.count
        length += Int64(bytes.count)
        self.seen = FileIdentity(info)
    }

    /// The lines to append, or nil when a compaction is due instead: no journal yet, too many
    /// dead lines, or a list that is not the current one less some entries plus new ones at
    /// its end.
    private mutating func changeLines(to pending: [Entry]) throws(WalletError) -> Changes? {
        guard lines > 0, seen != nil else { return nil }
        let kept = Set(pending.map(\.id))
        let current = Set(entries.map(\.id))
        let survivors = entries.filter { kept.contains($0.id) }
        guard pending.starts(with: survivors) else { return nil }
        var changes = Changes()
        for entry in entries where !kept.contains(entry.id) {
            changes.dropped.append(entry.id)
            changes.lines.append(
                Data(#"{"drop":""#.utf8) + Data(Hex.encode(entry.id).utf8) + Data(#""}"#.utf8) + [Self.newline])
        }
        for entry in pending[survivors.count...] {
            guard !current.contains(entry.id) else { return nil }
            let line = try Self.addLine(entry)
            changes.added.append((entry.id, line))
            changes.lines.append(line)
        }
        guard lines + changes.lines.count <= 2 * pending.count + Self.compactionSlack else { return nil }
        return changes
    }

    struct Changes {
        var lines: [Data] = []
        var added: [([UInt8], Data)] = []
        var dropped: [[UInt8]] = []
        var isEmpty: Bool { lines.isEmpty }
    }

    /// Rewrites the journal as the header and one `add` per entry, atomically, and removes the
    /// earlier pending file.
    private mutating func compact(_ pending: [Entry]) throws(WalletError) {
        let header = Self.newHeader()
        var bytes = header
        var fresh: [[UInt8]: Data] = [:]
        for entry in pending {
            let line: Data
            if let cached = addLines[entry.id] { line = cached } else { line = try Self.addLine(entry) }
            fresh[entry.id] = line
            bytes.append(line)
        }
        do { try SecretFile.replace(url, contents: bytes, durably: false) } catch {
            throw .storage(error.description)
        }
        if unlink(legacyURL.path) != 0, errno != ENOENT { throw Self.failure(legacyURL, errno) }
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw Self.failure(url, errno) }
        entries = pending
        addLines = fresh
        self.header = header
        lines = 1 + pending.count
        length = Int64(bytes.count)
        seen = FileIdentity(info)
    }

    /// `{"add":` + the entry as `JSONEncoder` writes it with sorted keys + `}` and a newline.
    static func addLine(_ entry: Entry) throws(WalletError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Data(#"{"add":"#.utf8) + (try encoder.encode(entry)) + Data("}".utf8) + [newline]
        } catch { throw .storage("cannot encode a pending transaction: \(error)") }
    }

    /// One line of the journal.
    enum Record: Decodable {
        case header(version: Int)
        case add(Entry)
        case drop([UInt8])

        private enum CodingKeys: String, CodingKey { case kaspaPendingJournal, file, add, drop }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if container.contains(.kaspaPendingJournal) {
                // A later version may name its file differently; the version is read first.
                self = .header(version: try container.decode(Int.self, forKey: .kaspaPendingJournal))
                return
            }
            guard container.allKeys.count == 1, let key = container.allKeys.first else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: [], debugDescription: "a line holds exactly one of header, add and drop"))
            }
            switch key {
            case .kaspaPendingJournal, .file:
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container, debugDescription: "a file name outside the header")
            case .add:
                self = .add(try container.decode(Entry.self, forKey: key))
            case .drop:
                let text = try container.decode(String.self, forKey: key)
                guard let id = Hex.decodeLowercase(text, byteCount: 32) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container, debugDescription: "not a transaction id")
                }
                self = .drop(id)
            }
        }
    }
}
