public import Foundation

/// The server a profile signed in to (issue 26 item 5): an app or the CLI names it once, at
/// sign-up or sign-in, and every later call of the profile finds it here. Signing out keeps it,
/// so the next sign-in needs no server either.
extension Profile {
    private struct RememberedServer: Codable {
        var server: URL
    }

    /// The server of the last successful sign-up or sign-in; nil before the first.
    public func rememberedServer() throws(ProfileError) -> URL? {
        try readJSON(RememberedServer.self, from: .server)?.server
    }

    /// Remembers `server` (atomically) as the profile's server.
    public func rememberServer(_ server: URL) throws(ProfileError) {
        try writeJSON(RememberedServer(server: server), to: .server)
    }
}
