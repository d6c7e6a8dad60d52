import Foundation
import KaspaNode
import TandemNIOTransport
import Testing

/// Issue 50 item 9: a node that cannot be reached is named in the error without the API token its
/// URL carries (in the user name, the password or the query).
@Suite struct NodeErrorRedactionTests {
    @Test func anUnreachableNodeIsNamedWithoutItsSecrets() async throws {
        let secret = "sekrit123"
        let url = try #require(URL(string: "ws://\(secret):\(secret)@127.0.0.1:1/?api_key=\(secret)&net=tn10"))
        let client = KaspaNodeClient(
            configuration: KaspaNodeConfiguration(endpoints: [.node(url)], network: .testnet10),
            transport: WebSocketClientTransport())
        do {
            _ = try await client.connect()
            Issue.record("port 1 answered")
        } catch {
            #expect(!error.description.contains(secret), "\(error.description)")
            #expect(error.description.contains("ws://***@127.0.0.1:1/?api_key=***&net=tn10"), "\(error.description)")
        }
    }
}
