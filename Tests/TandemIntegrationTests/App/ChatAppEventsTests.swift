import ChatTimeline
import Foundation
import KaspaCrypto
import TandemMessaging
import TandemProfile
import TestSupport
import Testing

@testable import TandemChatApp

/// The fan-out of `tandem app`'s live updates (issue 47 item 2): every open page gets every
/// event, a page that stops reading is cut off instead of holding the process's memory, and the
/// app's shutdown ends every stream.
@Suite struct ChatAppEventsTests {
    static func events() throws -> (ChatAppEvents, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let profile = Profile(directory: directory.url.appendingPathComponent("profile"))
        try profile.createWalletKey()
        // The relay is never called: these tests publish by hand.
        let messenger = try Messenger(profile: profile, server: URL(string: "http://127.0.0.1:9")!)
        return (ChatAppEvents(messenger: messenger), directory)
    }

    @Test func everyPageGetsEveryEventAndASlowPageIsCutOff() async throws {
        let (events, directory) = try Self.events()
        defer { directory.remove() }
        let reader = events.subscribe()
        let sleeper = events.subscribe()
        #expect(events.subscriberCount == 2)
        var pending: [String] = []
        for index in 0..<1_001 {
            events.notice("note \(index)")
            pending.append("note \(index)")
            // The reader keeps up; the sleeper never reads.
            if pending.count == 10 {
                var iterator = reader.makeAsyncIterator()
                for expected in pending {
                    let event = try #require(await iterator.next())
                    let json = try JSONSerialization.jsonObject(with: event.data) as? [String: String]
                    #expect(event.name == "notice" && json?["text"] == expected)
                }
                pending.removeAll()
            }
        }
        // The 1,001st event found the sleeper's queue full: its stream ended, with the 1,000 newest.
        var count = 0
        for await _ in sleeper { count += 1 }
        #expect(count == 1_000)
        #expect(events.subscriberCount == 1)
    }

    @Test func theConnectionStateIsSaidOnChangeAndRepeatedToANewPage() async throws {
        let (events, directory) = try Self.events()
        defer { directory.remove() }
        let first = events.subscribe()
        await events.apply(.online)
        await events.apply(.online)
        await events.apply(.reconnecting(reason: "relay down"))
        let late = events.subscribe()
        events.finishAll()
        var said: [String] = []
        for await event in first { said.append(String(decoding: event.data, as: UTF8.self)) }
        #expect(said == [#"{"state":"online"}"#, #"{"reason":"relay down","state":"reconnecting"}"#])
        var repeated: [String] = []
        for await event in late { repeated.append(String(decoding: event.data, as: UTF8.self)) }
        #expect(repeated == [#"{"reason":"relay down","state":"reconnecting"}"#])
        // After the shutdown a new page's stream is already over.
        var after = 0
        for await _ in events.subscribe() { after += 1 }
        #expect(after == 0)
    }

    @Test func aRowReportedTwiceIsOneArrivalAndTheMemoryIsBounded() throws {
        let (events, directory) = try Self.events()
        defer { directory.remove() }
        let ids = (0...ChatAppEvents.arrivalMemory).map { _ in MessageID(UUID()) }
        #expect(events.firstArrival(ids[0]))
        #expect(!events.firstArrival(ids[0]))
        for id in ids.dropFirst() { #expect(events.firstArrival(id)) }
        // The oldest was let go to keep the memory at its bound; the newest is still known.
        #expect(events.firstArrival(ids[0]))
        #expect(!events.firstArrival(ids[ChatAppEvents.arrivalMemory]))
    }
}
