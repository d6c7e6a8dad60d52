/// A bad input to the CLI: the message names the input and what was wrong with it.
struct CLIError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
