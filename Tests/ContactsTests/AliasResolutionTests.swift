import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

/// §3.4 and §3.5 scenario 6: the KNS name and the user's alias in every delivery order.
@Suite struct AliasResolutionTests {
    let wallet = Fixture.wallet
    let bob = Fixture.address(1)

    static let orders: [[Int]] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]

    @Test(arguments: orders)
    func theCounterExampleOfSection34ShowsTheKNSNameInEveryDeliveryOrder(order: [Int]) throws {
        // Given u1 = "Bob"@1 (user), u2 = "y.kas"@2 (user), k = "x.kas"@3 (KNS), on three replicas
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let origin = try Fixture.store(replica: "origin", clock: clock)
        try origin.add(bob, wallet: wallet)
        let writers = try (1...3).map { try Fixture.store(replica: "w\($0)", clock: clock) }
        for writer in writers { try Fixture.sync(origin, to: writer) }
        clock.advance(by: .milliseconds(1_000))
        try writers[0].rename(bob, wallet: wallet, to: "Bob")
        clock.advance(by: .milliseconds(1_000))
        try writers[1].rename(bob, wallet: wallet, to: "y.kas")
        clock.advance(by: .milliseconds(1_000))
        try writers[2].setKNSName(bob, wallet: wallet, to: "x.kas")
        // When a fresh replica receives them in this order
        let reader = try Fixture.store(replica: "reader", clock: clock)
        for index in order { try Fixture.sync(writers[index], to: reader) }
        // Then it shows x.kas, as §3.4 says every path must
        #expect(try reader.contact(bob, wallet: wallet)?.alias == "x.kas")
    }

    @Test(arguments: ["", "auto", "old.kas", "OLD.KAS"])
    func aKNSNameReplacesAnEmptyAutoOrKasAlias(_ userAlias: String) throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        try store.add(bob, wallet: wallet, alias: userAlias == "auto" ? bob.autoAlias : userAlias)
        #expect(try store.setKNSName(bob, wallet: wallet, to: "bob.kas").alias == "bob.kas")
    }

    @Test func aKNSNameDoesNotReplaceACustomAliasWhicheverArrivesFirst() throws {
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let a = try Fixture.store(replica: "a", clock: clock)
        try a.add(bob, wallet: wallet)
        let b = try Fixture.store(replica: "b", clock: clock)
        try Fixture.sync(a, to: b)
        clock.advance(by: .milliseconds(1))
        try a.setKNSName(bob, wallet: wallet, to: "bob.kas")
        clock.advance(by: .milliseconds(1))
        try b.rename(bob, wallet: wallet, to: "Robert")
        clock.advance(by: .milliseconds(1))
        try a.setKNSName(bob, wallet: wallet, to: "bobby.kas")
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
        #expect(try a.contact(bob, wallet: wallet)?.alias == "Robert")
        #expect(try b.contact(bob, wallet: wallet)?.alias == "Robert")
    }

    @Test func clearingTheUserAliasFallsBackToTheKNSNameThenTheAutoAlias() throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        try store.add(bob, wallet: wallet, alias: "Robert")
        try store.setKNSName(bob, wallet: wallet, to: "bob.kas")
        #expect(try store.rename(bob, wallet: wallet, to: "").alias == "bob.kas")
        #expect(try store.setKNSName(bob, wallet: wallet, to: "").alias == bob.autoAlias)
    }
}
