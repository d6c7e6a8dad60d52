public import SecretFiles

extension Profile {
    /// Makes the profile directory private (issue 50 item 9): created 0700 when missing; an existing
    /// one that group or others could enter is made 0700, and every file in it that they could
    /// read becomes 0600. Answers what changed, for the one line a CLI prints about it. An app
    /// calls it once when it opens a profile; store opens do not repeat it (each new file is
    /// made 0600 anyway).
    @discardableResult
    public func restrictPermissions() throws(ProfileError) -> PrivateDirectory.Repair {
        do { return try PrivateDirectory.restrict(directory) } catch { throw ProfileError(error) }
    }
}
