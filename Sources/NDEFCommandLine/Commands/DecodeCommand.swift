import NDEF

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `ndeftool decode`: reads a message and describes it, or prints its JSON.
enum DecodeCommand {
    static let hex = OptionSpec.flag(
        "hex", help: "Read hex text instead of binary (whitespace and # comments are ignored).")
    static let json = OptionSpec.flag("json", help: "Print the message as JSON ({\"records\":[...]}).")
    static let lenient = OptionSpec.flag(
        "lenient",
        help: "Recover what can be read from a damaged message; list each problem skipped on standard error."
    )

    /// The command.
    static let spec = CommandSpec(
        name: "decode",
        abstract: "Describe an NDEF message.",
        discussion: """
            Prints the record count and size, then for each record its index, type name \
            format, type, ID, payload size, chunk count, and what the record says when \
            ndeftool knows its type. Records nested in Smart Posters and Handover records \
            are shown under theirs.

            Decoding is strict: the first deviation from NFC Forum NDEF 1.0 ends it with \
            exit status 65 and the byte offset where it was found.

            Examples:
              ndeftool decode message.ndef
              ndeftool encode uri https://example.com | ndeftool decode
              ndeftool decode --json message.ndef
              ndeftool decode --hex message.hex
              ndeftool decode --lenient damaged.ndef
            """,
        arguments: [
            ArgumentSpec("file", help: "The message, - for standard input.", optional: true, default: "-")
        ],
        options: [hex, json, lenient],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let path = values.argument("file") ?? "-"
        let source = InputReader.name(of: path)
        var inputs = InputReader(io: invocation.io)
        let bytes = try MessageInput.bytes(inputs.read(path, for: "<file>"), hex: values.flag(hex.long), source: source)
        let message: NFCNDEFMessage
        if values.flag(lenient.long) {
            let recovery: NDEFRecovery
            do {
                recovery = try NFCNDEFMessage.recovering(from: bytes)
            } catch {
                throw CommandLineError(
                    .dataError, ErrorText.malformed(error, in: source) + "; nothing could be recovered")
            }
            for issue in recovery.issues {
                let offset = issue.offset.map { " at byte \($0)" } ?? ""
                invocation.io.writeError("warning: skipped\(offset): \(issue.reason) (\(issue.code.rawValue))\n")
            }
            message = recovery.message
        } else {
            do {
                message = try NFCNDEFMessage(decoding: bytes)
            } catch {
                throw CommandLineError(.dataError, ErrorText.malformed(error, in: source))
            }
        }
        if values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: message) + "\n")
        } else {
            try invocation.io.writeOutput(MessageDescription(message: message, size: bytes.count).text)
        }
        return .success
    }
}
