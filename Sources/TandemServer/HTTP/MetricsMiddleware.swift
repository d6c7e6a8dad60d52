import Hummingbird
import NIOCore

/// Counts every request and its latency in `ServerMetrics` by method, registered route and
/// answered status; a path no route matches is labelled `unmatched`.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = NIODeadline.now()
        let route = context.endpointPath ?? "unmatched"
        do {
            let response = try await next(request, context)
            record(request, route, Int(response.status.code), since: start)
            return response
        } catch let failure as APIFailure {
            record(request, route, Int(failure.status.code), since: start)
            throw failure
        } catch let error as any HTTPResponseError {
            record(request, route, Int(error.status.code), since: start)
            throw error
        } catch {
            record(request, route, 500, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ route: String, _ status: Int, since start: NIODeadline) {
        metrics.record(
            method: request.method.rawValue, route: route, status: status,
            nanoseconds: (NIODeadline.now() - start).nanoseconds)
    }
}
