import CommandLineKit
import NDEF
import TagInspection
import TagMemory

/// `ndeftool inspect`: reads a tag dump and prints the tag's memory map and NDEF message.
enum InspectCommand {
    /// The chips `--chip` names, by the word typed.
    static let chips: [(name: String, chip: Type2Chip)] = [
        ("ntag210", .ntag210), ("ntag212", .ntag212), ("ntag213", .ntag213), ("ntag215", .ntag215),
        ("ntag216", .ntag216), ("ultralight", .mifareUltralight), ("ultralight-c", .mifareUltralightC),
        ("mf0ul11", .mifareUltralightEV1MF0UL11), ("mf0ul21", .mifareUltralightEV1MF0UL21),
    ]

    static let format = OptionSpec.option(
        "format",
        value: "format",
        values: TagDumpFormat.allCases.map(\.rawValue) + extraFormatNames,
        help: "Read the dump as <format> instead of detecting it."
    )

    /// The names `ndeftool dump` gives formats that are not their raw values (`proxmark-bin`).
    static let extraFormatNames = DumpCommand.formats.map(\.name).filter { TagDumpFormat(rawValue: $0) == nil }

    /// The format a `--format` value names: its raw value, or the name `ndeftool dump` gives it.
    static func dumpFormat(named name: String) -> TagDumpFormat? {
        TagDumpFormat(rawValue: name) ?? DumpCommand.formats.first { $0.name == name }?.format
    }
    static let chip = OptionSpec.option(
        "chip",
        value: "name",
        values: chips.map(\.name),
        help: "Read the memory as this chip's, whatever the dump says."
    )
    static let json = OptionSpec.flag("json", help: "Print the findings as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Show the memory map and NDEF message of a tag dump.",
        discussion: """
            Reads a dump of an NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight) in any \
            format ndeftool knows, detected from its content: a raw image (libnfc .mfd), \
            hex text (one page per line, # comments), a Flipper Zero .nfc file, a proxmark3 \
            .bin or .json dump.

            Prints the chip and how it was identified (GET_VERSION in the dump, else the \
            chip name in the file, else the page count), the UID and its check bytes, the \
            capability container, the static and dynamic lock bits and the pages they lock, \
            every TLV with its byte and page addresses, the memory map, the password \
            configuration (AUTH0, PROT, CFGLCK, AUTHLIM, NFC counter), the originality \
            signature and counters when the dump has them, the NDEF status and capacity, \
            and the message, described as 'ndeftool decode' does. PWD and PACK are never \
            shown: only whether the dump records them and whether they differ from the \
            factory values. With -v the text ends with every page (MIFARE Classic: block) \
            as hex, the PWD, PACK and key bytes shown as **.

            What the tag holds does not change the exit status: a blank, locked or damaged \
            tag is reported with status 0 (see 'status' and 'problem' in the JSON). A \
            MIFARE Classic image (Mini, 1K, 4K) is read through its MIFARE Application \
            Directory: the NDEF sectors, the TLVs in them and the message. Exit status 65 \
            means the file is not a readable dump; the message names the line or byte.

            Examples:
              ndeftool inspect tag.nfc
              ndeftool inspect --json hf-mfu-dump.json
              ndeftool inspect --format raw --chip ntag213 dump.bin
              ndeftool inspect - < pages.txt
              ndeftool inspect -v tag.nfc
            """,
        arguments: [
            ArgumentSpec("file", help: "The dump, - for standard input.", optional: true, default: "-")
        ],
        options: [format, chip, json, SignatureKeyOptions.signatureKey],
        groups: [
            MessageOptions.group(
                verbose: "Also print every page (or block) as hex, PWD, PACK and keys as ** (text output).")
        ],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let path = values.argument("file") ?? "-"
        let source = InputReader.name(of: path)
        let inputs = InputReader(io: invocation.io)
        // A dump is a file: a FIFO or a device would never end (or never start).
        let bytes = try inputs.bytes(of: path, for: "<file>")
        let forcedFormat = values.value(format.long).flatMap(dumpFormat(named:))
        let forcedChip = values.value(chip.long).flatMap { name in chips.first { $0.name == name }?.chip }
        var format: TagDumpFormat? = forcedFormat
        let dump: TagDump
        do {
            let chosen: TagDumpFormat
            if let forcedFormat { chosen = forcedFormat } else { chosen = try detect(bytes, path: path) }
            format = chosen
            dump = try TagDump(decoding: bytes, format: chosen)
        } catch {
            throw CommandLineError(.dataError, ErrorText.malformed(error, in: source, reading: format))
        }
        var report = TagInspectionReport(dump: dump, format: format ?? .raw, chip: forcedChip)
        if let signature = dump.signature, let uid = dump.uid, dump.layout == .type2 {
            report.originality.check = try SignatureKeyOptions.check(
                signature, uid: uid, keys: try SignatureKeyOptions.keys(values))
        }
        if values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
        } else {
            var text = report.text
            if let map = report.pageMap {
                text += Style(io: invocation.io, stream: .output).pageMap(map).joined(separator: "\n") + "\n"
            } else if MessageOptions.level(values).isVerbose {
                let lines = InspectMemoryLines.lines(
                    dump, chip: report.chip?.chip, unitCount: report.dump.usedUnitCount)
                text += lines.joined(separator: "\n") + "\n"
            }
            try invocation.io.writeOutput(text)
        }
        return .success
    }

    /// The format of `bytes`, by content (``TagDump/detect(_:fileName:)``).
    private static func detect(_ bytes: [UInt8], path: String) throws(TagMemoryError) -> TagDumpFormat {
        try TagDump.detect(bytes, fileName: path == "-" ? nil : path)
    }
}
