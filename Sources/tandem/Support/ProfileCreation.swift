import ArgumentParser
import Foundation
import TandemBasics
import TandemProfile

/// Which profiles this run of `tandem` made (issue 51 item 2): the command is told before it runs
/// whether it may make one (``CreatesProfile``), and after it ends each profile it made is said
/// on stderr, or, when the command failed, removed again: a failed command leaves no half-made
/// profile, and its error stays the one line of the CLI contract.
enum ProfileCreation {
    private struct State {
        var allowed = false
        var noted: [String: ProfileCatalog.Located] = [:]
    }

    private static let state = Locked(State())

    /// Whether the running command may make a missing profile.
    static var allowed: Bool { state.withLock { $0.allowed } }

    /// Called before the command runs.
    static func prepare(for command: any ParsableCommand) {
        state.withLock { $0.allowed = command is any CreatesProfile }
    }

    /// A missing profile the command is about to make.
    static func note(_ located: ProfileCatalog.Located) {
        state.withLock { $0.noted[located.directory.path] = located }
    }

    /// Called when the command ended: says each profile made, or removes one left empty by a failure.
    static func finish(succeeded: Bool) {
        let noted = state.withLock { state in
            defer { state.noted = [:] }
            return state.noted
        }
        for (path, located) in noted.sorted(by: { $0.key < $1.key }) {
            guard ProfileCatalog.isDirectory(located.directory) else { continue }
            guard succeeded else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            let name = located.reference.map { "'\($0)' " } ?? ""
            CommandIO.writeError("tandem: created profile \(name)at \(path)")
        }
    }
}

// The commands that may make a profile: each writes what a new profile starts from. Reading,
// chatting, syncing and wallet commands need one that exists (a message from a new identity,
// made by a typo, would be worse than an error).
extension KeysCommand.New: CreatesProfile {}
extension KeysCommand.Import: CreatesProfile {}
extension AccountCommand.Register: CreatesProfile {}
extension AccountCommand.Login: CreatesProfile {}
extension TasksCommand.Add: CreatesProfile {}
extension TasksCommand.Preset.Save: CreatesProfile {}
extension ContactsCommand.Add: CreatesProfile {}
extension ContactsCommand.Migrate: CreatesProfile {}
extension ContactsCommand.ImportSync: CreatesProfile {}
