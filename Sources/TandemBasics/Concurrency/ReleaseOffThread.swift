import Dispatch

/// Drops `value` on a utility thread. Hand it the last reference to a large table emptied under a
/// lock, and its entries are freed neither while the lock is held nor on a request's thread
/// (issue 49 item 6: 100,000 cached rows take tens of milliseconds to free).
public func releaseOffThread<Value: Sendable>(_ value: Value) {
    DispatchQueue.global(qos: .utility).async { withExtendedLifetime(value) {} }
}
