import CommandLineKit
import HexText
import NDEF
import NFCSession
import TagInspection
import TagMemory

/// `ndeftool read`: reads the NDEF message of the tag at the reader.
enum ReadCommand {
    static let json = OptionSpec.flag("json", help: "Print the message as JSON ({\"records\":[...]}).")
    static let hex = OptionSpec.flag("hex", help: "Print the message as lower-case hex on one line.")
    static let raw = OptionSpec.flag("raw", help: "Write the message as binary NDEF (to standard output or --output).")
    static let output = OptionSpec.option(
        "output", short: "o", value: "file", help: "Write the message to <file> instead of standard output.")

    /// The command.
    static let spec = CommandSpec(
        name: "read",
        abstract: "Read the NDEF message of a tag.",
        discussion: """
            Waits for one tag at the reader, reads its NDEF message and describes it as \
            'ndeftool decode' does. On a Type 2 tag (NTAG21x, MIFARE Ultralight) that is \
            the capability container and the TLVs up to the end of the NDEF Message TLV, \
            and no further (NFC Forum Type 2 Tag 1.1, 6.4.2); on a Type 4 tag (ISO-DEP) \
            the NDEF Tag Application's CC file, then NLEN and the message of the NDEF file \
            (Type 4 Tag 3.0, 5.5.6).

            A tag that holds an empty NDEF message (an initialised tag) is reported as such \
            with exit status 0 (JSON: no records; --raw and --hex: nothing). A tag that is \
            not NDEF formatted ends with exit status 76: initialise it with 'ndeftool \
            format'.

            Examples:
              ndeftool read --reader 'sim:ntag215?file=tag.nfc'
              ndeftool read --json
              ndeftool read --raw -o message.ndef
              ndeftool read --reader 'sim:type4?file=t4.txt'
              NDEFTOOL_READER=sim:ntag213 ndeftool read --hex --wait 0
            """,
        options: [json, hex, raw, output],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let formats = [json, hex, raw].filter { values.flag($0.long) }
        if formats.count > 1 {
            throw .usage("Choose one output format: \(CommandLineError.quotedList(formats.map { "--" + $0.long }))")
        }
        if let path = values.value(Self.output.long) { try FileAccess.checkOutput(path, option: "--output") }
        let password = try TagPasswordOptions.given(invocation)
        let connection = try TagConnection(invocation)
        return try await connection.runOnTag("reading the tag") { tag in
            try await TagPasswordOptions.unlock(tag, access: .read, given: password)
            let result: (message: NFCNDEFMessage, bytes: [UInt8])?
            do {
                result = try await read(tag, exactBytes: values.flag(raw.long) || values.flag(hex.long))
            } catch let error as NFCReaderError where error.code == .authenticationRequired {
                throw await ReadProtection.failure(error, tag: tag, activity: "reading the tag")
            }
            let output = try render(result, values: values, console: connection.console)
            if let path = values.value(Self.output.long), path != "-" {
                try FileAccess.writeFile(output, path: path)
            } else {
                try invocation.io.writeOutput(output)
            }
            return .success
        }
    }

    /// The output for the message read (nil: an empty message) in the format asked for.
    static func render(
        _ result: (message: NFCNDEFMessage, bytes: [UInt8])?, values: ParsedValues, console: TagConsole
    ) throws(CommandLineError) -> [UInt8] {
        guard let (message, bytes) = result else {
            if values.flag(json.long) || values.flag(hex.long) || values.flag(raw.long) {
                console.note("The tag holds an empty NDEF message.")
            }
            if values.flag(json.long) {
                return Array((try MessageJSON.text(of: NFCNDEFMessage(records: [])) + "\n").utf8)
            }
            if values.flag(hex.long) { return Array("\n".utf8) }
            if values.flag(raw.long) { return [] }
            return Array("NDEF message: empty (the tag holds an empty NDEF message)\n".utf8)
        }
        if values.flag(json.long) { return Array((try MessageJSON.text(of: message) + "\n").utf8) }
        if values.flag(hex.long) { return Array((Hex.encode(bytes) + "\n").utf8) }
        if values.flag(raw.long) { return bytes }
        return Array(MessageDescription(message: message, size: bytes.count).text.utf8)
    }

    /// The message and its bytes, or nil for an empty message.
    ///
    /// The bytes are the tag's own (read with the whole memory) when `exactBytes`, so that a
    /// message with chunked records or long-form headers comes out as stored; otherwise they
    /// are the message encoded again, which gives its size.
    static func read(_ tag: any NFCNDEFTag, exactBytes: Bool) async throws -> (NFCNDEFMessage, [UInt8])? {
        let message: NFCNDEFMessage
        do {
            message = try await tag.readNDEF()
        } catch {
            if error.code == .zeroLengthMessage { return nil }
            throw error
        }
        if exactBytes, let stored = try await tag.readNDEFMessageBytes() {
            return (message, stored)
        }
        do {
            return (message, try message.encoded())
        } catch {
            throw CommandLineError(.tagError, "the message read cannot be encoded again: \(error.reason)")
        }
    }
}
