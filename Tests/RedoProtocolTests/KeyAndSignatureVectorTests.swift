import CanonicalJSON
import Foundation
import RedoProtocol
import TestSupport
import Testing

@Suite struct KeyAndSignatureVectorTests {
    @Test(arguments: RedoVectorFile.list("keys").map { NamedVector(value: $0) })
    func seedDerivesPublicKeyAndUserID(_ vector: NamedVector) throws {
        let entry = vector.value
        let key = try SigningKey(seed: Array(try #require(Data(testHex: entry["seedHex"]?.text ?? ""))))
        #expect(key.publicKey.description == entry["publicKeyHex"]?.text)
        #expect(key.userID.description == entry["userId"]?.text)
        #expect(LowercaseHexCheck.hex(key.seed) == entry["privateKeyHex"]?.text)
    }

    @Test(arguments: RedoVectorFile.list("ed25519").map { NamedVector(value: $0) })
    func signsVectorMessagesByteExactly(_ vector: NamedVector) throws {
        let entry = vector.value
        let key = try RedoVectorFile.signingKey(entry["key"]?.text ?? "")
        let message = Array(try #require(Data(testHex: entry["messageUtf8Hex"]?.text ?? "")))
        let signature = key.signature(for: message)
        #expect(signature.description == entry["signature"]?.text)
        #expect(SigningKey.isValidSignature(signature, for: message, publicKey: key.publicKey))
        #expect(!SigningKey.isValidSignature(signature, for: message + [0], publicKey: key.publicKey))
    }

    @Test func rejectsSeedsOfTheWrongLength() {
        #expect(throws: SigningKeyError.seedLength(31)) { try SigningKey(seed: [UInt8](repeating: 1, count: 31)) }
    }

    @Test func spec13_1CanonicalFormAndIDMatch() throws {
        let vector = try RedoVectorFile.section("spec13_1")
        let input = try #require(vector["input"]?.objectValue)
        let body = try ContentAddress.canonicalBody(of: input)
        #expect(String(decoding: body.bytes, as: UTF8.self) == vector["canonical"]?.text)
        #expect(try ContentAddress.id(of: input).description == vector["id"]?.text)
        #expect(try ContentAddress.id(of: input).description != vector["specPrintedId"]?.text)
    }
}

enum LowercaseHexCheck {
    static func hex(_ bytes: [UInt8]) -> String { Data(bytes).testHex }
}
