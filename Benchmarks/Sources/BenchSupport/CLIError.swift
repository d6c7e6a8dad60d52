/// A bad benchmark argument: the message names the option and what was wrong with it.
package struct CLIError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
