import CommandLineKit
import NDEF
import TagInspection

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `ndeftool decode`: reads a message and describes it, or prints its JSON.
enum DecodeCommand {
    static let hex = OptionSpec.flag(
        "hex-input", help: "Read hex text instead of binary (whitespace and # comments are ignored)."
    ).aliased("hex")
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
            are shown under theirs. With -v each record also shows where it lies in the \
            input: its header byte and flags, and the bytes of its type, ID and payload, a \
            line per chunk. -q leaves out the warnings of --lenient (the exit status stays 0).

            Decoding is strict: the first deviation from NFC Forum NDEF 1.0 ends it with \
            exit status 65 and the byte offset where it was found. A message over a limit \
            of the decoder (more than 16,384 records) is not malformed: exit status 73 \
            (too-many-records); --lenient prints the records before the limit.

            Examples:
              ndeftool decode message.ndef
              ndeftool encode uri https://example.com | ndeftool decode
              ndeftool decode --json message.ndef
              ndeftool decode --hex-input message.hex
              ndeftool decode --lenient damaged.ndef
              ndeftool decode -v message.ndef
            """,
        arguments: [
            ArgumentSpec("file", help: "The message, - for standard input.", optional: true, default: "-")
        ],
        options: [hex, json, lenient],
        groups: [
            MessageOptions.group(
                verbose: "Show where each record lies: its header byte and flags, the bytes of its type, ID and "
                    + "payload (text output).")
        ],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let messages = CommandMessages(invocation)
        let path = values.argument("file") ?? "-"
        let source = InputReader.name(of: path)
        let inputs = InputReader(io: invocation.io)
        let bytes = try MessageInput.bytes(
            inputs.bytes(of: path, for: "<file>"), hex: values.flag(hex.long), source: source)
        let message: NFCNDEFMessage
        if values.flag(lenient.long) {
            let recovery: NDEFRecovery
            do {
                recovery = try NFCNDEFMessage.recovering(from: bytes)
            } catch {
                throw ErrorText.failure(error, in: source, suffix: "; nothing could be recovered")
            }
            for issue in recovery.issues {
                let offset = issue.offset.map { " at byte \($0)" } ?? ""
                messages.note("warning: skipped\(offset): \(issue.reason) (\(issue.code.rawValue))")
            }
            message = recovery.message
        } else {
            do {
                message = try NFCNDEFMessage(decoding: bytes)
            } catch {
                throw ErrorText.failure(error, in: source)
            }
        }
        if values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: message) + "\n")
        } else {
            var description = MessageDescription(message: message, size: bytes.count)
            if messages.level.isVerbose { description.layouts = RecordLayout.scan(bytes) }
            try invocation.io.writeOutput(description.text)
        }
        return .success
    }
}
