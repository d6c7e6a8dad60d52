import CanonicalJSON
import Foundation
import RedoProtocol
import Testing

@Suite struct NodeValidationVectorTests {
    @Test func vectorSectionsHaveTheDocumentedSizes() {
        #expect(RedoVectorFile.list("validNodes").count == 15)
        #expect(RedoVectorFile.list("invalidNodes").count == 80)
    }

    @Test(arguments: NamedVector.all("validNodes"))
    func acceptsValidNodeWithByteExactIDAndSignature(_ vector: NamedVector) throws {
        let entry = vector.value
        let policy: SignaturePolicy = entry["validForSync"] == .bool(true) ? .required : .verifyIfPresent
        let node = try NodeValidator(signaturePolicy: policy).validate(try #require(entry["node"]))
        #expect(node.id.description == entry["id"]?.text)
        let body = try ContentAddress.canonicalBody(of: node.json)
        #expect(String(decoding: body.bytes, as: UTF8.self) == entry["canonicalBody"]?.text)
        if let signature = entry["signature"]?.stringValue {
            let key = try RedoVectorFile.signingKey(entry["signer"]?.text ?? "")
            #expect(key.signature(for: body.bytes).description == signature)
            #expect(node.signature?.description == signature)
        }
    }

    @Test(arguments: NamedVector.all("validNodes"))
    func producerRebuildsValidNodeByteExactly(_ vector: NamedVector) throws {
        let entry = vector.value
        let original = try NodeValidator().validate(try #require(entry["node"]))
        let payload = try #require(entry["node"]?["data"]?["payload"]?.objectValue)
        let draft = NodeDraft(
            taskID: original.taskID, action: original.action, payload: payload,
            parents: original.parents, lamport: original.lamport, wall: original.wall,
            author: original.author)
        let key =
            entry["signature"]?.stringValue == nil ? nil : try RedoVectorFile.signingKey(entry["signer"]?.text ?? "")
        let rebuilt = try draft.node(signedWith: key)
        #expect(rebuilt.id == original.id)
        #expect(rebuilt.signature?.description == entry["signature"]?.stringValue)
    }

    @Test func unsignedNodeIsRefusedAtASyncBoundary() throws {
        let unsigned = try #require(RedoVectorFile.list("validNodes").first { $0["validForSync"] == .bool(false) })
        let node = try #require(unsigned["node"])
        #expect(throws: NodeValidationError.self) { try NodeValidator(signaturePolicy: .required).validate(node) }
        #expect(try NodeValidator(signaturePolicy: .verifyIfPresent).validate(node).signature == nil)
    }

    @Test(arguments: NamedVector.all("invalidNodes"))
    func rejectsInvalidNodeWithAnAcceptableCode(_ vector: NamedVector) throws {
        let entry = vector.value
        let acceptable = Set((entry["acceptableCodes"]?.arrayValue ?? []).compactMap(\.stringValue))
        let policy: SignaturePolicy = entry["requireSignature"] == .bool(true) ? .required : .verifyIfPresent
        let validator = NodeValidator(signaturePolicy: policy)
        do {
            if let text = entry["nodeJsonText"]?.stringValue {
                _ = try validator.validate(bytes: Array(text.utf8))
            } else {
                _ = try validator.validate(try #require(entry["node"]))
            }
            Issue.record("\(vector.testDescription) was accepted")
        } catch let error as NodeValidationError {
            #expect(acceptable.contains(error.code.rawValue), "got \(error)")
            #expect(error.code.rawValue == entry["expectedCode"]?.text, "got \(error)")
        }
    }

    @Test func payloadSizeBoundaryIsInclusive() throws {
        let vector = try RedoVectorFile.section("payloadSizeBoundary")
        let template = try #require(vector["template"])
        let key = try RedoVectorFile.signingKey(template["signer"]?.text ?? "")
        for (caseName, shouldPass) in [("atLimit", true), ("overLimit", false)] {
            let limitCase = try #require(vector[caseName])
            let count = Int(try #require(limitCase["N"]?.numberValue))
            let payload = try JSONObject([
                ("title", .string("x")), ("description", .string(String(repeating: "a", count: count))),
            ])
            let draft = NodeDraft(
                taskID: try #require(TaskID(template["taskId"]?.text ?? "")), action: .create, payload: payload,
                parents: [], lamport: 1, wall: try #require(WallTime(template["wall"]?.text ?? "")),
                author: Author(
                    publicKey: key.publicKey, deviceID: try #require(DeviceID(template["deviceId"]?.text ?? ""))))
            let body = try ContentAddress.canonicalBody(of: draft.body)
            #expect(body.payloadByteCount == Int(limitCase["canonicalPayloadBytes"]?.numberValue ?? 0))
            #expect(ContentAddress.id(ofCanonicalBody: body.bytes).description == limitCase["id"]?.text)
            if shouldPass {
                let node = try draft.node(signedWith: key)
                #expect(node.signature?.description == limitCase["signature"]?.text)
            } else {
                do {
                    _ = try draft.node(signedWith: key)
                    Issue.record("a payload over the limit was accepted")
                } catch .invalid(let error) {
                    #expect(error.code.rawValue == limitCase["expectedCode"]?.text)
                }
            }
        }
    }
}
