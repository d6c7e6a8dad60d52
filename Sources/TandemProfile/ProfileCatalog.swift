public import Foundation
import SecretFiles

/// Where one person's profiles live on a machine (issue 51 item 2), as kubectl keeps contexts:
/// named profiles under `<root>/profiles/NAME`, the default profile at `<root>/profile`, and the
/// profile chosen with `tandem profile use`, named in `<root>/current-profile`.
///
/// A profile is named by a word (`alice`) or by a path (anything with a `/`, or `.`/`..`), so
/// `--profile ./alice` keeps meaning the directory it always meant. The catalog only locates
/// directories: it never creates one on reading.
public struct ProfileCatalog: Sendable {
    /// `~/.tandem` for the CLI; an app passes its own container.
    public let root: URL

    public init(root: URL) { self.root = root }

    /// The catalog under `home`'s `.tandem`.
    public init(home: URL) { self.init(root: home.appendingPathComponent(".tandem", isDirectory: true)) }

    /// How a profile was named.
    public enum Reference: Sendable, Equatable, CustomStringConvertible {
        /// A name: `<root>/profiles/NAME`.
        case named(String)
        /// A directory given as a path (absolute, or relative to the working directory).
        case path(String)

        public var description: String {
            switch self {
            case .named(let name): name
            case .path(let path): path
            }
        }
    }

    /// Where the profile of a command came from.
    public enum Source: String, Sendable, Equatable {
        /// `--profile`.
        case argument
        /// `$TANDEM_PROFILE`.
        case environment
        /// `tandem profile use`.
        case current
        /// Nothing named one: `<root>/profile`.
        case `default`
    }

    /// One profile directory a command uses, and how it was chosen.
    public struct Located: Sendable, Equatable {
        public var directory: URL
        public var reference: Reference?
        public var source: Source

        public init(directory: URL, reference: Reference?, source: Source) {
            self.directory = directory
            self.reference = reference
            self.source = source
        }
    }

    /// One profile on this machine, for `tandem profile list`.
    public struct Entry: Sendable, Equatable {
        /// The name (`default` for `<root>/profile`), or the path of a current profile kept by path.
        public var name: String
        public var directory: URL
        public var isCurrent: Bool
    }

    /// The longest name taken.
    public static let maximumNameLength = 64

    /// `text` as a name or a path. A name is 1–64 letters, digits, `.`, `_` or `-`, not starting
    /// with `.` or `-`; anything with a `/` (or exactly `.` or `..`) is a path. Other text (a
    /// space, a control character) is refused, so a slip never names a directory nobody meant.
    public static func reference(_ text: String) throws(ProfileError) -> Reference {
        if text.contains("/") || text == "." || text == ".." { return .path(text) }
        guard isValidName(text) else {
            throw .invalidProfileName(text)
        }
        return .named(text)
    }

    static func isValidName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first != ".", first != "-",
            text.unicodeScalars.count <= maximumNameLength
        else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": true
            default: false
            }
        }
    }

    /// The directory of `reference`.
    public func directory(of reference: Reference) -> URL {
        switch reference {
        case .named(let name): profilesDirectory.appendingPathComponent(name, isDirectory: true)
        case .path(let path): URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
        }
    }

    /// Where named profiles live.
    public var profilesDirectory: URL { root.appendingPathComponent("profiles", isDirectory: true) }
    /// The profile used when nothing names one.
    public var defaultDirectory: URL { root.appendingPathComponent("profile", isDirectory: true) }
    var currentFile: URL { root.appendingPathComponent("current-profile") }

    /// The profile a command uses: `argument` (`--profile`), else `$TANDEM_PROFILE`, else the
    /// current profile, else the default one.
    public func locate(argument: String?, environment: [String: String]) throws(ProfileError) -> Located {
        if let argument {
            let reference = try Self.reference(argument)
            return Located(directory: directory(of: reference), reference: reference, source: .argument)
        }
        if let named = environment[Profile.environmentVariable], !named.isEmpty {
            let reference = try Self.reference(named)
            return Located(directory: directory(of: reference), reference: reference, source: .environment)
        }
        if let current = try current() {
            return Located(directory: directory(of: current), reference: current, source: .current)
        }
        return Located(directory: defaultDirectory, reference: nil, source: .default)
    }

    /// The profile `tandem profile use` chose, if any.
    public func current() throws(ProfileError) -> Reference? {
        guard FileManager.default.fileExists(atPath: currentFile.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: currentFile.path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines)
        else { throw .corruptFile(path: currentFile.path, reason: "not UTF-8 text") }
        if text.isEmpty { return nil }
        do { return try Self.reference(text) } catch {
            throw .corruptFile(path: currentFile.path, reason: error.description)
        }
    }

    /// Makes `reference` the current profile (a path is kept absolute); nil goes back to the default.
    public func use(_ reference: Reference?) throws(ProfileError) {
        do {
            guard let reference else {
                if FileManager.default.fileExists(atPath: currentFile.path) {
                    try FileManager.default.removeItem(at: currentFile)
                }
                return
            }
            let text: String
            switch reference {
            case .named(let name): text = name
            case .path: text = directory(of: reference).path
            }
            try SecretFile.createDirectory(root)
            try SecretFile.replace(currentFile, contents: Data((text + "\n").utf8), durably: false)
        } catch let error as SecretFileError {
            throw ProfileError(error)
        } catch {
            throw .fileSystem(path: currentFile.path, reason: String(describing: error))
        }
    }

    /// The profiles on this machine: the default one when it exists, every named one, and the
    /// current one when it is kept by path; sorted by name, the default first.
    public func entries() throws(ProfileError) -> [Entry] {
        let current = try current()
        let currentDirectory = directory(of: current ?? .path(defaultDirectory.path)).path
        var entries: [Entry] = []
        if Self.isDirectory(defaultDirectory) {
            entries.append(Entry(name: "default", directory: defaultDirectory, isCurrent: current == nil))
        }
        let names: [String]
        do {
            names =
                Self.isDirectory(profilesDirectory)
                ? try FileManager.default.contentsOfDirectory(atPath: profilesDirectory.path) : []
        } catch { throw .fileSystem(path: profilesDirectory.path, reason: String(describing: error)) }
        for name in names.sorted() where Self.isValidName(name) {
            let directory = directory(of: .named(name))
            guard Self.isDirectory(directory) else { continue }
            entries.append(Entry(name: name, directory: directory, isCurrent: directory.path == currentDirectory))
        }
        if case .path = current, let current, !entries.contains(where: \.isCurrent) {
            let directory = directory(of: current)
            if Self.isDirectory(directory) {
                entries.append(Entry(name: directory.path, directory: directory, isCurrent: true))
            }
        }
        return entries
    }

    /// Whether `url` is an existing directory.
    public static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
