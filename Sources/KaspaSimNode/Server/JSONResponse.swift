import Foundation
import Hummingbird

/// Runs an HTTP handler of the simulated node (the control API, the indexer routes): its value
/// as JSON with 200, any error as 400 `{"error": …}` — a ``ControlError``'s reason, else the
/// error's description.
func respond(_ handler: () async throws -> some Encodable) async -> Response {
    do {
        return json(.ok, try await handler())
    } catch let error as ControlError {
        return json(.badRequest, ["error": error.reason])
    } catch {
        return json(.badRequest, ["error": String(describing: error)])
    }
}

func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
    let data = (try? JSONEncoder().encode(value)) ?? Data(#"{"error":"unencodable answer"}"#.utf8)
    return Response(
        status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
}

/// Bytes already written as JSON (the indexer routes' rows, by the shared model).
enum JSONBytes {
    static func response(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
