import HexText

/// A record whose TYPE field is an absolute URI (NFC Forum NDEF 1.0, section 3.2.6, TNF 3;
/// RFC 3986).
///
/// The URI names the kind of payload (it does not point at it); the payload is kept as bytes.
public struct AbsoluteURIRecord: NDEFRecordConvertible {
    /// The name of this view in the registry, `"absolute-uri"`.
    public static let kind = "absolute-uri"

    /// The URI in the TYPE field.
    public var uri: String {
        get { fields.type }
        set { fields.type = newValue }
    }
    /// The payload; a parsed record's payload shares storage with the record (no copy).
    public var data: ArraySlice<UInt8> {
        get { fields.data }
        set { fields.data = newValue }
    }
    private var fields: TypeNamedPayload

    /// Creates an absolute-URI record value; ``makeRecord()`` checks the URI.
    public init(uri: String, data: ArraySlice<UInt8>) {
        fields = TypeNamedPayload(type: uri, data: data)
    }

    /// Creates an absolute-URI record value from a byte array.
    public init(uri: String, data: [UInt8] = []) {
        self.init(uri: uri, data: data[...])
    }

    /// Reads every record of TNF 3 (absolute URI).
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .absoluteURI
    }

    /// Reads an absolute-URI record.
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` when the TYPE field is empty or not valid UTF-8.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(checking: record)
    }

    /// Reads an absolute-URI record, keeping it (moved in by ``NFCNDEFPayload/view(options:)``).
    init(checking record: consuming NFCNDEFPayload) throws(NDEFError) {
        // A record the decoder found valid has an absolute URI in US-ASCII, so valid UTF-8.
        guard record.typeIsChecked || !record.type.isEmpty && RecordText.isValidUTF8(record.type) else {
            throw NDEFError(.invalidPayload, "the TYPE field of an absolute-URI record is not a URI in UTF-8")
        }
        fields = TypeNamedPayload(checked: record)
    }

    /// Builds the record with the URI as its TYPE field.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the URI is empty, longer than 255 bytes, or
    ///   not an RFC 3986 absolute URI in US-ASCII (``NDEFTypeSyntax``: percent-encode the rest).
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        let type = Array(uri.utf8)[...]
        guard !type.isEmpty, type.count <= 255 else {
            throw NDEFError(.invalidValue, "the URI of an absolute-URI record must be 1-255 bytes, not \(type.count)")
        }
        if let problem = NDEFTypeSyntax.problem(.absoluteURI, type) {
            throw NDEFError(.invalidValue, "the absolute URI \(uri.debugDescription) \(problem)")
        }
        return NFCNDEFPayload(format: .absoluteURI, type: type, payload: data)
    }

    /// A one-line summary for people.
    public var description: String {
        "Absolute URI \(uri) (\(RecordText.byteCount(data.count)))"
    }
}

/// The JSON `value` of an absolute-URI record: `{"uri": "https://example.com/t", "dataHex": "0102"}`.
extension AbsoluteURIRecord {
    enum CodingKeys: String, CodingKey {
        case uri, dataHex
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uri: try container.decode(String.self, forKey: .uri),
            data: try container.decodeHexIfPresent(forKey: .dataHex) ?? []
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
        try container.encode(Hex.encode(data), forKey: .dataHex)
    }
}
