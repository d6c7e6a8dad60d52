/// Polls `condition` until it holds: true when it did. The poll yields first and then sleeps a
/// millisecond between looks, so a condition another task makes true is seen at once.
///
/// The condition is judged false only once `limit` of real time has passed **and** it has been
/// looked at `minimumLooks` times. The limit alone turned starvation into failures: on two
/// shared cores, a test can go unscheduled for over a minute while the other suites' work holds
/// the cooperative pool (a healthy `GroupCommitter` test failed so, issue 45), and it then looked
/// a few times only. Unstarved, the looks take about 5 s, so a condition that never holds still
/// fails after `limit`.
public func eventually(
    within limit: Duration = .seconds(30), minimumLooks: Int = 5_000, _ condition: () throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var looks = 0
    while clock.now < deadline || looks < minimumLooks {
        if try condition() { return true }
        looks += 1
        if looks < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return try condition()
}
