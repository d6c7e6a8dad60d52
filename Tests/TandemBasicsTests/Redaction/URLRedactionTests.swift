import Foundation
import TandemBasics
import Testing

/// Secrets in URLs never reach a message, a log line or an answer (issue 14 audit; issue 50 item 9).
@Suite struct URLRedactionTests {
    @Test(
        "database URLs keep the user name and hide the password, in the userinfo and the query",
        arguments: [
            ("postgres://tandem:s3cret@db:5432/tandem", "postgres://tandem:***@db:5432/tandem"),
            ("postgres://tandem:p@ss@db/tandem?sslmode=require", "postgres://tandem:***@db/tandem?sslmode=require"),
            ("postgres://db/tandem?user=t&password=s3cret", "postgres://db/tandem?user=t&password=***"),
            ("postgres://tandem@db/tandem", "postgres://tandem@db/tandem"),
            ("not a url:s3cret@x", "not a url:***@x"),
        ])
    func databaseURLs(text: String, shown: String) {
        #expect(URLRedaction.redact(text) == shown)
        #expect(!URLRedaction.redact(text).contains("s3cret"))
    }

    @Test(
        "a node's URL loses its userinfo and its token, key and auth parameters; the rest is kept",
        arguments: [
            ("wss://apikey123@node.example/ws", "wss://***@node.example/ws"),
            ("wss://user:apikey123@node.example:443/ws", "wss://***@node.example:443/ws"),
            ("wss://node.example/ws?token=apikey123&net=main", "wss://node.example/ws?token=***&net=main"),
            ("ws://127.0.0.1:17110?api_key=apikey123", "ws://127.0.0.1:17110?api_key=***"),
            ("wss://node.example/ws?Authorization=apikey123#x", "wss://node.example/ws?Authorization=***#x"),
            ("ws://127.0.0.1:17110", "ws://127.0.0.1:17110"),
        ])
    func nodeURLs(text: String, shown: String) throws {
        let url = try #require(URL(string: text))
        #expect(URLRedaction.redact(url) == shown)
        #expect(!URLRedaction.redact(url).contains("apikey123"))
    }
}
