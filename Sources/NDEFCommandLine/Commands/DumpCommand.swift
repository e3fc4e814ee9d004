import CommandLineKit
import NDEF
import NFCSession
import TagInspection
import TagMemory

/// `ndeftool dump`: saves the whole readable memory of the tag at the reader in a dump format
/// that `ndeftool inspect` (and other tools) read.
enum DumpCommand {
    static let output = OptionSpec.option(
        "output", short: "o", value: "file", help: "Save the dump to <file> (- for standard output, text formats).")
    static let format = OptionSpec.option(
        "format", value: "format", values: formats.map(\.name) + ["proxmark-binary"],
        help: "The dump's format (default: from the file extension; hex on standard output).")
    static let json = OptionSpec.flag("json", help: "Print what was saved as JSON (not with -o -).")

    /// The command.
    static let spec = CommandSpec(
        name: "dump",
        abstract: "Save a tag's whole memory to a dump file.",
        discussion: """
            Reads every readable page of a Type 2 tag (PWD and PACK read as 00h; \
            NTAG213/215/216 8.8.1) with its UID, ATQA and SAK, and where the chip has them \
            the GET_VERSION answer, the originality signature (READ_SIG) and the counters \
            (READ_CNT), and saves them in a dump format that 'ndeftool inspect' reads: \
            flipper (Flipper Zero .nfc), raw (the pages back to back), hex (one page per \
            line), proxmark-json or proxmark-bin (proxmark3 'hf mfu dump'). Without \
            --format the format follows the file extension: .nfc flipper, .bin \
            proxmark-bin, .json proxmark-json, .txt or .hex hex, .mfd or .raw raw. With \
            -o - a text format (hex by default) goes to standard output (then --json, \
            which prints what was saved, is refused with exit status 64).

            A MIFARE Classic card is read block by block, each sector opened with the first \
            key that the card accepts: the keys of --keys-file, then the public keys (transport \
            FFFFFFFFFFFF, MAD A0A1A2A3A4A5, NFC Forum D3F7D3F7D3F7), each tried once per \
            sector. The dump holds the keys that opened a sector in its trailer, as libnfc's \
            nfc-mfclassic does, so keep it as safe as the keys file; formats raw (.mfd, as \
            nfc-mfclassic and 'sim:classic1k?file=card.mfd' read it) or hex (one block per \
            line). Sectors no key opens are saved as zeros, named, and end with exit status 78.

            A dump is also a simulated tag: 'sim:ntag215?file=tag.nfc' opens one. Nothing \
            is written to the tag. Pages behind a read password end with exit status 78. \
            Type 4 tags are not supported yet (exit status 69).

            Examples:
              ndeftool dump -o tag.nfc --reader 'sim:ntag215?file=tag.nfc'
              ndeftool dump -o tag.json
              ndeftool dump -o - --format hex
              ndeftool dump -o tag.bin && ndeftool inspect tag.bin
              ndeftool dump -o card.mfd --keys-file keys.txt --reader 'sim:classic1k?file=card.mfd'
            """,
        options: [output, format, json, ClassicKeysFile.option],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    /// The formats by their command-line names.
    static let formats: [(name: String, format: TagDumpFormat)] = [
        ("flipper", .flipper), ("raw", .raw), ("hex", .hexText), ("proxmark-json", .proxmarkJSON),
        ("proxmark-bin", .proxmarkBinary),
    ]

    /// What was saved, for `--json`.
    struct Report: Encodable {
        var uid: String
        var chip: ChipJSON?
        var pages: Int
        var format: String
        var path: String
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        guard let path = values.value(output.long) else {
            throw .missingArgument(
                "--output <file>", help: "-o, --output <file>  The dump file (- for standard output).")
        }
        try FileAccess.checkOutput(path, option: "--output")
        let (name, chosen) = try chooseFormat(values.value(format.long), path: path)
        if path == "-", !chosen.isText {
            throw .usage("The \(name) format is binary: give a file with -o, or choose a text format (hex, flipper)")
        }
        if path == "-", values.flag(json.long) {
            throw .usage(
                "With -o - the dump itself goes to standard output, so --json has nowhere to go: give a file with -o, "
                    + "or leave out --json")
        }
        let password = try TagPasswordOptions.given(invocation)
        let classicKeys = try ClassicKeysFile.keyring(values)
        let connection = try TagConnection(invocation)
        return try await connection.runOnTag("dumping the tag") { tag in
            if let card = tag as? NFCMiFareClassicTag {
                let target = ClassicDumpTarget(
                    path: path, formatName: name, format: chosen, json: values.flag(json.long))
                return try await ClassicDump.save(card, keys: classicKeys, to: target, io: invocation.io)
            }
            try await TagPasswordOptions.unlock(tag, access: .read, given: password)
            guard let type2 = tag as? NFCMiFareTag else {
                throw CommandLineError(
                    .unavailable,
                    "tag \(tag.targetInfo.uidDescription) is an \(tag.chipName ?? "unknown tag"): dumps of tags other "
                        + "than Type 2 are not supported yet ('ndeftool read --raw' saves its NDEF message)")
            }
            let dump: TagDump
            do {
                dump = try await read(type2)
            } catch let error as NFCReaderError where error.code == .authenticationRequired {
                throw await ReadProtection.failure(error, tag: tag, activity: "dumping the tag")
            }
            let bytes: [UInt8]
            do throws(TagMemoryError) {
                bytes = try dump.encoded(as: chosen)
            } catch {
                throw CommandLineError(.internalError, "the dump cannot be written as \(chosen): \(error.reason)")
            }
            if path == "-" {
                try invocation.io.writeOutput(bytes)
                return .success
            }
            try FileAccess.writeFile(bytes, path: path)
            let report = Report(
                uid: type2.targetInfo.uidJSON, chip: type2.chip.map { ChipJSON($0.name) }, pages: dump.pageCount,
                format: name,
                path: path)
            if values.flag(json.long) {
                try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
            } else {
                try invocation.io.writeOutput(
                    "Saved tag \(type2.targetInfo.uidDescription)" + (report.chip.map { " (\($0.name))" } ?? "")
                        + ": \(MessageDescription.count(report.pages, "page")) to \(path) (\(chosen))\n")
            }
            return .success
        }
    }

    /// The format named by `--format`, else by the extension of `path` (hex for `-`).
    static func chooseFormat(_ given: String?, path: String) throws(CommandLineError) -> (String, TagDumpFormat) {
        if let given {
            guard let found = formats.first(where: { $0.name == given || $0.format.rawValue == given }) else {
                throw .invalidValue(
                    given, for: format,
                    reason: "choose one of \(CommandLineError.quotedList(formats.map(\.name)))")
            }
            return found
        }
        if path == "-" { return ("hex", .hexText) }
        let fileName = path.split(separator: "/").last.map(String.init) ?? path
        let parts = fileName.split(separator: ".")
        let ext = parts.count > 1 ? parts.last.map { $0.lowercased() } ?? "" : ""
        switch ext {
        case "nfc": return ("flipper", .flipper)
        case "bin": return ("proxmark-bin", .proxmarkBinary)
        case "json": return ("proxmark-json", .proxmarkJSON)
        case "txt", "hex": return ("hex", .hexText)
        case "mfd", "raw", "dump": return ("raw", .raw)
        default:
            throw .usage(
                "Cannot tell the dump format from '\(fileName)': use --format "
                    + CommandLineError.quotedList(formats.map(\.name)))
        }
    }

    /// The memory and the chip's extra facts, each only where the chip has it.
    static func read(_ tag: NFCMiFareTag) async throws -> TagDump {
        let memory = try await tag.readMemory()
        let features = tag.chip?.features ?? []
        var signature: [UInt8]?
        if features.contains(.readSignature) {
            signature = try await optional { () async throws(NFCReaderError) in try await tag.readSignature() }
        }
        var counters: [UInt32]?
        if features.contains(.nfcCounter) {
            var values: [UInt32] = []
            for number in UInt8(0)...2 {
                let value = try await optional { () async throws(NFCReaderError) in
                    try await tag.readCounter(number: number)
                }
                values.append(value ?? 0)
            }
            counters = values
        }
        // PC/SC readers report no ATQA: the identified chip's is the one it answered. Readers give
        // it as received (least significant byte first); a dump holds it most significant byte
        // first, as nfc-list prints it and Flipper files since version 3 keep it ('ATQA: 00 44').
        let received = tag.targetInfo.atqa.isEmpty ? (tag.chip?.atqa ?? []) : tag.targetInfo.atqa
        return TagDump(
            memory: memory.bytes, uid: tag.targetInfo.uid, atqa: Array(received.reversed()), sak: tag.targetInfo.sak,
            version: tag.identification.version, signature: signature, counters: counters,
            chipName: tag.chip?.name, readPageCount: memory.bytes.count / Type2Page.size)
    }

    /// The answer of `body`, or nil when the tag refuses it (a NAK, a command the reader lacks);
    /// errors that end the session are thrown.
    private static func optional<T>(_ body: () async throws(NFCReaderError) -> T) async throws(NFCReaderError) -> T? {
        do {
            return try await body()
        } catch {
            if [.tagConnectionLost, .cancelled, .readerUnavailable].contains(error.code) { throw error }
            return nil
        }
    }
}
