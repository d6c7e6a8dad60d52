/// `POST /api/me/keys`: a device's Ed25519 public key (Redo `author.publicKey`, 64 lowercase
/// hex) with its signature (128 lowercase hex) over ``DeviceKeyBinding/message(userID:publicKey:)``.
public struct DeviceKeyRegistration: RequestBody {
    public var publicKey: String
    public var signature: String

    public init(publicKey: String, signature: String) {
        self.publicKey = publicKey
        self.signature = signature
    }

    public enum Field: String, CodingKey, CaseIterable, Sendable {
        case publicKey, signature
    }

    private typealias CodingKeys = Field
}
