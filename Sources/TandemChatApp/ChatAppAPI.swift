import ChatHistory
import ChatTimeline
import Foundation
import HTTPTypes
import Hummingbird
import KasiaProtocol
import KaspaCrypto
import TandemBasics
import TandemMessaging

/// The JSON API the page asks (issue 47 item 2), each answer the library's: the same
/// ``Messenger`` calls as `tandem chat`, no second implementation. Reads are GETs; every change
/// is a POST with a JSON body (so ``ChatAppAccess`` checks its `Origin`). Errors are
/// `{"error": one line}` with a 4xx status for the request's fault, 502 for the relay's or the
/// node's, never a secret.
///
/// | Route | Body or query | Answer |
/// | --- | --- | --- |
/// | `GET /api/me` | | `address`, `network`, `kaspa` (payments possible) |
/// | `GET /api/conversations` | | `conversations` |
/// | `GET /api/messages` | `with`, `before` or `after` (cursor), `limit` (1–200) | a page, oldest first |
/// | `GET /api/warning` | `with` | `warning`: the composer's, or null |
/// | `GET /api/wallet` | | `kaspa`; with it `address`, `balance`, `spendable`, `pending` (sompi) |
/// | `POST /api/messages` | `to`, `text` | `message` once submitted (the pending row is an event first) |
/// | `POST /api/messages/retry` | `id` | `message` once submitted again |
/// | `POST /api/chats` | `address` | the handshake (new chat, or accepting one) |
/// | `POST /api/chats/ignore` | `address` | an unanswered handshake ignored |
/// | `POST /api/read` | `with` | the conversation read |
/// | `POST /api/contacts` | `address`, `alias` | a contact added |
/// | `POST /api/contacts/update` | `address`, `alias`?, `muted`?, `realtime`? | edited |
/// | `POST /api/contacts/delete` | `address` | deleted |
/// | `POST /api/payments` | `to`, `amount` (KAS text), `memo` | `transactionId`, `amount`, `fee` |
/// | `GET /api/events` | | server-sent events (``ChatAppEvents``) |
struct ChatAppAPI: Sendable {
    let messenger: Messenger
    let events: ChatAppEvents

    var actions: ChatAppActions { ChatAppActions(messenger: messenger, events: events) }

    /// Request bodies are small: a message is at most 10 KiB of payload.
    static let bodyLimit = 64 * 1024

    func register(on router: Router<BasicRequestContext>) {
        router.get("/api/me") { _, _ in
            ChatAppJSON.response(
                Me(
                    address: messenger.address.description, network: messenger.address.network.addressPrefix,
                    kaspa: messenger.isOnKaspa))
        }
        router.get("/api/conversations") { _, _ in
            await answer { ["conversations": try await messenger.conversations().map(ChatAppJSON.Conversation.init)] }
        }
        router.get("/api/messages") { request, _ in
            await answer { try await page(request.uri.queryParameters) }
        }
        router.get("/api/warning") { request, _ in
            await answer {
                let peer = try actions.peer(request.uri.queryParameters.get("with") ?? "", field: "with")
                return ["warning": try await messenger.composerWarning(for: peer)?.explanation]
            }
        }
        router.get("/api/wallet") { _, _ in
            await answer { try await wallet() }
        }
        router.get("/api/events") { _, _ in events.response() }
        actions.register(on: router)
    }

    struct Me: Encodable {
        let address: String
        let network: String
        let kaspa: Bool
    }

    struct Wallet: Encodable {
        let kaspa: Bool
        var address: String?
        var balance: UInt64?
        var spendable: UInt64?
        var pending: Int?
    }

    func page(_ query: Parameters) async throws -> ChatAppJSON.Page {
        let peer = try actions.peer(query.get("with") ?? "", field: "with")
        let before = try Self.cursor(query, "before")
        let after = try Self.cursor(query, "after")
        guard before == nil || after == nil else { throw ChatAppFailure.badRequest("before and after: one at a time") }
        var limit = 50
        if let text = query.get("limit") {
            guard let value = Int(text), (1...200).contains(value) else {
                throw ChatAppFailure.badRequest("limit: expected a whole number from 1 to 200")
            }
            limit = value
        }
        if let after {
            let page = try await messenger.history(with: peer, limit: limit, after: after)
            return ChatAppJSON.Page(
                messages: page.rows.map(ChatAppJSON.Message.init), hasNewer: page.hasMore,
                after: (page.boundary ?? after).cursorText)
        }
        let page = try await messenger.history(with: peer, limit: limit, before: before)
        return ChatAppJSON.Page(
            messages: page.rows.map(ChatAppJSON.Message.init), hasOlder: page.hasMore,
            before: page.boundary?.cursorText)
    }

    /// The cursor in the query's `name`, if given.
    static func cursor(_ query: Parameters, _ name: String) throws -> MessageKey? {
        guard let text = query.get(name) else { return nil }
        guard let key = MessageKey(cursorText: text) else {
            throw ChatAppFailure.badRequest("\(name): expected a cursor BLOCKTIME:TIMESTAMP:UUID")
        }
        return key
    }

    func wallet() async throws -> Wallet {
        guard let balance = try await messenger.walletBalance() else { return Wallet(kaspa: false) }
        return Wallet(
            kaspa: true, address: messenger.address.description, balance: balance.balance,
            spendable: balance.spendable, pending: balance.pendingTransactions)
    }
}

/// Runs `body` and answers its value as JSON, or its failure (``ChatAppFailure/from(_:)``).
func answer(_ body: () async throws -> some Encodable) async -> Response {
    do { return ChatAppJSON.response(try await body()) } catch {
        let failure = ChatAppFailure.from(error)
        return ChatAppJSON.error(failure.message, status: failure.status)
    }
}
