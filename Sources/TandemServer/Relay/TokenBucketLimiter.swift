import TandemBasics

/// Token buckets per key (issue 11 item 1: a person's pace — bursts of 20, one a second
/// sustained). Memory is bounded: at most `maxKeys` buckets in a `BoundedLRU`, whose O(1)
/// eviction drops the least recently used key (issue 14 audit: no sort of the whole table
/// while a flood of new keys arrives). A dropped key comes back with a full bucket.
actor TokenBucketLimiter {
    struct Policy: Sendable {
        var burst: Double = 20
        var perSecond: Double = 1
        var maxKeys: Int = 10_000
    }

    private struct Bucket {
        var tokens: Double
        var updated: UnixMillis
    }

    private let clock: any WallClock
    private let policy: Policy
    private var buckets: BoundedLRU<String, Bucket>

    init(clock: any WallClock, policy: Policy = Policy()) {
        self.clock = clock
        self.policy = policy
        buckets = BoundedLRU(capacity: max(1, policy.maxKeys))
    }

    /// Takes one token for each key, all or none; returns the whole seconds to wait when one
    /// of them is empty.
    func admit(_ keys: [String]) -> Int? {
        let now = clock.now
        var refilled: [(String, Bucket)] = []
        for key in keys {
            var bucket = buckets.value(for: key) ?? Bucket(tokens: policy.burst, updated: now)
            let elapsed = Self.seconds(from: bucket.updated, to: now)
            bucket.tokens = min(policy.burst, bucket.tokens + elapsed * policy.perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                return max(1, Int(((1 - bucket.tokens) / policy.perSecond).rounded(.up)))
            }
            refilled.append((key, bucket))
        }
        for (key, var bucket) in refilled {
            bucket.tokens -= 1
            buckets.set(bucket, for: key)
        }
        return nil
    }

    /// Number of keys held, for the memory bound's test.
    var keyCount: Int { buckets.count }

    /// Seconds elapsed, never negative (a clock set back refills nothing).
    private static func seconds(from start: UnixMillis, to end: UnixMillis) -> Double {
        Double(max(0, start.milliseconds(to: end))) / 1000
    }
}
