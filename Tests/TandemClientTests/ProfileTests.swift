import Foundation
import KaspaCrypto
import TandemProfile
import TestSupport
import Testing

@Suite struct ProfileTests {
    @Test func createdKeyIsReadBackAndNeverOverwritten() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url.appendingPathComponent("nested/profile"))
        #expect(throws: ProfileError.walletKeyMissing(path: profile.url(.walletKey).path)) { try profile.walletKey() }

        let created = try profile.createWalletKey()
        #expect(try profile.walletKey() == created)
        #expect(throws: ProfileError.walletKeyExists(path: profile.url(.walletKey).path)) {
            try profile.createWalletKey()
        }
        #expect(try profile.walletKey() == created)

        let fileMode = try FileManager.default.attributesOfItem(atPath: profile.url(.walletKey).path)[.posixPermissions]
        let dirMode = try FileManager.default.attributesOfItem(atPath: profile.directory.path)[.posixPermissions]
        #expect((fileMode as? NSNumber)?.intValue == 0o600)
        #expect((dirMode as? NSNumber)?.intValue == 0o700)
    }

    @Test(
        "key files: whitespace tolerated, everything else named",
        arguments: [
            ("0000000000000000000000000000000000000000000000000000000000000001\n", true),
            ("  0000000000000000000000000000000000000000000000000000000000000001\r\n", true),
            ("0000000000000000000000000000000000000000000000000000000000000000", false),
            ("00000000000000000000000000000000000000000000000000000000000001", false),
            ("000000000000000000000000000000000000000000000000000000000000000g", false),
            ("", false),
        ])
    func parsesKeyFileContents(text: String, valid: Bool) {
        let result = Result { try Profile.privateKey(fromKeyFile: Data(text.utf8), path: "k") }
        switch result {
        case .success: #expect(valid)
        case .failure(let error):
            #expect(!valid)
            #expect((error as? ProfileError).map { "\($0)" }?.hasPrefix("key file k: ") == true)
        }
    }
}
