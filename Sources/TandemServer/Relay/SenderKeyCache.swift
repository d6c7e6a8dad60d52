import KaspaCrypto
import TandemBasics

/// The parsed keys of recent senders (issue 11 "Figures"): a submission names its signer by
/// address text, and turning that text into a key is a bech32 decode plus a square root on
/// the curve (lifting x to a point). A person sends many messages from one address, so the
/// relay keeps the last `capacity` addresses it has parsed, keyed by the exact text submitted.
/// Only valid version-0 addresses are stored; anything else is parsed (and refused) every time.
/// The table is bounded (a `BoundedLRU`), so strangers choosing addresses cannot grow it.
final class SenderKeyCache: Sendable {
    struct Entry: Sendable {
        let address: KaspaAddress
        let key: XOnlyPublicKey
    }

    private let table: Locked<BoundedLRU<String, Entry>>

    init(capacity: Int = 4096) {
        table = Locked(BoundedLRU(capacity: capacity))
    }

    func entry(for text: String) -> Entry? {
        table.withLock { $0.value(for: text) }
    }

    func store(_ entry: Entry, for text: String) {
        table.withLock { $0.set(entry, for: text) }
    }
}
