public import Foundation

/// The export/import file (`tandem contacts export-sync`): a JSON envelope around opaque blobs,
/// `{"format":"tandem.contacts.sync","version":1,"records":[{"id":…,"box":<base64>}]}`.
public struct ContactSyncBundle: Sendable, Hashable, Codable {
    public static let formatName = "tandem.contacts.sync"

    public let format: String
    public let version: Int
    public let records: [ContactSyncBlob]

    public init(records: [ContactSyncBlob]) {
        format = Self.formatName
        version = 1
        self.records = records
    }

    public func serialized() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public init(serialized data: Data) throws(ContactsSyncError) {
        let decoded: ContactSyncBundle
        do { decoded = try JSONDecoder().decode(ContactSyncBundle.self, from: data) } catch {
            throw .malformedFile(reason: "not a contacts sync envelope")
        }
        guard decoded.format == Self.formatName else { throw .malformedFile(reason: "format \"\(decoded.format)\"") }
        guard decoded.version == 1 else { throw .unsupportedVersion(decoded.version) }
        self = decoded
    }
}

extension ContactsStore {
    /// Seals every record of the cipher's wallet (skeletons included, so purges propagate).
    public func exportSync(using cipher: ContactsSyncCipher) throws -> ContactSyncBundle {
        ContactSyncBundle(records: try records(wallet: cipher.wallet).map { try cipher.seal($0) })
    }

    /// Opens every blob first, then merges them all in one transaction; a single bad blob
    /// rejects the whole import with a ``ContactsSyncError``. Returns the changed keys.
    @discardableResult
    public func importSync(_ bundle: ContactSyncBundle, using cipher: ContactsSyncCipher) throws -> [ContactKey] {
        var opened: [ContactRecord] = []
        opened.reserveCapacity(bundle.records.count)
        for blob in bundle.records { opened.append(try cipher.open(blob)) }
        return try merge(opened)
    }
}
