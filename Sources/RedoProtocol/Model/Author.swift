/// `author.deviceId`: free-form, at least one character (spec §2).
public struct DeviceID: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        description = text
    }
}

/// The crypto identity that wrote a node (spec §2 `author`, §3, §11.1).
public struct Author: Sendable, Hashable {
    public let userID: UserID
    public let deviceID: DeviceID
    public let publicKey: PublicKeyHex
    /// Optional members are omitted when nil, never written as null or "" (spec §2).
    public let name: String?
    public let email: String?
    public let deviceName: String?

    /// The author for a key: `userId` is derived from the key, so it always matches (RES-3).
    public init(
        publicKey: PublicKeyHex, deviceID: DeviceID, name: String? = nil, email: String? = nil,
        deviceName: String? = nil
    ) {
        self.init(
            userID: publicKey.userID, publicKey: publicKey, deviceID: deviceID, name: name, email: email,
            deviceName: deviceName)
    }

    /// An author whose `userId` text the caller has checked against the key (the validator, which
    /// has the node's own text for it).
    init(
        userID: UserID, publicKey: PublicKeyHex, deviceID: DeviceID, name: String?, email: String?,
        deviceName: String?
    ) {
        self.userID = userID
        self.deviceID = deviceID
        self.publicKey = publicKey
        self.name = name
        self.email = email
        self.deviceName = deviceName
    }
}
