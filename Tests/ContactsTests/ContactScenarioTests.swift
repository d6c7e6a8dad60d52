import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

/// The adversarial scenarios of timeline-and-contacts §3.5.
@Suite struct ContactScenarioTests {
    let wallet = Fixture.wallet
    let bob = Fixture.address(1)

    /// Two replicas that both hold `bob`, A's clock one hour ahead.
    func twoReplicas(skewA: Int64 = Fixture.hour) throws -> (ContactsStore, ManualClock, ContactsStore, ManualClock) {
        let clockA = ManualClock(UnixMillis(Fixture.epoch + skewA))
        let clockB = ManualClock(UnixMillis(Fixture.epoch))
        let a = try Fixture.store(replica: "a", clock: clockA)
        let b = try Fixture.store(replica: "b", clock: clockB)
        try a.add(bob, wallet: wallet)
        try Fixture.sync(a, to: b)
        return (a, clockA, b, clockB)
    }

    func exchange(_ a: ContactsStore, _ b: ContactsStore) throws {
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
    }

    @Test func anEditMadeAfterSeeingASkewedDevicesEditWins() throws {
        // Given A's clock runs an hour ahead and A renames
        let (a, _, b, clockB) = try twoReplicas()
        try a.rename(bob, wallet: wallet, to: "From A")
        // When B sees that rename and then renames, a minute later in real time
        try Fixture.sync(a, to: b)
        clockB.advance(by: .milliseconds(60_000))
        try b.rename(bob, wallet: wallet, to: "From B")
        try exchange(a, b)
        // Then B's later edit wins on both, although A's wall clock says A's was later
        #expect(try a.contact(bob, wallet: wallet)?.alias == "From B")
        #expect(try b.contact(bob, wallet: wallet)?.alias == "From B")
    }

    @Test func trulyConcurrentEditsPickTheSameWinnerOnBothReplicas() throws {
        let (a, _, b, _) = try twoReplicas()
        try a.rename(bob, wallet: wallet, to: "From A")
        try b.rename(bob, wallet: wallet, to: "From B")
        try exchange(a, b)
        let winner = try a.contact(bob, wallet: wallet)?.alias
        #expect(["From A", "From B"].contains(winner))
        #expect(try b.contact(bob, wallet: wallet)?.alias == winner)
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
    }

    @Test func concurrentEditsOfDifferentFieldsBothSurvive() throws {
        let (a, _, b, _) = try twoReplicas()
        try a.setNotificationsMuted(bob, wallet: wallet, true)
        try b.rename(bob, wallet: wallet, to: "Robert")
        try exchange(a, b)
        for store in [a, b] {
            let contact = try #require(try store.contact(bob, wallet: wallet))
            #expect(contact.notificationsMuted && contact.alias == "Robert")
        }
    }

    @Test func aRenameRacingADeleteDoesNotResurrectTheContact() throws {
        let (a, _, b, clockB) = try twoReplicas()
        try a.remove(bob, wallet: wallet)
        clockB.advance(by: .milliseconds(2 * Fixture.hour))  // B's rename even carries the later wall time
        try b.rename(bob, wallet: wallet, to: "Robert")
        try exchange(a, b)
        for store in [a, b] {
            #expect(try store.contact(bob, wallet: wallet)?.isDeleted == true)
            #expect(try store.contacts(wallet: wallet).isEmpty)
        }
    }

    @Test func aReAddAfterADeleteStartsWithFreshFields() throws {
        let (a, _, b, _) = try twoReplicas()
        try a.rename(bob, wallet: wallet, to: "Robert")
        try a.setNotificationsMuted(bob, wallet: wallet, true)
        try a.remove(bob, wallet: wallet)
        try Fixture.sync(a, to: b)
        try b.add(bob, wallet: wallet)
        try exchange(a, b)
        for store in [a, b] {
            let contact = try #require(try store.contact(bob, wallet: wallet))
            #expect(!contact.isDeleted)
            #expect(!contact.notificationsMuted)
            #expect(contact.alias == bob.autoAlias)
        }
    }

