import Testing

@testable import Contacts

@Suite struct ContactAddressTests {
    @Test func uppercasePrefixedAndBareFormsNormaliseToOneLowercaseAddress() throws {
        let canonical = Fixture.address(1).description
        let body = String(canonical.dropFirst("kaspa:".count))
        let forms = [
            canonical, canonical.uppercased(), "  " + body.uppercased() + "\n", body,
            "Kaspa:" + body.prefix(10).uppercased() + body.dropFirst(10),
        ]
        for form in forms {
            #expect(try ContactAddress(normalizing: form).description == canonical)
        }
    }

    @Test(arguments: ["", "kaspa:", "kaspa:qqqq", "bitcoin:qpumabc", "kaspa:qpum!"])
    func rejectsTextThatIsNotAnAddress(_ text: String) {
        #expect(throws: ContactsError.self) { try ContactAddress(normalizing: text) }
    }

    @Test func autoAliasIsTheLastEightCharacters() {
        let address = Fixture.address(3)
        #expect(address.autoAlias.count == 8)
        #expect(address.description.hasSuffix(address.autoAlias))
    }
}
