import Hummingbird
import Logging
import TandemAPI
import TandemServerStore

/// Turns every thrown error into JSON so no malformed request can surface as an HTML page or
/// a bare 500: `APIFailure` as is; framework errors keep their status with a JSON body (413 for
/// oversized bodies); unknown paths stay 404 with an empty body (betterauth-api.md §1).
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let failure as APIFailure {
            return JSONResponse.failure(failure)
        } catch ServerStoreError.unavailable(let reason) {
            context.logger.warning("database unavailable", metadata: ["reason": "\(reason)"])
            return JSONResponse.failure(APIFailure.databaseUnavailable)
        } catch ServerStoreError.busy(let reason) {
            return JSONResponse.failure(SyncWriteGate.busy(reason))
        } catch let error as HTTPError {
            switch error.status {
            case .notFound: return Response(status: .notFound)
            case .contentTooLarge: return JSONResponse.failure(.payloadTooLarge)
            case .methodNotAllowed: return Response(status: .methodNotAllowed)
            default:
                if error.status.code < 500 {
                    return JSONResponse.failure(
                        APIFailure(error.status, .badRequest, error.body ?? error.status.reasonPhrase))
                }
                context.logger.error("request failed", metadata: ["error": "\(error)"])
                return JSONResponse.failure(
                    APIFailure(.internalServerError, .internalServerError, "Internal server error"))
            }
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return JSONResponse.failure(APIFailure(.internalServerError, .internalServerError, "Internal server error"))
        }
    }
}
