import HexText

/// What `print(record)` and `print(message)` show a person: each record through its typed view
/// (`URI "https://example.com"`, `Text (en): "Hello"`), else its format, type and size; and for
/// `debugPrint` the fields as bytes.
extension NFCNDEFPayload: CustomStringConvertible, CustomDebugStringConvertible {
    /// The record in one line: its typed view's summary (``NDEFRecordConvertible``) when a
    /// built-in view reads it, else `media "image/png", 1024-byte payload`; a payload its view
    /// cannot read says so.
    public var description: String {
        do {
            if let view = try view() { return view.value.description }
        } catch {
            return "\(Self.name(of: typeNameFormat)) \(typeText) (malformed payload: \(error.reason))"
        }
        var text = Self.name(of: typeNameFormat)
        if !type.isEmpty { text += " " + typeText }
        return text + ", \(payload.count)-byte payload"
    }

    /// The fields: TNF, TYPE, ID and payload in hex, and the chunk sizes when it was chunked.
    public var debugDescription: String {
        var text = "NFCNDEFPayload(tnf: \(typeNameFormat.rawValue), type: \(Hex.encode(type))"
        if !identifier.isEmpty { text += ", id: \(Hex.encode(identifier))" }
        text += ", payload: \(Hex.encode(payload))"
        if let chunkSizes { text += ", chunks: \(chunkSizes)" }
        return text + ")"
    }

    /// The TYPE as quoted text when it is printable ASCII, else as hex.
    private var typeText: String {
        printableASCII(type).map { "\"\($0)\"" } ?? Hex.encode(type)
    }

    /// `well-known`, `media`, `absolute URI`, `external`, `unknown`, ... (NDEF 1.0, 3.2.6).
    private static func name(of format: NFCTypeNameFormat) -> String {
        switch format {
        case .empty: "empty record"
        case .nfcWellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute URI"
        case .nfcExternal: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved TNF 7"
        }
    }
}

extension NFCNDEFMessage: CustomStringConvertible, CustomDebugStringConvertible {
    /// The records, one line each after a count: `NDEF message, 2 records:` then
    /// `  1. URI "https://example.com"`.
    public var description: String {
        let count = records.count == 1 ? "1 record" : "\(records.count) records"
        return (["NDEF message, \(count):"] + records.enumerated().map { "  \($0.offset + 1). \($0.element)" })
            .joined(separator: "\n")
    }

    /// Each record's ``NFCNDEFPayload/debugDescription``.
    public var debugDescription: String {
        "NFCNDEFMessage([" + records.map(\.debugDescription).joined(separator: ", ") + "])"
    }
}
