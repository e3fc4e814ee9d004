import CommandLineKit
import NDEF

extension RecordKind {
    /// The built-in kinds, in help order.
    package static let standard: [RecordKind] = [
        text.alsoNamed("txt"), uri, mime, absolute, external, aar, wifi, smartPoster.alsoNamed("smp"), raw, message,
    ]

    /// `--file <path>`: data read from a file, shared by the kinds that carry data.
    package static let dataFile = OptionSpec.option(
        "file", value: "path", help: "Read the data from <path> (- for standard input).")
    /// `--hex <hex>`: data given as hex, shared by the kinds that carry data.
    package static let dataHex = OptionSpec.option("data-hex", value: "hex", help: "The data, as hex.").aliased("hex")

    /// `text <text>`: NFC Forum Text RTD 1.0.
    package static let text: RecordKind = RecordKind(
        name: "text",
        abstract: "A text record (NFC Forum Text RTD).",
        values: [Value(name: "text", presence: .required)],
        options: [
            .option(
                "lang", short: "l", value: "code", default: "en",
                help: "The language of the text, an IETF language tag."
            )
            .alsoNamed("language"),
            .flag("utf16", help: "Store the text as UTF-16 instead of UTF-8."),
        ],
        choices: []
    ) { spec, _ throws(RecordSpecError) in
        let language = spec.option("lang") ?? "en"
        guard LanguageTag.isWellFormed(language) else {
            throw .invalidValue(
                language, for: "--lang",
                reason: "a language tag (RFC 5646) of 1 to 63 characters: subtags of letters and digits joined by "
                    + "'-', such as en, de-DE or zh-Hant-TW (NFC Forum Text RTD 1.0, 3.2.1)")
        }
        let value: [String: TypedRecordJSON.Value] = [
            "text": .string(spec.value("text") ?? ""),
            "language": .string(language),
            "encoding": .string(spec.flag("utf16") ? "utf-16" : "utf-8"),
        ]
        return [try TypedRecordJSON.record(format: .nfcWellKnown, type: "T", value: value, for: spec)]
    }

    /// `uri <uri>`: NFC Forum URI RTD 1.0.
    package static let uri: RecordKind = RecordKind(
        name: "uri",
        abstract: "A URI record (NFC Forum URI RTD).",
        values: [Value(name: "uri", presence: .required)],
        options: [],
        choices: []
    ) { spec, _ throws(RecordSpecError) in
        let uri = spec.value("uri") ?? ""
        guard !uri.isEmpty else {
            throw .invalidValue(uri, for: "<uri>", reason: "a URI record holds a URI: it cannot be empty")
        }
        let value: [String: TypedRecordJSON.Value] = ["uri": .string(uri)]
        return [try TypedRecordJSON.record(format: .nfcWellKnown, type: "U", value: value, for: spec)]
    }

    /// `mime <type> (<data> | --file <path> | --hex <hex>)`: a media-type record (TNF 2).
    package static let mime: RecordKind = RecordKind(
        name: "mime",
        abstract: "A media-type record (TNF 2, RFC 2046 type).",
        values: [Value(name: "type", presence: .required), Value(name: "data", presence: .optional)],
        options: [dataFile, dataHex],
        choices: [Choice(members: [.value("data"), .option("file"), .option("data-hex")], isRequired: true)]
    ) { spec, inputs throws(RecordSpecError) in
        let type = spec.value("type") ?? ""
        guard isMediaType(type) else {
            throw .invalidValue(
                type, for: "<type>", reason: "a media type is written type/subtype, for example text/plain")
        }
        let kind = RecordKind.mime
        let payload = try RecordData.data(of: spec, kind: kind, inputs: inputs) ?? []
        try RecordData.checkLengths(type: Array(type.utf8), payload: payload, of: spec)
        let record = NFCNDEFPayload(format: .media, type: type, payload: payload)
        try RecordData.checkReadable(record, of: spec)
        return [record]
    }

    /// `absolute <uri>`: a record whose type is an absolute URI (TNF 3), with an empty payload.
    package static let absolute: RecordKind = RecordKind(
        name: "absolute",
        abstract: "An absolute-URI record (TNF 3) with an empty payload.",
        values: [Value(name: "uri", presence: .required)],
        options: [],
        choices: []
    ) { spec, _ throws(RecordSpecError) in
        let uri = spec.value("uri") ?? ""
        guard !uri.isEmpty, !uri.contains(" ") else {
            throw .invalidValue(uri, for: "<uri>", reason: "an absolute URI is not empty and has no spaces")
        }
        try RecordData.checkLengths(type: Array(uri.utf8), payload: [], of: spec)
        let record = NFCNDEFPayload(format: .absoluteURI, type: uri, payload: [])
        try RecordData.checkReadable(record, of: spec)
        return [record]
    }

    /// `external <domain:type> [<data> | --file <path> | --hex <hex>]`: NFC Forum RTD 1.0 external type (TNF 4).
    package static let external: RecordKind = RecordKind(
        name: "external",
        abstract: "An NFC Forum external type record (TNF 4).",
        values: [Value(name: "domain:type", presence: .required), Value(name: "data", presence: .optionalUnlessKind)],
        options: [dataFile, dataHex],
        choices: [Choice(members: [.value("data"), .option("file"), .option("data-hex")], isRequired: false)]
    ) { spec, inputs throws(RecordSpecError) in
        let type = spec.value("domain:type") ?? ""
        let parts = type.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }), !type.contains(" ") else {
            throw .invalidValue(
                type, for: "<domain:type>",
                reason: "an external type is written domain:type, for example example.com:mytype")
        }
        let payload = try RecordData.data(of: spec, kind: RecordKind.external, inputs: inputs) ?? []
        try RecordData.checkLengths(type: Array(type.utf8), payload: payload, of: spec)
        let record = NFCNDEFPayload(format: .nfcExternal, type: type, payload: payload)
        try RecordData.checkReadable(record, of: spec)
        return [record]
    }

    /// `aar <package>`: an Android Application Record (external type `android.com:pkg`).
    package static let aar: RecordKind = RecordKind(
        name: "aar",
        abstract: "An Android Application Record (android.com:pkg).",
        values: [Value(name: "package", presence: .required)],
        options: [],
        choices: []
    ) { spec, _ throws(RecordSpecError) in
        let value: [String: TypedRecordJSON.Value] = ["package": .string(spec.value("package") ?? "")]
        return [try TypedRecordJSON.record(format: .nfcExternal, type: "android.com:pkg", value: value, for: spec)]
    }

    /// Whether `text` looks like `type/subtype` (RFC 2046): printable ASCII without spaces, one slash inside.
    package static func isMediaType(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > 0, slash < bytes.count - 1 else {
            return false
        }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

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
        options: [.flag("hex-input", help: "Read <file> as hex text (# starts a comment).").aliased("hex")],
        choices: []
    ) { spec, inputs throws(RecordSpecError) in
        let path = spec.value("file") ?? "-"
        let bytes = try inputs.read(path, for: spec.label)
        return try RecordData.message(bytes, hex: spec.flag("hex-input"), source: inputName(path)).records
    }
}
