/// A bad benchmark argument: the message names the option and what was wrong with it.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
