import Foundation

/// KaChat's `Contact` as its Codable synthesis writes it (kasia-protocol §8), so tests produce
/// legacy files with Swift's default `JSONEncoder`, exactly as KaChat did.
struct KaChatContact: Codable {
    var id = UUID()
    var address: String
    var alias: String
    var addedAt: Date
    var lastMessageAt: Date?
    var isAutoAdded = false
    var notificationsMuted: Bool?
    var notificationModeOverride: String?
    var realtimeUpdatesDisabled = false
    var isArchived = false
    var systemContactId: String?
}

enum KaChatLegacyFile {
    /// `{ key: [Contact] }` encoded with a default `JSONEncoder`.
    static func encode(_ lists: [String: [KaChatContact]]) throws -> Data {
        try JSONEncoder().encode(lists)
    }

    static func walletKey(_ wallet: String) -> String { "kachat_contacts_wallet_" + wallet }
}
