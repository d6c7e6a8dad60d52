/// Why a legacy contact list could not be migrated at all. Any of these leaves the store
/// untouched and the migration flag unset (timeline-and-contacts §3.3 "A decode failure leaves
/// the flag unset").
public enum LegacyMigrationError: Error, Equatable, CustomStringConvertible {
    /// The file is not JSON.
    case notJSON(reason: String)
    /// The top level is not an object of UserDefaults keys.
    case notAnObject
    /// A contacts key does not hold an array.
    case valueNotArray(key: String)
    /// An element of a contacts array is not an object.
    case contactNotObject(key: String, index: Int)

    public var description: String {
        switch self {
        case .notJSON(let reason): "legacy contacts: not JSON (\(reason))"
        case .notAnObject: "legacy contacts: expected a JSON object keyed by UserDefaults keys"
        case .valueNotArray(let key): "legacy contacts: \(key) is not an array of contacts"
        case .contactNotObject(let key, let index): "legacy contacts: \(key)[\(index)] is not an object"
        }
    }
}