    @Test func aDeviceOfflineLongerThanThePurgeHorizonCannotBringAContactBack() throws {
        // Given B goes offline holding a live copy, and A deletes the contact
        let (a, clockA, b, clockB) = try twoReplicas(skewA: 0)
        try a.remove(bob, wallet: wallet)
        // When 31 days pass, A purges, and B (still offline) edits its old copy
        clockA.advance(by: .milliseconds(31 * Fixture.day))
        #expect(try a.purge() == 1)
        #expect(try a.record(for: ContactKey(wallet: wallet, address: bob))?.isPurged == true)
        clockB.advance(by: .milliseconds(31 * Fixture.day))
        try b.rename(bob, wallet: wallet, to: "Back from the dead?")
        try Fixture.sync(b, to: a)
        // Then A refuses it, and B learns of the delete
        #expect(try a.contact(bob, wallet: wallet) == nil)
        #expect(try a.contacts(wallet: wallet, includeDeleted: true).isEmpty)
        try Fixture.sync(a, to: b)
        #expect(try b.contacts(wallet: wallet).isEmpty)
    }

    @Test func tombstonesYoungerThanThirtyDaysAreNotPurged() throws {
        let (a, clockA, _, _) = try twoReplicas(skewA: 0)
        try a.remove(bob, wallet: wallet)
        clockA.advance(by: .milliseconds(29 * Fixture.day))
        #expect(try a.purge() == 0)
        #expect(try a.contact(bob, wallet: wallet)?.isDeleted == true)
    }

    @Test func anAddAfterPurgeStartsANewIncarnationThatOthersAccept() throws {
        let (a, clockA, b, _) = try twoReplicas(skewA: 0)
        try a.remove(bob, wallet: wallet)
        clockA.advance(by: .milliseconds(31 * Fixture.day))
        try a.purge()
        try a.add(bob, wallet: wallet, alias: "Bob again")
        try exchange(a, b)
        #expect(try b.contact(bob, wallet: wallet)?.alias == "Bob again")
    }

    @Test func aBackfilledOldMessageDoesNotReAddButANewerOneDoes() throws {
        let (a, clockA, _, _) = try twoReplicas(skewA: 0)
        clockA.advance(by: .milliseconds(10_000))
        try a.remove(bob, wallet: wallet)
        let deletedAt = Fixture.epoch + 10_000
        #expect(try a.recordMessage(from: bob, wallet: wallet, at: UnixMillis(deletedAt - 5_000)) == nil)
        #expect(try a.contact(bob, wallet: wallet)?.isDeleted == true)
        clockA.advance(by: .milliseconds(10_000))
        let back = try #require(try a.recordMessage(from: bob, wallet: wallet, at: UnixMillis(deletedAt + 5_000)))
        #expect(back.isAutoAdded && !back.isDeleted)
        #expect(back.lastMessageAt == UnixMillis(deletedAt + 5_000))
    }

    @Test func aMessageFromAStrangerAutoAddsThem() throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let contact = try #require(try store.recordMessage(from: bob, wallet: wallet, at: UnixMillis(Fixture.epoch)))
        #expect(contact.isAutoAdded)
        // A manual add afterwards clears the flag.
        #expect(try store.add(bob, wallet: wallet).isAutoAdded == false)
    }

    @Test func theSameContactAddedOnTwoDevicesAtOnceIsOneRecord() throws {
        let a = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch + 5_000)))
        let b = try Fixture.store(replica: "b", clock: ManualClock(UnixMillis(Fixture.epoch)))
        try a.add(bob, wallet: wallet, alias: "Bob")
        try b.add(Fixture.address(1), wallet: wallet)
        try exchange(a, b)
        #expect(try a.contacts(wallet: wallet).count == 1)
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
        // addedAt is the earliest add.
        #expect(try a.contact(bob, wallet: wallet)?.addedAt == UnixMillis(Fixture.epoch))
    }
}
