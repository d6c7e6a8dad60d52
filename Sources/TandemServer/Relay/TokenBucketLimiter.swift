import Foundation
import TandemBasics

/// Token buckets per key (issue 11 item 1: a person's pace — bursts of 20, one a second
/// sustained). Memory is bounded: past `maxKeys` buckets, the fullest (the ones closest to
/// forgetting their key anyway) are dropped first.
actor TokenBucketLimiter {
    struct Policy: Sendable {
        var burst: Double = 20
        var perSecond: Double = 1
        var maxKeys: Int = 10_000
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let clock: any WallClock
    private let policy: Policy
    private var buckets: [String: Bucket] = [:]

    init(clock: any WallClock, policy: Policy = Policy()) {
        self.clock = clock
        self.policy = policy
    }

    /// Takes one token for each key, all or none; returns the whole seconds to wait when one
    /// of them is empty.
    func admit(_ keys: [String]) -> Int? {
        let now = clock.now.date
        var refilled: [(String, Bucket)] = []
        for key in keys {
            var bucket = buckets[key] ?? Bucket(tokens: policy.burst, updated: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updated))
            bucket.tokens = min(policy.burst, bucket.tokens + elapsed * policy.perSecond)
            bucket.updated = now
            guard bucket.tokens >= 1 else {
                return max(1, Int(((1 - bucket.tokens) / policy.perSecond).rounded(.up)))
            }
            refilled.append((key, bucket))
        }
        if buckets.count + refilled.count > policy.maxKeys { evict(now: now) }
        for (key, var bucket) in refilled {
            bucket.tokens -= 1
            buckets[key] = bucket
        }
        return nil
    }

    /// Number of keys held, for the memory bound's test.
    var keyCount: Int { buckets.count }

    private func evict(now: Date) {
        let target = policy.maxKeys * 3 / 4
        let ranked = buckets.map { key, bucket in
            (key, min(policy.burst, bucket.tokens + max(0, now.timeIntervalSince(bucket.updated)) * policy.perSecond))
        }.sorted { $0.1 > $1.1 }
        for (key, _) in ranked.prefix(max(0, buckets.count - target)) { buckets[key] = nil }
    }
}
