import BenchSupport
import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KasiaProtocol
import KaspaCrypto
import KaspaRPC
import MicroBenchmarks
import RoutingStore
import TandemAPI
import TandemBasics
import TandemMessaging
import TandemProfile

/// The client's steps of one delivery, each timed alone in this process after the run (the
/// listen stream stopped) on the last message's own frames and the receiver's own stores: what
/// `KaspaNodeConnection` decodes, what `KaspaMessageTransport` turns into rows, what
/// `Messenger.ingestMessage` reads and writes, and the watched set `listen()` recomputes after
/// every event. Medians of `repetitions` runs each.
enum ChatNodeSteps {
    struct Step: Encodable {
        var name: String
        var microseconds: Double
    }

    static let repetitions = 101

    static func measure(
        _ frames: ChatNodePath.Frames, receiver profile: Profile, key: PrivateKey, sender: KaspaAddress,
        network: KaspaNetwork
    ) throws -> [Step] {
        var steps: [Step] = []
        func step(_ name: String, _ body: () throws -> Void) rethrows {
            let clock = ContinuousClock()
            var samples: [Double] = []
            for _ in 0..<repetitions {
                let start = clock.now
                try body()
                samples.append((clock.now - start).nanoseconds / 1e3)
            }
            steps.append(Step(name: name, microseconds: samples.sorted()[samples.count / 2]))
        }

        // Reading the frames.
        let notification = Data(frames.notification.utf8)
        try step("decode the UtxosChanged frame") { blackHole(try RPCFrame.inbound(notification)) }
        let routing = try profile.openRouting()
        guard case .notification(.utxosChanged(let change)) = try RPCFrame.inbound(notification) else {
            throw CLIError("chat-node bench: the notification frame is not UtxosChanged")
        }
        // The live session's contacts: an array, sorted as Messenger.watchSet sorts them.
        let watched = try routing.fetchTable().states.keys.sorted { $0.description < $1.description }
        step("pick the changed contacts (Array.contains over \(watched.count))") {
            blackHole(
                (change.added.compactMap(\.address) + change.removed.compactMap(\.address)).filter {
                    watched.contains($0)
                })
        }
        var page: RPCVirtualChainFromBlockResponse?
        for (index, answer) in frames.answers.enumerated() {
            let frame = Data(answer.frame.utf8)
            switch answer.method {
            case RPCMethod.getVirtualChainFromBlockV2.rawValue:
                let decoded = try RPCFrame.params(RPCVirtualChainFromBlockResponse.self, from: frame)
                if page == nil, !decoded.chainBlockAcceptedTransactions.isEmpty { page = decoded }
                try step("decode answer \(index + 1), \(answer.method) (\(frame.count) B)") {
                    blackHole(try RPCFrame.inbound(frame))
                    blackHole(try RPCFrame.params(RPCVirtualChainFromBlockResponse.self, from: frame))
                }
            case RPCMethod.getMempoolEntriesByAddresses.rawValue:
                try step("decode answer \(index + 1), \(answer.method) (\(frame.count) B)") {
                    blackHole(try RPCFrame.inbound(frame))
                    blackHole(try RPCFrame.params(RPCMempoolEntriesByAddresses.self, from: frame))
                }
            default: continue
            }
        }
        guard let page else { throw CLIError("chat-node bench: the last message's walk read no transaction") }
        let transactions = page.chainBlockAcceptedTransactions.flatMap(\.acceptedTransactions)
        step("rows of the page's \(transactions.count) transactions (KaspaChatRows)") {
            for transaction in transactions {
                blackHole(KaspaChatRows.event(transaction, blockTime: 0, network: network))
            }
        }
        let rows = transactions.compactMap { KaspaChatRows.event($0, blockTime: 0, network: network) }
        guard
            let row = rows.lazy.compactMap({ event -> IndexerContextualMessage? in
                guard case .contextualMessage(let row) = event.row, row.txID == frames.txID else { return nil }
                return row
            }).first
        else { throw CLIError("chat-node bench: the walk's page holds no row for \(frames.txID)") }

        // Messenger.ingestMessage's reads and writes, on the receiver's stores.
        let history = try profile.openChatHistory()
        let contacts = try profile.openContacts()
        let receiver = KaspaAddress(publicKey: key.xOnlyPublicKey, network: network)
        let wallet = ContactAddress(receiver)
        try step("ingest: history lookup by tx id") { blackHole(try history.message(txID: TxID(row.txID))) }
        try step("ingest: routing fetchOne(sender)") { blackHole(try routing.fetchOne(sender)) }
        try step("ingest: routing policy()") { blackHole(try routing.policy()) }
        try step("ingest: parse the body and KasiaCipher.open") {
            let aliasText = String(decoding: try Hex.decode(row.alias), as: UTF8.self)
            let body = try Hex.decode(row.messagePayload)
            guard
                case .contextualMessage(_, let sealed, _) = try KasiaPayload(
                    parsing: Array("ciph_msg:1:comm:\(aliasText):".utf8) + body)
            else { throw CLIError("chat-node bench: the row is not a contextual message") }
            blackHole(try KasiaCipher.open(sealed, using: key))
        }
        guard let state = try routing.fetchOne(sender) else {
            throw CLIError("chat-node bench: no routing state for the sender")
        }
        try step("ingest: routing save(state)") { try routing.save([state]) }
        var time = UInt64(row.blockTime)
        try step("ingest: history insert") {
            time += 1
            try history.save(
                StoredMessage(
                    id: MessageID(UUID()), conversation: ConversationID(sender.description),
                    txID: TxID(UUID().uuidString), blockTime: time, timestamp: Int64(time), status: .sent,
                    direction: .incoming, kind: .text, body: Data("ordinary chat text".utf8)))
        }
        try step("ingest: contacts recordMessage") {
            try contacts.recordMessage(
                from: ContactAddress(sender), wallet: wallet, at: UnixMillis(Int64(clamping: time)))
        }

        // A watched-set check (Messenger.watchSet): listen() makes one after a row whose plan
        // changes aliases or adds a contact, and after each debounced contacts change.
        try step("a watched-set check (\(watched.count) states)") {
            blackHole(
                try Messenger.watchSet(
                    routing: routing, contacts: contacts, wallet: wallet, address: receiver,
                    now: profile.clock.now))
        }
        let table = try routing.fetchTable()
        try step("  of which: routing fetchTable()") { blackHole(try routing.fetchTable()) }
        let peers = Array(table.states.keys)
        step("  of which: sort the contacts by address text (an encoding per comparison)") {
            blackHole(peers.sorted { $0.description < $1.description })
        }
        step("  the same sort with each address encoded once") {
            blackHole(peers.map { ($0.description, $0) }.sorted { $0.0 < $1.0 }.map(\.1))
        }
        return steps
    }
}
