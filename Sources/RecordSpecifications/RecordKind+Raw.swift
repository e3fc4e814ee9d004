import CommandLineKit
import NDEF

extension RecordKind {
    /// `raw --tnf <n> ...`: a record given field by field (NFC Forum NDEF 1.0, section 3.2).
    package static let raw: RecordKind = RecordKind(
        name: "raw",
        abstract: "A record given field by field.",
        values: [],
        options: [
            .option("tnf", value: "n", help: "The type name format, 0-5 (NDEF 1.0, 3.2.6)."),
            .option("type", value: "type", help: "The type, as UTF-8 text."),
            .option("type-hex", value: "hex", help: "The type, as hex."),
            .option("payload", value: "text", help: "The payload, as UTF-8 text."),
            .option("payload-hex", value: "hex", help: "The payload, as hex."),
            .option("payload-file", value: "path", help: "Read the payload from <path> (- for standard input)."),
            .flag(
                "allow-invalid-type",
                help: "Write a type that breaks the syntax of its TNF (NDEF 1.0, 3.2.6) as it is; 'encode' only."),
        ],
        choices: [
            Choice(members: [.option("tnf")], isRequired: true),
            Choice(members: [.option("type"), .option("type-hex")], isRequired: false),
            Choice(members: [.option("payload"), .option("payload-hex"), .option("payload-file")], isRequired: false),
        ]
    ) { spec, inputs throws(RecordSpecError) in
        let kind = RecordKind.raw
        let tnfOption = kind.option("tnf") ?? .option("tnf", value: "n", help: "")
        let tnfText = spec.option("tnf") ?? ""
        guard let number = UInt8(tnfText), let format = NFCTypeNameFormat(rawValue: number) else {
            throw .invalidValue(tnfText, for: tnfOption, reason: "expected a type name format from 0 to 5")
        }
        guard format != .unchanged && format != .reserved else {
            throw .invalidValue(
                tnfText,
                for: tnfOption,
                reason: "TNF 6 (unchanged) only marks chunks, which --chunk-size makes, and TNF 7 is reserved"
            )
        }
        var type: [UInt8] = []
        if let text = spec.option("type") { type = Array(text.utf8) }
        if let text = spec.option("type-hex"), let option = kind.option("type-hex") {
            type = try RecordData.hex(text, for: option)
        }
        var payload: [UInt8] = []
        if let text = spec.option("payload") { payload = Array(text.utf8) }
        if let text = spec.option("payload-hex"), let option = kind.option("payload-hex") {
            payload = try RecordData.hex(text, for: option)
        }
        if let path = spec.option("payload-file") {
            payload = try inputs.read(path, for: "--payload-file of \(spec.label)")
        }
        try RecordData.checkLengths(type: type, payload: payload, of: spec)
        switch format {
        case .empty:
            if !type.isEmpty || !payload.isEmpty || spec.option("id") != nil || spec.option("id-hex") != nil {
                throw .usage("Invalid \(spec.label): an empty record (TNF 0) has no type, ID or payload")
            }
        case .unknown:
            if !type.isEmpty { throw .usage("Invalid \(spec.label): an unknown record (TNF 5) has no type") }
        default:
            if type.isEmpty {
                throw .usage("Invalid \(spec.label): a record of TNF \(number) needs --type or --type-hex")
            }
        }
        if !spec.flag("allow-invalid-type"), let problem = NDEFTypeSyntax.problem(format, type) {
            throw .usage(
                "Invalid \(spec.label): the type of a TNF \(number) record \(problem). Give --allow-invalid-type to "
                    + "write it anyway (NDEF 1.0, 3.2.6)")
        }
        return [NFCNDEFPayload(format: format, type: type[...], identifier: [], payload: payload[...])]
    }

    /// `message <file> [--hex]`: every record of an encoded NDEF message.
    package static let message: RecordKind = RecordKind(
        name: "message",
        abstract: "Every record of the NDEF message in <file> (- for standard input).",
        values: [Value(name: "file", presence: .required)],
        options: [.flag("hex", help: "Read <file> as hex text (# starts a comment).")],
        choices: []
    ) { spec, inputs throws(RecordSpecError) in
        let path = spec.value("file") ?? "-"
        let bytes = try inputs.read(path, for: spec.label)
        return try RecordData.message(bytes, hex: spec.flag("hex"), source: inputName(path)).records
    }
}
