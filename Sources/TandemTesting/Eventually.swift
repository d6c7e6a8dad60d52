/// Polls `condition` until it holds, for at most `limit` of real time: true when it held. The
/// limit only turns a hang into a failure; the poll yields first and then sleeps a millisecond
/// between looks, so a condition another task makes true is seen at once.
public func eventually(within limit: Duration = .seconds(30), _ condition: () throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var looks = 0
    while clock.now < deadline {
        if try condition() { return true }
        looks += 1
        if looks < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return try condition()
}
