import ChatTimeline
import TandemTesting
import Testing

/// The §2.7 harness at a small size: the acceptance invariants must hold (not timing).
@Suite struct TimelineSimulationTests {
    @Test(arguments: [UInt64(1), 7, 42])
    func scriptedReaderKeepsItsPlaceThroughTheWholeHistory(seed: UInt64) {
        var simulation = TimelineSimulation(messages: 600, seed: seed)
        let report = simulation.run()
        #expect(report.reachedStart)
        #expect(report.landedOnNewest)
        #expect(report.prepends > 0)
        #expect(report.anchorDeltaMedian == 0)
        #expect(report.anchorDeltaP99 <= 1)
        #expect(report.unexpectedScrolls == 0)
        #expect(report.overlappingRequests == 0)
        #expect(report.invariantViolations == 0)
        #expect(report.worldAnchorMoves == 0)
        #expect(report.firstProblem == nil)
    }
}
