import Foundation
import HTTPTypes
import Hummingbird
import TandemAPI

/// Builds JSON responses with the wire's date format (ISO-8601 with milliseconds).
enum JSONResponse {
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        let data = try APIJSON.encoder().encode(value)
        return raw(data, status: status, headers: headers)
    }

    /// The JSON literal `null` (get-session when signed out, §3).
    static func null(headers: HTTPFields = [:]) -> Response {
        raw("null".utf8, status: .ok, headers: headers)
    }

    /// JSON text already written, as `Data` or as the `[UInt8]` of the hand-written encoders
    /// (`WireJSON`, `IndexerRowJSON`): copied once, into the response buffer.
    static func raw(
        _ bytes: some Sequence<UInt8>, status: HTTPResponse.Status, headers: HTTPFields
    ) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A JSON body already in a buffer (a remembered get-session answer, `SessionAnswers`).
    static func raw(_ body: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: body))
    }

    /// The refusal's `{code, message}`, written directly (`WireJSON.errorBody`).
    static func failure(_ failure: APIFailure) -> Response {
        raw(WireJSON.errorBody(failure.body), status: failure.status, headers: failure.headers)
    }
}
