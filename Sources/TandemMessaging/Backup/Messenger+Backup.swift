import ChatHistory
import Contacts
public import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// Chat backups (issue 48 item 2): Tandem's archive of the whole chat state, KaChat's encrypted
/// archive (kasia-protocol §16), and Kasia web's export.
extension Messenger {
    /// The profile's chat as a backup file's bytes. Only rows the network took travel: pending
    /// and failed rows (no transaction id) are never exported.
    public func exportChatBackup(format: ChatBackupFormat) throws -> (file: Data, report: ChatExportReport) {
        let snapshot = try history.snapshot()
        let peers = Set(snapshot.messages.map(\.conversation))
        let report = ChatExportReport(format: format, conversations: peers.count, messages: snapshot.messages.count)
        let live = try contacts.contacts(wallet: wallet)
        switch format {
        case .kachat:
            let names = Dictionary(live.compactMap { c in c.name.map { (c.address.description, $0) } }) { a, _ in a }
            let archive = try KaChatArchive.make(
                snapshot, wallet: address,
                exportedAt: Date(timeIntervalSince1970: TimeInterval(profile.clock.now.rawValue / 1000)),
                alias: { names[$0.rawValue] }, unread: { try history.unreadCount(in: $0) })
            let envelope = try KaChatBackupEnvelope.seal(archive.encoded(), key: key, wallet: address)
            return (try envelope.encoded(), report)
        case .tandem:
            let archive = TandemChatArchive(
                snapshot: snapshot, routing: Array(try routing.fetchTable().states.values),
                contacts: live.map { TandemChatArchive.ContactName(address: $0.address.description, alias: $0.name) }
                    .sorted { $0.address < $1.address },
                wallet: address, exportedAt: profile.clock.now.rawValue)
            return (try TandemChatEnvelope.seal(archive, key: key, wallet: address), report)
        }
    }

    /// Merges a backup into the profile: Tandem's, KaChat's (encrypted or plaintext) or Kasia
    /// web's, recognized by its contents. Nothing is overwritten (``ChatHistoryStore/merge(_:)``);
    /// contacts are added for conversations that have none, never renamed; routing states gain
    /// what they lack. A file that is damaged, foreign or of another wallet throws before anything
    /// changes, and a second import of the same file changes nothing.
    public func importChatBackup(_ file: Data) throws -> ChatImportReport {
        guard file.count <= ChatBackupFormat.maximumImportBytes else {
            throw ChatBackupError.tooLarge(bytes: file.count, limit: ChatBackupFormat.maximumImportBytes)
        }
        let probe: BackupProbe
        do { probe = try JSONDecoder().decode(BackupProbe.self, from: file) } catch {
            throw ChatBackupError.notABackup("the file is not a JSON object")
        }
        if probe.members.contains(TandemChatEnvelope.marker) {
            let archive = try TandemChatEnvelope.open(file, key: key, wallet: address)
            return try importTandem(archive)
        }
        var report: ChatImportReport
        let imported: KaChatArchive.Imported
        if probe.members.contains(KaChatBackupEnvelope.marker) {
            report = ChatImportReport(format: .kachat)
            let plaintext = try KaChatBackupEnvelope.decode(file).open(key: key, wallet: address)
            imported = try KaChatArchive.decode(plaintext).imported(wallet: address)
        } else if probe.type == KasiaWebBackup.fileType {
            report = ChatImportReport(format: .kasiaWeb)
            imported = try KasiaWebBackup.imported(file, key: key, wallet: address)
        } else if probe.members.contains("schemaVersion") && probe.members.contains("conversations") {
            report = ChatImportReport(format: .kachatPlaintext)
            imported = try KaChatArchive.decode(file).imported(wallet: address)
        } else {
            throw ChatBackupError.notABackup(
                "a JSON object that is none of Tandem's, KaChat's or Kasia web's backups")
        }
        report.conversations = imported.conversations
        report.messages = imported.messages
        report.messagesSkipped = imported.skipped
        report.add(try history.merge(imported.snapshot))
        report.contactsAdded = try addContacts(imported.peers)
        return report
    }

