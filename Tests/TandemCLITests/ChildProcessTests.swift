import Foundation
import TestSupport
import Testing

/// The tests' process helper (issue 26 item 4): a child that overstays its deadline is killed and
/// reported, and a child's exit status and output come back as they are.
@Suite struct ChildProcessTests {
    @Test func aChildThatOverstaysIsKilledAtItsDeadline() async throws {
        let child = try await ChildProcess.launch(URL(fileURLWithPath: "/bin/sleep"), ["600"])
        await #expect(throws: ChildProcessError.self) { _ = try await child.exitStatus(within: 0.5) }
        // It was reaped before the error came back
        #expect(child.outputEnded)
    }

    @Test func aChildThatClosedItsOutputStillTakesSignals() async throws {
        // The shell closes its standard output, then waits: only a signal ends it
        let child = try await ChildProcess.launch(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "echo ready; exec 1>&-; exec sleep 600"])
        #expect(try await child.firstLine(within: 30) == "ready")
        #expect(try await child.terminate(within: 30) == SIGTERM)
    }

    @Test func exitStatusAndOutputComeBackAsTheyAre() async throws {
        let collected = try await ChildProcess.collect(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "cat; echo err >&2; exit 3"], stdin: Data("in\n".utf8))
        #expect(collected.status == 3)
        #expect(String(decoding: collected.stdout, as: UTF8.self) == "in\n")
        #expect(String(decoding: collected.stderr, as: UTF8.self) == "err\n")
    }

}
