import HexText

/// A record of an NFC Forum external type (NFC Forum RTD 1.0, section 3.2.2 and NDEF 1.0,
/// section 3.2.6, TNF 4): a `domain:type` name chosen by an organisation that owns the domain.
///
/// External type names are compared without regard to case (RTD 1.0, section 3.2.2); this
/// view keeps the name as written. The payload is kept as bytes; ``text`` gives it as a
/// string when it is readable UTF-8.
public struct ExternalRecord: NDEFRecordConvertible {
    /// The name of this view in the registry, `"external"`.
    public static let kind = "external"

    /// The external type name, `domain:type` (for example `example.com:thing`).
    public var type: String {
        get { fields.type }
        set { fields.type = newValue }
    }
    /// The payload; a parsed record's payload shares storage with the record (no copy).
    public var data: ArraySlice<UInt8> {
        get { fields.data }
        set { fields.data = newValue }
    }
    private var fields: TypeNamedPayload

    /// Creates an external record value; ``makeRecord()`` checks the name.
    public init(type: String, data: ArraySlice<UInt8>) {
        fields = TypeNamedPayload(type: type, data: data)
    }

    /// Creates an external record value from a byte array.
    public init(type: String, data: [UInt8] = []) {
        self.init(type: type, data: data[...])
    }

    /// The domain part of the name (before the first `:`).
    public var domain: Substring {
        type.prefix { $0 != ":" }
    }

    /// The payload as a string, when it is valid UTF-8 without control characters (other
    /// than tab, line feed and carriage return) and not empty.
    public var text: String? {
        guard !data.isEmpty, RecordText.isReadable(data) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether `type` names the same external type as `other`, ignoring ASCII case.
    public static func sameName(_ type: some Collection<UInt8>, _ other: String) -> Bool {
        RecordText.equalsIgnoringASCIICase(type, other)
    }

    /// Reads every record of TNF 4 (external type) that no more specific view reads.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcExternal
    }

    /// Reads an external-type record.
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` when the TYPE field is not a `domain:type`
    ///   name of printable ASCII.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(checking: record)
    }

    /// Reads an external record, keeping it (moved in by ``NFCNDEFPayload/view(options:)``).
    init(checking record: consuming NFCNDEFPayload) throws(NDEFError) {
        fields = try TypeNamedPayload(
            checking: record, as: .nfcExternal, name: "an external type name", shape: "domain:type")
    }

    /// Builds the record with the name as its TYPE field.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the name is not `domain:type` with both
    ///   parts non-empty, in printable ASCII without spaces, of at most 255 bytes.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        try fields.makeRecord(as: .nfcExternal, name: "external type name")
    }

    /// A one-line summary for people.
    public var description: String {
        if let text { return "External \(type): \(text.quotedForDescription)" }
        return "External \(type) (\(RecordText.byteCount(data.count)))"
    }
}

/// The JSON `value` of an external record: `{"type": "example.com:t", "dataHex": "6869",
/// "text": "hi"}`; `text` is present when ``ExternalRecord/text`` is. When decoding, the
/// payload comes from `dataHex`, or else from `text`, or else is empty.
extension ExternalRecord {
    enum CodingKeys: String, CodingKey {
        case type, dataHex, text
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        if let data = try container.decodeHexIfPresent(forKey: .dataHex) {
            self.init(type: type, data: data)
        } else {
            let text = try container.decodeIfPresent(String.self, forKey: .text) ?? ""
            self.init(type: type, data: Array(text.utf8))
        }
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(Hex.encode(data), forKey: .dataHex)
        if let text { try container.encode(text, forKey: .text) }
    }
}
