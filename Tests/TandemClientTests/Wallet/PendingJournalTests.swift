import Foundation
import KaspaCrypto
import KaspaTransaction
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import TandemWallet

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The wallet's pending journal (issue 49 item 4): one line appended per change, read from where
/// another process stopped, a line cut short by a kill ignored and cut off, compacted when dead
/// lines pile up, and the earlier pending file taken over.
@Suite("Pending journal (issue 49 item 4)")
struct PendingJournalTests {
    typealias Entry = WalletLedger.PendingTransaction

    /// `count` distinct signed transactions, each spending a coin of its own.
    static func entries(_ count: Int) throws -> [Entry] {
        let key = try PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")
        let address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: .testnet)
        let builder = KaspaTransactionBuilder(key: key, network: .testnet)
        return try (0..<count).map { index in
            let coin = KaspaUtxoEntry(
                address: address,
                outpoint: KaspaOutpoint(transactionID: Array(repeating: UInt8(index % 256), count: 32), index: 0),
                amount: 100_000_000 + UInt64(index), scriptPublicKey: KaspaScriptPublicKey(address: address),
                blockDAAScore: 10)
            let transaction = try builder.build(.selfSpend(payload: Array("m\(index)".utf8)), utxos: [coin])
            return Entry(transaction: transaction, submittedAtMs: Int64(index))
        }
    }

    struct Files {
        let directory: TemporaryDirectory
        var url: URL { directory.url.appendingPathComponent("kaspa-pending.jsonl") }
        var legacy: URL { directory.url.appendingPathComponent("kaspa-pending.json") }

        init() throws { directory = try TemporaryDirectory() }

        func open() throws -> PendingJournal { try PendingJournal(url: url, legacyURL: legacy) }
        func text() throws -> String { String(decoding: try Data(contentsOf: url), as: UTF8.self) }
        func inode() -> UInt64 {
            var info = stat()
            return stat(url.path, &info) == 0 ? UInt64(info.st_ino) : 0
        }
        func append(_ text: String) throws {
            let handle = try FileHandle(forWritingTo: url)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }
    }

    @Test("a send appends one line to the same file; another process reads only what was added")
    func appendsAndReadsOn() throws {
        let files = try Files()
        let pool = try Self.entries(4)
        var writer = try files.open()
        var reader = try files.open()
        #expect(reader.entries.isEmpty)
        try writer.save([pool[0]])
        let inode = files.inode()
        try writer.save([pool[0], pool[1]])
        try writer.save([pool[1], pool[2]])
        #expect(files.inode() == inode)
        let lines = try files.text().split(separator: "\n")
        #expect(lines.count == 1 + 3 + 1)
        #expect(lines[0].hasPrefix(#"{"kaspaPendingJournal":1,"file":""#))
        #expect(lines[3] == Substring(#"{"drop":""# + Hex.encode(pool[0].id) + #""}"#))
        #expect(try reader.refresh())
        #expect(reader.entries == [pool[1], pool[2]])
        #expect(try !reader.refresh())
        try writer.save([pool[1], pool[2], pool[3]])
        let before = reader.length
        #expect(try reader.refresh())
        #expect(reader.length > before)
        #expect(reader.entries == [pool[1], pool[2], pool[3]])
        #expect(try files.open().entries == reader.entries)
        // Nothing changed: nothing is written.
        let size = try Data(contentsOf: files.url).count
        try writer.save([pool[1], pool[2], pool[3]])
        #expect(try Data(contentsOf: files.url).count == size)
    }

    @Test("a line cut short by a kill is not read, and the next write cuts it off")
    func tornTail() throws {
        let files = try Files()
        let pool = try Self.entries(3)
        var writer = try files.open()
        try writer.save([pool[0]])
        let whole = try PendingJournal.addLine(pool[1])
        try files.append(String(decoding: whole.dropLast(40), as: UTF8.self))
        var reader = try files.open()
        #expect(reader.entries == [pool[0]])
        // The writer (under the lock) finds the file changed and rewrites it from its list.
        try writer.save([pool[0], pool[2]])
        _ = try reader.refresh()
        #expect(reader.entries == [pool[0], pool[2]])
        #expect(try files.open().entries == [pool[0], pool[2]])
        #expect(try files.text().split(separator: "\n").count == 3)
        #expect(try files.text().hasSuffix("\n"))

        // A writer that read the cut line itself cuts it off in place.
        try files.append(String(decoding: whole.dropLast(40), as: UTF8.self))
        var second = try files.open()
        let inode = files.inode()
        try second.save([pool[0], pool[2], pool[1]])
        #expect(files.inode() == inode)
        #expect(try files.open().entries == [pool[0], pool[2], pool[1]])
        #expect(try files.text().hasSuffix("\n"))
    }

    @Test("a damaged line, a missing header and a newer version are named, never skipped")
    func damage() throws {
        let pool = try Self.entries(2)
        let files = try Files()
        var writer = try files.open()
        try writer.save([pool[0]])
        try files.append("{\"add\":{\"nonsense\":1}}\n")
        let damaged = #expect(throws: WalletError.self) { _ = try files.open() }
        #expect(damaged?.description.contains("damaged at byte") == true)

        let other = try Files()
        try Data("{\"drop\":\"\(Hex.encode(pool[0].id))\"}\n".utf8).write(to: other.url)
        #expect(throws: WalletError.self) { _ = try other.open() }
        try Data("{\"kaspaPendingJournal\":2}\n".utf8).write(to: other.url)
        let newer = #expect(throws: WalletError.self) { _ = try other.open() }
        #expect(newer?.description.contains("newer Tandem") == true)
        try Data("{\"kaspaPendingJournal\":1}\n{\"drop\":\"abc\"}\n".utf8).write(to: other.url)
        #expect(throws: WalletError.self) { _ = try other.open() }
    }

    @Test("dead lines past twice the list and the slack are compacted away in a new file")
    func compaction() throws {
        let files = try Files()
        let pool = try Self.entries(40)
        var writer = try files.open()
        var reader = try files.open()
        var inodes: Set<UInt64> = []
        for round in 0..<60 {
            let list = Array(pool[(round % 20)..<(round % 20 + 3)])
            try writer.save(list)
            inodes.insert(files.inode())
            #expect(writer.lines <= 2 * list.count + PendingJournal.compactionSlack)
            if round % 7 == 0 {
                _ = try reader.refresh()
                #expect(reader.entries == list)
            }
        }
        #expect(inodes.count > 1)
        _ = try reader.refresh()
        #expect(reader.entries == writer.entries)
        #expect(try files.open().entries == writer.entries)
    }

    @Test("the earlier pending file is read while no journal exists, and removed by the first write")
    func takesOverTheLegacyFile() throws {
        let files = try Files()
        let pool = try Self.entries(3)
        let encoder = JSONEncoder()
        try encoder.encode([pool[0], pool[1]]).write(to: files.legacy)
        var journal = try files.open()
        #expect(journal.entries == [pool[0], pool[1]])
        try journal.save([pool[0], pool[1], pool[2]])
        #expect(!FileManager.default.fileExists(atPath: files.legacy.path))
        #expect(try files.open().entries == [pool[0], pool[1], pool[2]])

        let broken = try Files()
        try Data("[{".utf8).write(to: broken.legacy)
        #expect(throws: WalletError.self) { _ = try broken.open() }
    }

    @Test("seeded random lists, readers and cut lines: every reader ends with the writer's list")
    func randomHistories() throws {
        let pool = try Self.entries(30)
        for seed in UInt64(1)...40 {
            var random = SeededRandom(seed: seed)
            let files = try Files()
            var writer = try files.open()
            var reader = try files.open()
            var list: [Entry] = []
            for _ in 0..<60 {
                // Drop a random few, then append some not in the list.
                list.removeAll { _ in Int.random(in: 0..<4, using: &random) == 0 }
                let absent = pool.filter { entry in !list.contains { $0.id == entry.id } }
                list += absent.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
                if Int.random(in: 0..<10, using: &random) == 0, FileManager.default.fileExists(atPath: files.url.path) {
                    // A writer that died mid-line; the next writer rereads under the lock.
                    try files.append(#"{"add":{"submitted"#)
                    writer = try files.open()
                }
                try writer.save(list)
                #expect(writer.entries.map(\.id) == list.map(\.id))
                if Bool.random(using: &random) {
                    _ = try reader.refresh()
                    #expect(reader.entries.map(\.id) == list.map(\.id), "seed \(seed)")
                }
            }
            #expect(try files.open().entries.map(\.id) == list.map(\.id), "seed \(seed)")
        }
    }
}
