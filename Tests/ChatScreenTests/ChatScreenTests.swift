import ChatHistory
import ChatScreen
import ChatTimeline
import Foundation
import Testing

/// Keys to actions, updates from the service, and the frame at 80×24 (issue 16 items 2–6).
@Suite struct ChatScreenTests {
    static let own = "kaspa:qzownownownownownownownownownownownownownownownownownownxx"

    static func screen(count: Int = 40) throws -> ChatScreen {
        var screen = ChatScreen(
            store: try ScreenFixtures.store(count: count), ownAddress: own, timeZone: ScreenFixtures.utc)
        screen.apply(
            .conversations([
                ConversationEntry(
                    address: ScreenFixtures.peer, name: "bob", preview: "message #39", lastActivity: 1_795_700_000_000),
                ConversationEntry(
                    address: "kaspa:qzcarolcarolcarolcarolcarolcarolcarolcarolcarolcarolcarolq", name: "carol",
                    preview: nil, lastActivity: 1_795_600_000_000, isPendingHandshake: true),
            ]))
        return screen
    }

    @Test func enterOpensTheSelectedConversationAndSendsTypedText() throws {
        var screen = try Self.screen()
        #expect(screen.handle(.enter) == [.markRead(address: ScreenFixtures.peer)])
        #expect(screen.focus == .chat)
        #expect(screen.handle(.enter).isEmpty, "a blank composer sends nothing")
        for character in "hi 漢" { _ = screen.handle(.character(character)) }
        _ = screen.handle(.altEnter)
        _ = screen.handle(.character("!"))
        #expect(screen.handle(.enter) == [.send(text: "hi 漢\n!", to: ScreenFixtures.peer)])
        #expect(screen.composer.string.isEmpty)
    }

    @Test func escapeLeavesTheComposerAndControlCQuits() throws {
        var screen = try Self.screen()
        _ = screen.handle(.enter)
        #expect(screen.handle(.escape).isEmpty)
        #expect(screen.focus == .list)
        #expect(screen.handle(.escape) == [.quit])
        #expect(screen.handle(.control("c")) == [.quit])
    }

    @Test func theListRenamesMutesAndAnswersHandshakes() throws {
        var screen = try Self.screen()
        screen.apply(.account(ChatScreen.Account(network: "relay", balance: nil)))
        #expect(screen.handle(.control("o")) == [.setMuted(address: ScreenFixtures.peer, muted: true)])
        _ = screen.handle(.control("r"))
        #expect(screen.focus == .prompt(.rename(address: ScreenFixtures.peer)))
        _ = screen.handle(.control("u"))
        for character in "Bobby" { _ = screen.handle(.character(character)) }
        #expect(screen.handle(.enter) == [.rename(address: ScreenFixtures.peer, to: "Bobby")])
        _ = screen.handle(.down)
        let carol = screen.conversations[1].address
        #expect(screen.handle(.control("d")).isEmpty, "declining cannot be undone: it asks")
        #expect(screen.handle(.character("y")) == [.declineConversation(address: carol)])
        // On a relay accepting costs nothing: no question.
        #expect(screen.handle(.control("a")) == [.acceptConversation(address: carol), .markRead(address: carol)])
        #expect(screen.openAddress == carol)
    }

    /// Issue 51 item 4: "hi dad" typed in the list once accepted a handshake that cost 0.2 KAS.
    @Test func lettersTypedInTheListFilterItAndNeverAct() throws {
        var screen = try Self.screen()
        for character in "hi dad, q n r m a d!" {
            #expect(screen.handle(.character(character)).isEmpty, "\(character)")
            #expect(screen.focus == .list)
        }
        #expect(screen.filter.string == "hi dad, q n r m a d!")
        #expect(screen.visibleIndices.isEmpty)
        _ = screen.handle(.control("u"))
        for character in "CAR" { _ = screen.handle(.character(character)) }
        #expect(screen.visibleIndices == [1], "carol, without case")
        let frame = screen.render(width: 80, height: 24).text
        #expect(frame.contains { $0.contains("carol") } && !frame.contains { $0.contains("▸bob") })
        #expect(frame[22].hasPrefix("/ CAR"), "the search box: \(frame[22])")
        #expect(screen.handle(.enter) == [.markRead(address: screen.conversations[1].address)])
        _ = screen.handle(.escape)
        #expect(screen.handle(.escape).isEmpty, "Esc clears the filter first")
        #expect(screen.filter.isBlank)
        #expect(screen.handle(.escape) == [.quit])
    }

