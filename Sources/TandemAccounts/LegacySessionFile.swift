import Foundation
import TandemProfile

/// The pre-BetterAuth session: `session.json` in the profile holding an `idAlias` (seed 003,
/// "detect old sessions and force re-login with a migration message").
struct LegacySessionFile {
    let url: URL

    init(profile: Profile) {
        url = profile.url(.legacySession)
    }

    /// Whether the file holds a legacy `idAlias` session.
    func isPresent() -> Bool {
        guard let data = FileManager.default.contents(atPath: url.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["idAlias"] != nil
    }

    /// Removes a legacy session file; returns whether there was one.
    func retireIfPresent() throws(AccountClientError) -> Bool {
        guard isPresent() else { return false }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .profile(.fileSystem(path: url.path, reason: "cannot remove the legacy session file"))
        }
        return true
    }
}
