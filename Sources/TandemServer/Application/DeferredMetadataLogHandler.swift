public import Logging
import TandemServerStore

/// Keeps a logger's metadata as a dictionary and hands it to `Inner` only when a line is
/// written, so setting a key costs a dictionary store instead of a re-render.
///
/// swift-log's `StreamLogHandler` renders its whole metadata text on every
/// `logger[metadataKey:] =`; Hummingbird sets `hb.request.id` and `FrontDoorMiddleware` sets
/// `request_id` on every request, so each request paid two renders even when nothing was logged
/// (≈ 2 % of a relay submission's server CPU, BENCHMARKS.md "Kasia relay", sessions 4 and 8).
/// The line written is the inner handler's own: `Inner` receives the same metadata before it
/// logs, so the output is byte for byte what `Inner` alone would write.
public struct DeferredMetadataLogHandler<Inner: LogHandler>: LogHandler {
    private var inner: Inner
    public var metadata: Logger.Metadata

    public init(_ inner: Inner) {
        self.metadata = inner.metadata
        self.inner = inner
    }

    public var logLevel: Logger.Level {
        get { inner.logLevel }
        set { inner.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { inner.metadataProvider }
        set { inner.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var handler = inner
        handler.metadata = metadata
        handler.log(event: event)
    }
}
