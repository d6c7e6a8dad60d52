import ChatHistory
import ChatScreen
import ChatTimeline
import Foundation
import Testing

/// The message pane on the timeline engine over a real history store (issue 16 item 3): the
/// reading line stays put while pages load, live rows do not yank, resizing keeps the anchor.
@Suite struct MessagePaneTests {
    @Test func opensOnTheNewestMessageAtTheBottom() throws {
        let pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 500))
        let lines = ScreenFixtures.text(pane)
        #expect(lines.count == 10)
        #expect(pane.visibleLines().allSatisfy { DisplayWidth.columns(of: $0.text) == 40 })
        #expect(lines.last?.contains("bob: message #499") == true)
        #expect(pane.isAtBottom)
    }

    @Test func pageUpKeepsTheReadingLineWhileOlderPagesLoad() throws {
        // Given 2,000 one-line messages and a 10-line pane at the bottom
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 2_000))
        let queriesAtOpen = pane.pager.queriesRun
        // When the reader pages up 150 times (1,350 lines, far past the warm pages)
        for press in 0..<150 {
            let before = ScreenFixtures.text(pane)
            pane.scroll(by: -9)
            let after = ScreenFixtures.text(pane)
            // Then each time the old top line is the new bottom line: nothing jumped
            #expect(after.last == before.first, "press \(press)")
        }
        #expect(pane.pager.queriesRun > queriesAtOpen + 10)
        #expect(ScreenFixtures.text(pane).contains { $0.contains("message #6") })
        // And the window stays capped however far back the reader went
        #expect(pane.engine.items.count + pane.engine.backlog.count <= 450)
    }

    @Test func scrollingTheWholeHistoryKeepsMemoryFlat() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 3_000))
        var largest = 0
        var presses = 0
        while !ScreenFixtures.text(pane).contains(where: { $0.hasSuffix("bob: message #0") }) {
            presses += 1
            try #require(presses < 1_000, "the top of the history is reached")
            pane.scroll(by: -9)
            largest = max(largest, pane.engine.items.count + pane.engine.backlog.count)
        }
        #expect(largest <= 450)
        while !pane.isAtBottom {
            presses += 1
            try #require(presses < 2_000, "the bottom is reached again")
            pane.scroll(by: 9)
            largest = max(largest, pane.engine.items.count + pane.engine.backlog.count)
        }
        #expect(largest <= 450)
        #expect(ScreenFixtures.text(pane).last?.contains("message #2999") == true)
    }

    @Test func aLiveMessageWhileScrolledUpDoesNotMoveTheViewAndCountsAsNew() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 300))
        pane.scroll(by: -27)
        let before = ScreenFixtures.text(pane)
        pane.show(ScreenFixtures.message(300, text: "fresh"), live: true)
        #expect(ScreenFixtures.text(pane) == before)
        #expect(pane.unseenCount == 1)
        pane.jumpToBottom()
        #expect(pane.unseenCount == 0)
        #expect(ScreenFixtures.text(pane).last?.contains("bob: fresh") == true)
    }

    @Test func aLiveMessageAtTheBottomIsFollowed() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 30))
        pane.show(ScreenFixtures.message(30, text: "hello there"), live: true)
        #expect(ScreenFixtures.text(pane).last?.contains("bob: hello there") == true)
        #expect(pane.unseenCount == 0)
    }

    @Test func resizingKeepsTheAnchorMessageAtTheTop() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 400), width: 60, height: 20)
        pane.scroll(by: -100)
        let anchor = try #require(pane.topMessageID)
        pane.resize(width: 22, height: 8)
        #expect(pane.topMessageID == anchor)
        #expect(pane.visibleLines().allSatisfy { DisplayWidth.columns(of: $0.text) == 22 })
        pane.resize(width: 60, height: 20)
        #expect(pane.topMessageID == anchor)
    }

    @Test func outgoingRowsShowPendingSentAndFailed() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 5))
        let pending = ScreenFixtures.message(5, text: "on my way", direction: .outgoing, status: .pending)
        pane.show(pending, live: false)
        #expect(ScreenFixtures.text(pane).last?.contains("me: on my way …sending") == true)
        var failed = pending
        failed.status = .failed
        pane.show(failed, live: false)
        #expect(ScreenFixtures.text(pane).suffix(2).joined(separator: " ").contains("✗ failed,"))
        #expect(pane.newestFailedID == pending.id)
        var sent = failed
        sent.status = .sent
        sent.txID = TxID("tx5")
        sent.blockTime += 500
        pane.show(sent, live: false)
        #expect(ScreenFixtures.text(pane).last?.hasSuffix("me: on my way ✓") == true)
        #expect(pane.newestFailedID == nil)
    }

    /// A reaction arriving for a shown message (issue 43 item 4): the same row again, with its
    /// reactions, is redrawn in place and is not counted as new.
    @Test func aReactionRedrawsItsMessageInPlace() throws {
        var pane = ScreenFixtures.pane(try ScreenFixtures.store(count: 5))
        var target = ScreenFixtures.message(5, text: "lunch?")
        pane.show(target, live: true)
        #expect(ScreenFixtures.text(pane).last?.hasSuffix("bob: lunch?") == true)
        target.reactions = ["👍"]
        pane.show(target, live: false)
        #expect(ScreenFixtures.text(pane).last?.hasSuffix("bob: lunch? [👍]") == true)
        #expect(ScreenFixtures.text(pane).filter { $0.contains("lunch?") }.count == 1)
        #expect(pane.unseenCount == 0)
    }

    @Test func daySeparatorsSitAboveTheFirstMessageOfEachDay() throws {
        // Given messages either side of midnight (UTC)
        let store = try ChatHistoryStore.inMemory()
        let midnight = ScreenFixtures.start + 86_400_000
        try store.save(contentsOf: [
            ScreenFixtures.message(1, text: "late", at: midnight - 120_000),
            ScreenFixtures.message(2, text: "later", at: midnight - 60_000),
            ScreenFixtures.message(3, text: "early", at: midnight + 60_000),
        ])
        let lines = ScreenFixtures.text(ScreenFixtures.pane(store)).filter { !$0.allSatisfy { $0 == " " } }
        #expect(lines.count == 5)
        #expect(lines[0].contains("Thu 26 Nov 2026") && lines[0].hasPrefix("─"))
        #expect(lines[1].hasPrefix("23:58 bob: late"))
        #expect(lines[3].contains("Fri 27 Nov 2026"))
        #expect(lines[4].hasPrefix("00:01 bob: early"))
    }

    @Test func longAndWideMessagesWrapInsideThePane() throws {
        let store = try ChatHistoryStore.inMemory()
        let text = String(repeating: "漢字かな😀 ", count: 12) + String(repeating: "x", count: 70)
        try store.save(ScreenFixtures.message(1, text: text))
        let pane = ScreenFixtures.pane(store, width: 30, height: 20)
        let lines = ScreenFixtures.text(pane)
        #expect(pane.visibleLines().allSatisfy { DisplayWidth.columns(of: $0.text) == 30 })
        #expect(lines.filter { $0.hasPrefix("      ") && !$0.allSatisfy { $0 == " " } }.count >= 5)
    }
}
