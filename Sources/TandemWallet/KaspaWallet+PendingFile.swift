import Foundation
import KaspaRPC
import SecretFiles
import TandemProfile

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The profile's pending transactions on disk (``Profile/File/kaspaPending``): read when another
/// process wrote them, written only by a send, under the profile's lock.
extension KaspaWallet {
    // MARK: The pending file

    static func loadPending(_ profile: Profile) throws(WalletError) -> [WalletLedger.PendingTransaction] {
        let url = profile.url(.kaspaPending)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        do {
            return try JSONDecoder().decode([WalletLedger.PendingTransaction].self, from: Data(contentsOf: url))
        } catch {
            throw .storage("\(url.path) is damaged: \(error)")
        }
    }

    /// The pending file's size and modification time: a cheap test for another process's write.
    struct PendingFileStamp: Equatable {
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
        /// Atomic writes replace the file: a new inode even within one timestamp tick.
        var inode: UInt64
    }

    /// One `stat` call: FileManager's attributes build a dictionary of boxed values, twice per send.
    func currentPendingStamp() -> PendingFileStamp? {
        var info = stat()
        guard stat(profile.url(.kaspaPending).path, &info) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = info.st_mtimespec
        #else
            let modified = info.st_mtim
        #endif
        return PendingFileStamp(
            size: Int64(info.st_size), modifiedSeconds: Int64(modified.tv_sec),
            modifiedNanoseconds: Int64(modified.tv_nsec), inode: UInt64(info.st_ino))
    }

    /// Reads the pending file again when another process wrote it since this wallet did.
    func reloadPendingIfChanged() throws(WalletError) {
        let stamp = currentPendingStamp()
        guard stamp == nil || stamp != pendingFileStamp else { return }
        try reloadPending()
        pendingFileStamp = stamp
    }

    func reloadPending() throws(WalletError) {
        var fresh = WalletLedger(address: address, pending: try Self.loadPending(profile))
        fresh.watch(ledger.watched.values)
        if ledger.hasSnapshot {
            do {
                try fresh.replaceConfirmed(
                    ledger.confirmed.values.map(RPCUtxosByAddressesEntry.init), virtualDaaScore: ledger.virtualDaaScore)
            } catch { throw .impossibleAmounts(error) }
        }
        ledger = fresh
    }

    /// Writes the pending list byte for byte as `JSONEncoder` (sorted keys) writes the array —
    /// `[`, the entries' JSON separated by `,`, `]` — reusing each entry's JSON from the last
    /// write while the entry is unchanged: a send encodes its own transaction, not every pending
    /// one again (issue 24 "Figures": re-encoding was most of a send's CPU at 20 pending).
    func savePending() throws(WalletError) {
        let url = profile.url(.kaspaPending)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var encoded: [[UInt8]: EncodedPending] = [:]
            var file = Data([UInt8(ascii: "[")])
            for (index, entry) in ledger.pending.enumerated() {
                let id = entry.id
                let json: Data
                if let cached = encodedPending[id], cached.entry == entry {
                    json = cached.json
                } else {
                    json = try encoder.encode(entry)
                }
                if index > 0 { file.append(UInt8(ascii: ",")) }
                file.append(json)
                encoded[id] = EncodedPending(entry: entry, json: json)
            }
            file.append(UInt8(ascii: "]"))
            encodedPending = encoded
            try SecretFile.replace(url, contents: file, durably: false)
        } catch { throw .storage("\(url.path): \(error)") }
        pendingFileStamp = currentPendingStamp()
    }

    /// A pending entry and its JSON in the pending file.
    struct EncodedPending {
        var entry: WalletLedger.PendingTransaction
        var json: Data
    }
}
