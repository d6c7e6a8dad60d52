import ChatHistory
import ChatTimeline
import Foundation
import Hummingbird
import KasiaProtocol
import KaspaCrypto
import TandemBasics
import TandemMessaging

/// The changes the page asks for (``ChatAppAPI``'s POST routes): each one library call, then
/// its effect published to every open page (``ChatAppEvents``), so two windows agree.
struct ChatAppActions: Sendable {
    let messenger: Messenger
    let events: ChatAppEvents

    struct Send: Decodable {
        let to: String
        let text: String
    }

    struct Target: Decodable {
        let address: String
    }

    struct Retry: Decodable {
        let id: String
    }

    struct Read: Decodable {
        let with: String
    }

    struct AddContact: Decodable {
        let address: String
        let alias: String?
    }

    struct UpdateContact: Decodable {
        let address: String
        let alias: String?
        let muted: Bool?
        let realtime: Bool?
    }

    struct Pay: Decodable {
        let to: String
        let amount: String
        let memo: String?
    }

    struct Paid: Encodable {
        let transactionId: String
        let amount: UInt64
        let fee: UInt64
    }

    struct Done: Encodable {
        let ok = true
    }

    func register(on router: Router<BasicRequestContext>) {
        router.post("/api/messages") { request, _ in
            await answer { try await send(try await Self.decode(Send.self, request)) }
        }
        router.post("/api/messages/retry") { request, _ in
            await answer {
                let body = try await Self.decode(Retry.self, request)
                guard let uuid = UUID(uuidString: body.id) else {
                    throw ChatAppFailure.badRequest("id: not a message id")
                }
                return try await deliver(MessageID(uuid))
            }
        }
        router.post("/api/chats") { request, _ in
            await answer {
                let peer = try peer(try await Self.decode(Target.self, request).address, field: "address")
                let receipt = try await messenger.startConversation(with: peer)
                if let row = try await messenger.message(txID: receipt.txID) { events.publish(row: row, live: false) }
                events.conversationChanged(peer)
                return ["address": peer.description]
            }
        }
        router.post("/api/chats/ignore") { request, _ in
            await change(request, Target.self) { body in
                let address = try peer(body.address)
                try await messenger.declineConversation(with: address)
                return address
            }
        }
        router.post("/api/read") { request, _ in
            await change(request, Read.self) { body in
                let address = try peer(body.with, field: "with")
                try await messenger.markRead(address)
                return address
            }
        }
        router.post("/api/contacts") { request, _ in
            await change(request, AddContact.self) { body in
                let alias = try Self.alias(body.alias)
                let address = try peer(body.address)
                try await messenger.addContact(address, alias: alias)
                return address
            }
        }
        router.post("/api/contacts/update") { request, _ in
            await change(request, UpdateContact.self, update)
        }
        router.post("/api/contacts/delete") { request, _ in
            await change(request, Target.self) { body in
                let address = try peer(body.address)
                try await messenger.deleteContact(address)
                return address
            }
        }
        router.post("/api/payments") { request, _ in
            await answer { try await pay(try await Self.decode(Pay.self, request)) }
        }
    }

    /// Stores the message as pending (published at once), then submits it and answers the row as
    /// it ends: sent, or failed with its reason in the notice line.
    func send(_ body: Send) async throws -> [String: ChatAppJSON.Message] {
        let to = try peer(body.to, field: "to")
        guard !body.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ChatAppFailure.badRequest("text: the message is empty")
        }
        let queued = try await messenger.queueMessage(body.text, to: to)
        events.publish(row: queued, live: false)
        return try await deliver(queued.id)
    }

    func deliver(_ id: MessageID) async throws -> [String: ChatAppJSON.Message] {
        guard try await messenger.message(id) != nil else {
            throw ChatAppFailure(status: .notFound, message: "no message \(id.uuid.uuidString)")
        }
        do {
            let sent = try await messenger.retry(id)
            events.publish(row: sent, live: false)
            if let peer = try? KaspaAddress(sent.conversation.rawValue) { events.conversationChanged(peer) }
            return ["message": ChatAppJSON.Message(sent)]
        } catch {
            if let row = try? await messenger.message(id) { events.publish(row: row, live: false) }
            throw error
        }
    }

    func update(_ body: UpdateContact) async throws -> KaspaAddress {
        let address = try peer(body.address)
        if let alias = body.alias { try await messenger.renameContact(address, to: try Self.alias(alias) ?? "") }
        if let muted = body.muted { try await messenger.setMuted(address, muted) }
        if let realtime = body.realtime { try await messenger.setRealtimeUpdates(realtime, for: address) }
        return address
    }

    func pay(_ body: Pay) async throws -> Paid {
        let to = try peer(body.to, field: "to")
        guard let sompi = KaspaAmount.sompi(fromKAS: body.amount.trimmingCharacters(in: .whitespaces)), sompi > 0
        else { throw ChatAppFailure.badRequest("amount: KAS above 0 with at most 8 decimals (e.g. 1.5)") }
        let memo = body.memo ?? ""
        guard memo.count <= PaymentMemo.maximumCharacters else {
            throw ChatAppFailure.badRequest("memo: \(memo.count) characters; at most \(PaymentMemo.maximumCharacters)")
        }
        let paid = try await messenger.pay(sompi, to: to, memo: memo)
        if let row = try await messenger.message(txID: paid.transactionID) { events.publish(row: row, live: false) }
        events.conversationChanged(to)
        return Paid(transactionId: paid.transactionID, amount: paid.amountSompi, fee: paid.fee)
    }

    /// Decodes the body, then runs `body`, then publishes the line of the conversation it changed.
    func change<Body: Decodable>(
        _ request: Request, _ type: Body.Type, _ body: @escaping @Sendable (Body) async throws -> KaspaAddress
    ) async -> Response {
        await answer {
            events.conversationChanged(try await body(try await Self.decode(type, request)))
            return Done()
        }
    }

    /// `text` as a Kaspa address on the profile's network, or a 400 naming `field`.
    func peer(_ text: String, field: String = "address") throws -> KaspaAddress {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ChatAppFailure.badRequest("\(field): a Kaspa address is needed") }
        guard let address = try? KaspaAddress(trimmed) else {
            throw ChatAppFailure.badRequest("\(field): \(trimmed.prefix(100)) is not a Kaspa address")
        }
        guard address.network == messenger.address.network else {
            throw ChatAppFailure.badRequest(
                "\(field): a \(address.network.addressPrefix): address, but this profile is on \(messenger.address.network.addressPrefix):"
            )
        }
        return address
    }

    /// A contact's name: at most 100 characters, no control characters; empty means none.
    static func alias(_ text: String?) throws -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 100,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw ChatAppFailure.badRequest("alias: at most 100 characters, without control characters") }
        return trimmed
    }

    /// The JSON body as `type`, or a 400 that says what is wrong with it.
    static func decode<Body: Decodable>(_ type: Body.Type, _ request: Request) async throws -> Body {
        let bytes: ByteBuffer
        do { bytes = try await request.body.collect(upTo: ChatAppAPI.bodyLimit) } catch {
            throw ChatAppFailure(status: .contentTooLarge, message: "the request body is over 64 KiB")
        }
        do { return try JSONDecoder().decode(type, from: Data(buffer: bytes)) } catch let error as DecodingError {
            throw ChatAppFailure.badRequest("the JSON body: \(Self.describe(error))")
        } catch {
            throw ChatAppFailure.badRequest("the body is not JSON")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "\(key.stringValue) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type"
        case .dataCorrupted: "not valid JSON"
        @unknown default: "not the expected shape"
        }
    }
}
