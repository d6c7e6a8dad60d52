/// The message a device key signs to prove it belongs to an account (issue 12 item 1):
/// `"tandem-key-binding/v1\n" ‖ userId ‖ "\n" ‖ publicKey`, UTF-8, no trailing newline.
///
/// Binding the server's account id stops a captured proof from registering the key to another
/// account; the version prefix keeps it from ever being a valid Redo node body (spec §3 signs
/// canonical JSON, which starts with `{`).
public enum DeviceKeyBinding {
    public static let prefix = "tandem-key-binding/v1\n"

    /// The signed bytes for `userID` (the server's account id) and `publicKey` (64 lowercase hex).
    public static func message(userID: String, publicKey: String) -> [UInt8] {
        Array((prefix + userID + "\n" + publicKey).utf8)
    }
}
