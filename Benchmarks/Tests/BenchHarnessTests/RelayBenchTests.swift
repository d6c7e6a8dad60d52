import Foundation
import Testing

/// `tandem-bench relay` with tiny sizes: a real server child process on loopback, real signed
/// submissions, real streams and a real SQLite store (issue 11 "Figures").
@Suite struct RelayBenchTests {
    @Test func benchRelayReportsEveryFigureAsJSON() async throws {
        let output = try await Harness.run(
            "tandem-bench",
            [
                "relay", "--rows", "1000", "--streams", "10", "--submissions", "50", "--interval-ms", "5",
                "--requests", "300", "--connections", "4", "--samples", "2", "--verifies", "100", "--json",
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let object = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(Set(object.keys).isSuperset(of: ["sqlite", "stream", "paging"]))

        let sqlite = try #require(object["sqlite"] as? [String: Any])
        for key in ["submissionsPerSecond", "verifiesPerSecond", "ratio", "bestSubmissionsPerSecond"] {
            #expect((sqlite[key] as? Double ?? 0) > 0, "sqlite.\(key)")
        }
        #expect(sqlite["non200"] as? Int == 0)

        let stream = try #require(object["stream"] as? [String: Any])
        #expect(stream["streams"] as? Int == 10)
        #expect(stream["delivered"] as? Int == 50)
        for key in ["p50Milliseconds", "p99Milliseconds", "maxMilliseconds"] {
            #expect((stream[key] as? Double ?? 0) > 0, "stream.\(key)")
        }
        #expect((stream["serverResidentBytesAfter"] as? Int ?? 0) > 0)
        #expect(stream["bytesPerIdleStream"] is Double || stream["bytesPerIdleStream"] is Int)

        let paging = try #require(object["paging"] as? [String: Any])
        #expect(paging["rows"] as? Int == 1000)
        for key in ["depth0Microseconds", "deepMicroseconds", "ratio"] {
            #expect((paging[key] as? Double ?? 0) > 0, "paging.\(key)")
        }
    }

    @Test func benchRelayRefusesTooFewRequestsForItsConnections() async throws {
        let output = try await Harness.run(
            "tandem-bench", ["relay", "--requests", "10", "--connections", "8", "--json"])
        #expect(output.status == 1)
        #expect(output.stderrText.hasPrefix("tandem-bench: --requests"))
        #expect(output.stdout.isEmpty)
    }

    @Test func benchRelayRefusesAnUnknownLoadGenerator() async throws {
        let output = try await Harness.run("tandem-bench", ["relay", "--client", "ab", "--json"])
        #expect(output.status == 1)
        #expect(output.stderrText.hasPrefix("tandem-bench: --client: swift, wrk or both"))
        #expect(output.stdout.isEmpty)
    }

    @Test func benchRelayHasHelp() async throws {
        let output = try await Harness.run("tandem-bench", ["relay", "--help"])
        #expect(output.status == 0)
        #expect(output.stdoutText.contains("USAGE: tandem-bench relay"))
        #expect(output.stdoutText.contains("--client"))
    }
}

@Suite struct BenchHelpTests {
    @Test func everyToolHasHelp() async throws {
        for tool in ["tandem-bench", "tandem-crash"] {
            let output = try await Harness.run(tool, ["--help"])
            #expect(output.status == 0, "\(tool)")
            #expect(output.stdoutText.contains("USAGE: \(tool)"), "\(tool)")
        }
    }
}
