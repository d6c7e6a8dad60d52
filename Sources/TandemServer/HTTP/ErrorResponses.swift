import Hummingbird
import Logging
import TandemAPI
import TandemServerStore

/// Turns every thrown error into JSON so no malformed request can surface as an HTML page or
/// a bare 500: `APIFailure` as is; framework errors keep their status with a JSON body (413 for
/// oversized bodies); unknown paths stay 404 with an empty body (betterauth-api.md §1).
enum ErrorResponses {
    static func response(for error: any Error, to request: Request, logger: Logger) -> Response {
        switch error {
        case let failure as APIFailure:
            return JSONResponse.failure(failure)
        case ServerStoreError.unavailable(let reason):
            logger.warning("database unavailable", metadata: ["reason": "\(reason)"])
            return JSONResponse.failure(APIFailure.databaseUnavailable)
        case ServerStoreError.busy(let reason):
            return JSONResponse.failure(SyncWriteGate.busy(reason))
        case ServerStoreError.quotaExceeded(let reason):
            return JSONResponse.failure(
                APIFailure(.contentTooLarge, .quotaExceeded, "Storage quota exceeded (\(reason)); nothing was written.")
            )
        case let error as HTTPError:
            switch error.status {
            case .notFound: return Response(status: .notFound)
            case .contentTooLarge: return JSONResponse.failure(.payloadTooLarge)
            case .methodNotAllowed: return Response(status: .methodNotAllowed)
            default:
                if error.status.code < 500 {
                    return JSONResponse.failure(
                        APIFailure(error.status, .badRequest, error.body ?? error.status.reasonPhrase))
                }
                logger.error("request failed", metadata: ["error": "\(error)"])
                return JSONResponse.failure(
                    APIFailure(.internalServerError, .internalServerError, "Internal server error"))
            }
        default:
            logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return JSONResponse.failure(APIFailure(.internalServerError, .internalServerError, "Internal server error"))
        }
    }
}
