import Hummingbird
import NIOCore

/// Counts every request and its latency in `ServerMetrics` by method, registered route and
/// answered status; a path no route matches is labelled `unmatched`. It runs outside
/// `FrontDoorMiddleware`, which turns every error into its answer, so the status counted is the
/// one sent (a database outage counts as its 503).
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
        } catch {
            // Only an error the front door did not answer reaches here: Hummingbird answers 500.
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