    @Test func whatCostsMoneyOrCannotBeUndoneAsksFirst() throws {
        var screen = try Self.screen()
        screen.apply(.account(ChatScreen.Account(network: "testnet-10", balance: "9.73000000 KAS")))
        _ = screen.handle(.down)
        let carol = screen.conversations[1].address
        #expect(screen.handle(.control("a")).isEmpty)
        let question = screen.render(width: 100, height: 24).text[22]
        #expect(question.contains("Accept carol's request to chat? It pays 0.2 KAS and a fee. y/N"), "\(question)")
        #expect(screen.handle(.character("n")).isEmpty)
        #expect(screen.notice?.hasPrefix("cancelled") == true)
        _ = screen.handle(.control("a"))
        #expect(screen.handle(.character("y")) == [.acceptConversation(address: carol), .markRead(address: carol)])
        _ = screen.handle(.escape)
        _ = screen.handle(.control("x"))
        #expect(screen.handle(.enter).isEmpty, "only y confirms")
        _ = screen.handle(.control("x"))
        #expect(screen.handle(.character("y")) == [.deleteConversation(address: carol)])
        let title = screen.render(width: 100, height: 24).text[0]
        #expect(title.contains("testnet-10 · 9.73000000 KAS"), "\(title)")
    }

    @Test func questionMarkShowsTheKeysAndTheReceiptsLegend() throws {
        var screen = try Self.screen()
        #expect(screen.handle(.character("?")).isEmpty)
        let shown = screen.render(width: 100, height: 30).text.joined(separator: "\n")
        #expect(shown.contains("Ctrl-A") && shown.contains("✓✓ confirmed"))
        _ = screen.handle(.character("?"))
        #expect(!screen.render(width: 100, height: 30).text.joined().contains("Ctrl-A"))
    }

    @Test func theListWidensWithTheTerminal() {
        #expect(ChatScreen.listWidth(for: 80) == 24)
        #expect(ChatScreen.listWidth(for: 120) == 36)
        #expect(ChatScreen.listWidth(for: 200) == 48)
    }

    @Test func aNewConversationOpensByContactNameOrStartsByAddress() throws {
        var screen = try Self.screen()
        screen.apply(.account(ChatScreen.Account(network: "relay", balance: nil)))
        _ = screen.handle(.control("n"))
        for character in "BOB" { _ = screen.handle(.character(character)) }
        #expect(screen.handle(.enter) == [.markRead(address: ScreenFixtures.peer)])
        _ = screen.handle(.escape)
        _ = screen.handle(.control("n"))
        let stranger = "kaspa:qqstrangerstrangerstrangerstrangerstrangerstrangerstrangerx"
        for character in stranger { _ = screen.handle(.character(character)) }
        #expect(screen.handle(.enter) == [.startConversation(address: stranger), .markRead(address: stranger)])
    }

    @Test func liveRowsOfOtherConversationsCountAsUnread() throws {
        var screen = try Self.screen()
        _ = screen.handle(.down)
        _ = screen.handle(.enter)
        screen.apply(.stored(ScreenFixtures.message(40, text: "psst"), live: true))
        #expect(screen.conversations.first { $0.name == "bob" }?.unread == 1)
        let frame = screen.render(width: 80, height: 24)
        #expect(frame.text.contains { $0.contains("bob (1)") })
    }

