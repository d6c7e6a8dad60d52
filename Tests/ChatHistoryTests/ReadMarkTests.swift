import ChatHistory
import ChatTimeline
import Foundation
import Testing

/// Read marks on a real SQLite file (issue 16 item 5): unread counts come from the history and
/// the mark, so they survive closing and reopening the profile's store.
@Suite struct ReadMarkTests {
    @Test func unreadCountsSurviveReopeningTheFile() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // Given three incoming messages, a handshake placeholder and one of our own
        try fixture.store.save(contentsOf: (1...3).map { fixture.message(blockTime: 1_000 * UInt64($0)) })
        var handshake = fixture.message(blockTime: 500, txID: "hs")
        handshake.kind = .handshake
        var own = fixture.message(blockTime: 4_000)
        own.direction = .outgoing
        try fixture.store.save(contentsOf: [handshake, own])
        // Then the messages are unread; the placeholder and our own row are not counted
        #expect(try fixture.store.unreadCount(in: fixture.conversation) == 3)
        #expect(try fixture.store.readMark(in: fixture.conversation) == nil)

        // When the conversation is read and two more arrive
        let mark = try #require(try fixture.store.markRead(fixture.conversation))
        #expect(mark.blockTime == 3_000, "the mark is the newest incoming row")
        try fixture.store.save(contentsOf: [fixture.message(blockTime: 5_000), fixture.message(blockTime: 6_000)])
        #expect(try fixture.store.unreadCount(in: fixture.conversation) == 2)

        // Then a reopened store (a restart) has the same mark and count
        let reopened = try ChatHistoryStore(path: fixture.path)
        #expect(try reopened.readMark(in: fixture.conversation) == mark)
        #expect(try reopened.unreadCount(in: fixture.conversation) == 2)
        try reopened.markRead(fixture.conversation)
        #expect(try reopened.unreadCount(in: fixture.conversation) == 0)
        #expect(try fixture.store.unreadCount(in: fixture.conversation) == 0)
    }

    @Test func aConversationWithNothingIncomingHasNoMark() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var own = fixture.message(blockTime: 1_000)
        own.direction = .outgoing
        try fixture.store.save(own)
        #expect(try fixture.store.markRead(fixture.conversation) == nil)
        #expect(try fixture.store.unreadCount(in: fixture.conversation) == 0)
        #expect(try fixture.store.unreadCount(in: ConversationID("kaspa:qnobody")) == 0)
    }

    @Test func aConversationWeNeverWroteInHasNoOutgoingRow() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var handshake = fixture.message(blockTime: 1_000, txID: "hs")
        handshake.kind = .handshake
        try fixture.store.save(contentsOf: [handshake, fixture.message(blockTime: 2_000)])
        #expect(try !fixture.store.hasOutgoing(in: fixture.conversation))
        var answer = fixture.message(blockTime: 3_000, txID: "answer")
        answer.direction = .outgoing
        answer.kind = .handshake
        try fixture.store.save(answer)
        #expect(try fixture.store.hasOutgoing(in: fixture.conversation))
    }

    @Test func aMarkCountsOnlyItsOwnConversation() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let other = ConversationID("kaspa:qothercontact")
        var elsewhere = fixture.message(blockTime: 9_000)
        elsewhere.conversation = other
        try fixture.store.save(contentsOf: [fixture.message(blockTime: 1_000), elsewhere])
        try fixture.store.markRead(fixture.conversation)
        #expect(try fixture.store.unreadCount(in: fixture.conversation) == 0)
        #expect(try fixture.store.unreadCount(in: other) == 1)
    }
}
