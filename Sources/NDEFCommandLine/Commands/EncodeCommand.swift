import CommandLineKit
import HexText
import NDEF
import RecordSpecifications
import TagInspection

/// `ndeftool encode`: builds a message from record specifications (or JSON) and writes it.
enum EncodeCommand {
    static let output = OptionSpec.option(
        "output",
        short: "o",
        value: "file",
        help: "Write the message to <file> (- for standard output)."
    )
    static let hex = OptionSpec.flag("hex", help: "Print the message as lower-case hex on one line.")
    static let chunkSize = OptionSpec.option(
        "chunk-size",
        value: "n",
        help: "Send payloads longer than <n> bytes as chunked records."
    )
    static let fromJSON = OptionSpec.option(
        "from-json", value: "file",
        help: "Read the message from JSON ({\"records\":[...]}, as decode --json writes it; - for standard input).")
    /// The old spelling of --from-json, from before every other --json came to mean "write JSON":
    /// a flag, with the file as the argument. It still works, with a warning.
    static let oldJSON = OptionSpec.flag("json", help: "Old spelling of --from-json.")

    /// The command.
    static let spec = CommandSpec(
        name: "encode",
        abstract: "Build an NDEF message from record specifications.",
        discussion: """
            Each record is a kind word, its values, then its own options; the next word \
            that is not a value starts the next record. An option after a record belongs to \
            that record when its kind takes it and the record does not have it (or an \
            alternative to it) yet; otherwise it is an option of encode: in \
            'mime text/plain hi --hex', --hex prints the message as hex.

            Record kinds:
            \(RecordSpecGrammar.standard.synopses)

            Every kind also takes --id <id> or --id-hex <hex>. An option value that \
            starts with -- is written --option=value; record values that start with - \
            come after --, which ends options. With -v, standard error says what was \
            encoded: the size, and where each record lies (as 'ndeftool decode -v'). Binary \
            is not written to a terminal (as gzip does): give -o FILE (or -o - to insist), \
            pipe it, or add --hex.

            Examples:
              ndeftool encode uri https://www.proxmark.com --hex
              ndeftool encode text "Hello" --lang en uri https://example.com -o tag.ndef
              ndeftool encode wifi MyNetwork --key-file key.txt -o wifi.ndef
              ndeftool encode --from-json message.json -o message.ndef
            """,
        arguments: [
            ArgumentSpec(
                "record",
                help: "Record specifications (see above).",
                optional: true,
                grammar: RecordSpecGrammar.standard
            )
        ],
        options: [output, hex, chunkSize, fromJSON],
        groups: [
            MessageOptions.group(
                verbose: "Say on standard error what was encoded: the records and the bytes each one takes.")
        ],
        helpSections: [RecordSpecGrammar.standard.kindSection, RecordSpecGrammar.standard.optionSection],
        hiddenOptions: [oldJSON],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let chunkSize = try values.integerValue(chunkSize.long, in: 1...Int(Int32.max))
        let inputs = InputReader(io: invocation.io)
        let tokens = values.sequence("record")
        let message: NFCNDEFMessage
        let bytes: [UInt8]
        let oldSpelling = values.flag(oldJSON.long)
        if oldSpelling {
            CommandMessages(invocation).warn(
                "Warning: 'encode --json FILE' is now 'encode --from-json FILE' (everywhere else --json writes "
                    + "JSON): it works for now, but use --from-json")
        }
        if oldSpelling || values.isGiven(fromJSON.long) {
            let path = try jsonPath(tokens, given: values.value(fromJSON.long))
            let text = try inputs.bytes(of: path, for: "--from-json")
            message = try MessageInput.decode(json: text, source: InputReader.name(of: path))
            do {
                bytes = try message.encoded(chunkSize: chunkSize)
            } catch {
                throw CommandLineError(
                    .dataError,
                    "cannot encode the message in \(InputReader.name(of: path)): \(error.description)"
                )
            }
        } else {
            let specs = try RecordSpecGrammar.standard.commandLineSpecs(tokens)
            guard !specs.isEmpty else {
                throw .missingArgument(
                    "<record> ...", help: "<record>  A record starts with a kind word such as text or uri.")
            }
            message = NFCNDEFMessage(records: try RecordSpecGrammar.standard.commandLineRecords(specs, inputs: inputs))
            do {
                // Each record kind checks its own type; raw lets --allow-invalid-type through.
                let allowing = specs.contains { $0.flag("allow-invalid-type") }
                bytes = try message.encoded(chunkSize: chunkSize, allowingInvalidTypes: allowing)
            } catch {
                throw .usage("Cannot encode the message: \(error.description)")
            }
        }
        showLayout(message, bytes: bytes, messages: CommandMessages(invocation))
        let isHex = values.flag(hex.long)
        if !isHex, !values.isGiven(Self.output.long), invocation.io.isTerminal(.output) {
            throw .usage(
                "The message is binary and standard output is a terminal: write it to a file with -o FILE, pipe "
                    + "it, or add --hex for hex text (-o - writes it to the terminal all the same)")
        }
        let output = isHex ? Array((Hex.encode(bytes) + "\n").utf8) : bytes
        if let path = values.value(Self.output.long), path != "-" {
            try FileAccess.writeFile(output, path: path)
        } else {
            try invocation.io.writeOutput(output)
        }
        return .success
    }

    /// With `-v`: the message's size and where each record lies, on standard error.
    private static func showLayout(_ message: NFCNDEFMessage, bytes: [UInt8], messages: CommandMessages) {
        guard messages.level.isVerbose else { return }
        let records = MessageDescription.count(message.records.count, "record")
        messages.detail("Encoded \(records), \(MessageDescription.count(bytes.count, "byte")):")
        for (index, chunks) in (RecordLayout.scan(bytes) ?? []).enumerated() {
            for (chunk, layout) in chunks.enumerated() {
                let name = "  record \(index)" + (chunks.count > 1 ? " chunk \(chunk)" : "")
                messages.detail(name + " at " + layout.line)
            }
        }
    }

    /// The JSON input: `--from-json FILE` (no record words then), or with the old `--json`, the one
    /// word after it (nothing: standard input).
    private static func jsonPath(_ tokens: [CapturedToken], given: String?) throws(CommandLineError) -> String {
        var words: [String] = []
        for token in tokens {
            switch token {
            case .word(let word): words.append(word)
            case .option(let long, _):
                throw .usage("The option '--\(long)' belongs to a record; --from-json reads records from JSON")
            }
        }
        if let given {
            guard words.isEmpty else {
                throw .usage(
                    "--from-json reads the message from JSON: records cannot be given too "
                        + "(\(CommandLineError.quotedList(words)))")
            }
            return given
        }
        guard words.count <= 1 else {
            throw .usage(
                "--from-json reads one JSON file, not record specifications: \(CommandLineError.quotedList(words))")
        }
        return words.first ?? "-"
    }
}