    @Test func theFrameFillsEightyByTwentyFourExactly() throws {
        var screen = try Self.screen(count: 200)
        _ = screen.handle(.enter)
        screen.apply(.connection(.online))
        let frame = screen.render(width: 80, height: 24)
        #expect(frame.lines.count == 24)
        #expect(frame.text.allSatisfy { DisplayWidth.columns(of: $0) == 80 })
        #expect(frame.text[0].contains("● online"))
        #expect(frame.text[20].contains("bob: message #199"))
        #expect(frame.text[23].contains("Enter send"))
        #expect(frame.cursor == ScreenPoint(row: 22, column: 2))
    }

    @Test func theRuleShowsHowManyNewMessagesWaitBelow() throws {
        var screen = try Self.screen(count: 200)
        _ = screen.handle(.enter)
        _ = screen.render(width: 80, height: 24)
        _ = screen.handle(.pageUp)
        let before = screen.render(width: 80, height: 24).text
        screen.apply(.stored(ScreenFixtures.message(200, text: "new one"), live: true))
        screen.apply(.stored(ScreenFixtures.message(201, text: "another"), live: true))
        let after = screen.render(width: 80, height: 24).text
        #expect(Array(after[1...20]) == Array(before[1...20]))
        #expect(after[21].contains("2 new ↓ End"))
        _ = screen.handle(.end)
        let bottom = screen.render(width: 80, height: 24).text
        #expect(bottom[20].contains("bob: another"))
        #expect(!bottom[21].contains("new"))
    }

    @Test func aSentMessageWhoseRelayCopyWonTheTxIDShowsAsOneRow() throws {
        // Given the conversation open and a message queued as pending
        let store = try ScreenFixtures.store(count: 5)
        var screen = ChatScreen(store: store, ownAddress: Self.own, timeZone: ScreenFixtures.utc)
        _ = screen.open(ScreenFixtures.peer)
        _ = screen.render(width: 80, height: 24)
        let queued = ScreenFixtures.message(5, text: "on my way", direction: .outgoing, status: .pending)
        try store.save(queued)
        screen.apply(.stored(queued, live: false))
        // When the relay's copy (its own UUID, the tx id) is stored and shown by the stream
        // before the submission's answer, and the queued row is then promoted into it
        var relayCopy = ScreenFixtures.message(6, text: "on my way", direction: .outgoing, status: .sent)
        relayCopy.blockTime = queued.blockTime + 700
        try store.save(relayCopy)
        screen.apply(.stored(relayCopy, live: false))
        let txID = try #require(relayCopy.txID)
        try store.promote(queued.id, txID: txID, blockTime: relayCopy.blockTime)
        let sent = try #require(try store.message(txID: txID))
        #expect(sent.id == relayCopy.id, "the first UUID seen for the tx id wins (kasia-protocol §9)")
        for update in ScreenUpdate.delivered(sent, queued: queued) { screen.apply(update) }
        // Then the screen shows one sent row, not a pending one beside it
        let rows = screen.render(width: 80, height: 24).text.filter { $0.contains("on my way") }
        #expect(rows.count == 1, "\(rows)")
        #expect(rows.first?.contains("me: on my way ✓") == true)
    }

    @Test func theKeyHelpFitsEightyColumns() throws {
        var screen = try Self.screen()
        let list = screen.render(width: 80, height: 24).text[23].trimmingCharacters(in: .whitespaces)
        #expect(list.hasSuffix("? all keys"), "\(list)")
        _ = screen.handle(.enter)
        let chat = screen.render(width: 80, height: 24).text[23].trimmingCharacters(in: .whitespaces)
        #expect(chat.hasSuffix("Esc list"), "\(chat)")
    }

    @Test func aTinyTerminalSaysSoInsteadOfDrawing() throws {
        var screen = try Self.screen()
        let frame = screen.render(width: 30, height: 8)
        #expect(frame.text.first?.hasPrefix("Terminal too small") == true)
    }
}