    private func importTandem(_ archive: TandemChatArchive) throws -> ChatImportReport {
        var report = ChatImportReport(format: .tandem)
        let (snapshot, skipped) = archive.snapshot()
        report.messages = archive.messages.count
        report.conversations = Set(archive.messages.map(\.conversation)).count
        report.messagesSkipped = skipped
        var peers: [(address: KaspaAddress, alias: String?)] = []
        for contact in archive.contacts {
            guard let peer = try? KaspaAddress(contact.address), peer.network == address.network else { continue }
            peers.append((peer, contact.alias.flatMap { $0.isEmpty ? nil : $0 }))
        }
        let states = archive.routing.filter { state in
            (try? AliasPair(privateKey: key, peer: state.contactAddress)) == state.deterministic
                && state.contactAddress.network == address.network
        }
        report.add(try history.merge(snapshot))
        report.contactsAdded = try addContacts(peers)
        report.routingStatesMerged = try mergeRouting(states)
        return report
    }

    /// Adds each peer that has no contact record at all (a deleted contact stays deleted).
    private func addContacts(_ peers: [(address: KaspaAddress, alias: String?)]) throws -> Int {
        var added = 0
        for (peer, alias) in peers where peer != address {
            let contact = ContactAddress(peer)
            guard try contacts.record(for: ContactKey(wallet: wallet, address: contact)) == nil else { continue }
            try contacts.add(contact, wallet: wallet, alias: alias)
            added += 1
        }
        return added
    }

    private func mergeRouting(_ imported: [ConversationRoutingState]) throws -> Int {
        var changed: [ConversationRoutingState] = []
        for state in imported {
            let local = try routing.fetchOne(state.contactAddress)
            let merged = local.map { $0.absorbing(state) } ?? state
            if merged != local { changed.append(merged) }
        }
        try routing.save(changed)
        return changed.count
    }
}

/// The top-level members of a JSON object, and its `type` when that is text.
private struct BackupProbe: Decodable {
    var members: Set<String>
    var type: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        members = Set(container.allKeys.map(\.stringValue))
        type = try? container.decode(String.self, forKey: Key(stringValue: "type"))
    }
}

extension ConversationRoutingState {
    /// This state with what `other` (the same conversation, from a backup) knows and it does not:
    /// legacy aliases, capability evidence, the latest traffic times and evidence of the peer's
    /// root and app, and KaChat's conversation id. The person's own choices here are kept.
    func absorbing(_ other: ConversationRoutingState) -> ConversationRoutingState {
        var merged = self
        merged.legacyIncomingAliases.formUnion(other.legacyIncomingAliases)
        merged.legacyOutgoingAliases.formUnion(other.legacyOutgoingAliases)
        if !hasLegacyData && merged.hasLegacyData && mode == .deterministicOnly { merged.mode = other.mode }
        merged.peerSupportsDeterministic = peerSupportsDeterministic || other.peerSupportsDeterministic
        merged.deterministicAliasKnownToPeer = deterministicAliasKnownToPeer || other.deterministicAliasKnownToPeer
        merged.lastLegacyIncomingAt = [lastLegacyIncomingAt, other.lastLegacyIncomingAt].compactMap { $0 }.max()
        merged.lastDeterministicIncomingAt = [lastDeterministicIncomingAt, other.lastDeterministicIncomingAt]
            .compactMap { $0 }.max()
        merged.createdAt = min(createdAt, other.createdAt)
        merged.conversationID = conversationID ?? other.conversationID
        if let theirs = other.peerRoot, theirs.at > peerRoot?.at ?? .init(Int64.min) { merged.peerRoot = theirs }
        if let theirs = other.peerApp, theirs.at > peerApp?.at ?? .init(Int64.min) { merged.peerApp = theirs }
        return merged
    }
}
