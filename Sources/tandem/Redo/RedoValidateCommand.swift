import ArgumentParser
import CanonicalJSON
import RedoProtocol

extension RedoCommand {
    /// `tandem redo validate FILE`: the standalone checks of spec §6.2 on one node.
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "validate",
            abstract: "Validate one node standalone (spec §6.2); a present signature must verify.",
            discussion: """
                With --json prints {"valid":bool,"code":"E_…"|null,"detail":…} and exits 0 whatever the \
                verdict. Without it prints "valid <id>" or exits 1 with the code and detail on stderr.
                """
        )

        @Argument(help: "A file holding one node as JSON.")
        var file: String

        @Flag(help: "Require a signature, as at a sync boundary.")
        var requireSignature = false

        @Flag(help: "Print the verdict as one JSON object.")
        var json = false

        func run() throws {
            let bytes = try RedoFileInput.bytes(of: file)
            let validator = NodeValidator(signaturePolicy: requireSignature ? .required : .verifyIfPresent)
            let verdict: Result<RedoNode, NodeValidationError> = Result { () throws(NodeValidationError) in
                try validator.validate(bytes: bytes)
            }
            if json {
                let members: [(String, JSONValue)] =
                    switch verdict {
                    case .success: [("valid", .bool(true)), ("code", .null), ("detail", .null)]
                    case .failure(let error):
                        [
                            ("valid", .bool(false)), ("code", .string(error.code.rawValue)),
                            ("detail", .string(error.detail)),
                        ]
                    }
                try RedoFileInput.printCanonical(.object(try JSONObject(members)))
                return
            }
            switch verdict {
            case .success(let node): CommandIO.write("valid \(node.id)\n")
            case .failure(let error): throw CLIError("node in '\(file)' is invalid: \(error)")
            }
        }
    }
}
