#if canImport(Security)
    public import Foundation
    import Security

    /// The Keychain as a profile's ``SecretStore`` on Apple platforms (issue 44 item 3; seed 004:
    /// "private keys kept in the Keychain, never in plain files"). Each secret is a generic
    /// password of `service`, its name the account, readable only while the device is unlocked
    /// and never leaving it (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`, not synchronised).
    ///
    /// Not built on Linux, so unverified until a macOS machine runs `SecretStoreContractTests`.
    public struct KeychainSecretStore: SecretStore {
        /// One service per profile, e.g. `"tandem.profile." + an id the app keeps`.
        public let service: String

        public init(service: String) { self.service = service }

        private func query(_ name: String?) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrSynchronizable as String: kCFBooleanFalse as Any,
            ]
            if let name { query[kSecAttrAccount as String] = name }
            return query
        }

        public func secret(_ name: String) throws(SecretStoreError) -> Data? {
            var query = query(name)
            query[kSecReturnData as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitOne
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess, let data = result as? Data else {
                throw .keychain(operation: "read", status: status)
            }
            return data
        }

        public func add(_ name: String, _ data: Data) throws(SecretStoreError) {
            var item = query(name)
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
            let status = SecItemAdd(item as CFDictionary, nil)
            if status == errSecDuplicateItem { throw .exists(name) }
            guard status == errSecSuccess else { throw .keychain(operation: "add", status: status) }
        }

        public func set(_ name: String, _ data: Data) throws(SecretStoreError) {
            let update: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ]
            let status = SecItemUpdate(query(name) as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound { return try add(name, data) }
            guard status == errSecSuccess else { throw .keychain(operation: "update", status: status) }
        }

        public func remove(_ name: String) throws(SecretStoreError) {
            let status = SecItemDelete(query(name) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw .keychain(operation: "delete", status: status)
            }
        }

        public func names() throws(SecretStoreError) -> [String] {
            var query = query(nil)
            query[kSecReturnAttributes as String] = true
            query[kSecMatchLimit as String] = kSecMatchLimitAll
            var result: AnyObject?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecItemNotFound { return [] }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else {
                throw .keychain(operation: "list", status: status)
            }
            return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
        }
    }
#endif
