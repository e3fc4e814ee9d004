import HexText

/// A record whose type is a media type (NFC Forum NDEF 1.0, section 3.2.6, TNF 2; RFC 2046).
///
/// This is the generic view for every media type that no more specific view reads; the
/// payload is kept as bytes. When the type is textual (`text/*`, `application/json`, or a
/// `+json` or `+xml` suffix; compared without regard to case) and the payload is valid
/// UTF-8, ``text`` gives it as a string.
public struct MediaRecord: NDEFRecordConvertible {
    /// The name of this view in the registry, `"media"`.
    public static let kind = "media"

    /// The media type, for example `text/plain` or `image/png`, as written in the TYPE field.
    public var mediaType: String {
        get { fields.type }
        set { fields.type = newValue }
    }
    /// The payload; a parsed record's payload shares storage with the record (no copy).
    public var data: ArraySlice<UInt8> {
        get { fields.data }
        set { fields.data = newValue }
    }
    private var fields: TypeNamedPayload

    /// Creates a media record value; ``makeRecord()`` checks the media type.
    public init(mediaType: String, data: ArraySlice<UInt8>) {
        fields = TypeNamedPayload(type: mediaType, data: data)
    }

    /// Creates a media record value from a byte array.
    public init(mediaType: String, data: [UInt8]) {
        self.init(mediaType: mediaType, data: data[...])
    }

    /// Creates a media record value whose payload is the UTF-8 of `text`.
    public init(mediaType: String, text: String) {
        self.init(mediaType: mediaType, data: Array(text.utf8)[...])
    }

    /// Whether the media type is one whose payload is text: `text/*`, `application/json`,
    /// or a `+json` or `+xml` structured syntax suffix (RFC 6839), in any case.
    public var isTextual: Bool {
        Self.isTextual(mediaType)
    }

    /// The payload as a string, when the type is textual and the payload is valid UTF-8.
    public var text: String? {
        guard isTextual, RecordText.isValidUTF8(data) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads every record of TNF 2 (media type) that no more specific view reads.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .media
    }

    /// Reads a media record.
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` when the TYPE field is not a media type
    ///   (printable ASCII `type/subtype`, optionally with parameters).
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(checking: record)
    }

    /// Reads a media record, keeping it (moved in by ``NFCNDEFPayload/view(options:)``).
    init(checking record: consuming NFCNDEFPayload) throws(NDEFError) {
        fields = try TypeNamedPayload(checking: record, as: .media, name: "a media type", shape: "type/subtype")
    }

    /// Builds the record with the media type as its TYPE field.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the media type is not printable ASCII
    ///   `type/subtype` (optionally with parameters) of at most 255 bytes.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        try fields.makeRecord(as: .media, name: "media type")
    }

    /// A one-line summary for people.
    public var description: String {
        if let text { return "Media \(mediaType): \(text.quotedForDescription)" }
        return "Media \(mediaType) (\(RecordText.byteCount(data.count)))"
    }

    /// Whether `type` is a media type as NDEF carries it (RFC 2046): at most 255 bytes of
    /// printable ASCII, a non-empty type and subtype separated by one `/` and without spaces,
    /// optionally followed by `;` and parameters.
    static func isValidMediaType(_ type: some Collection<UInt8>) -> Bool {
        TypeNamedPayload.isValid(type, as: .media)
    }

    /// Whether a media type names text (see ``isTextual``).
    static func isTextual(_ mediaType: String) -> Bool {
        let essence = RecordText.asciiLowercased(mediaType.prefix { $0 != ";" })
        return essence.hasPrefix("text/") || essence == "application/json" || essence.hasSuffix("+json")
            || essence.hasSuffix("+xml")
    }
}

/// The JSON `value` of a media record: `{"mediaType": "text/plain", "dataHex": "6869",
/// "text": "hi"}`; `text` is present when ``MediaRecord/text`` is. When decoding, the payload
/// comes from `dataHex`, or else from `text`.
extension MediaRecord {
    enum CodingKeys: String, CodingKey {
        case mediaType, dataHex, text
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let mediaType = try container.decode(String.self, forKey: .mediaType)
        if let data = try container.decodeHexIfPresent(forKey: .dataHex) {
            self.init(mediaType: mediaType, data: data)
        } else {
            self.init(mediaType: mediaType, text: try container.decode(String.self, forKey: .text))
        }
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encode(Hex.encode(data), forKey: .dataHex)
        if let text { try container.encode(text, forKey: .text) }
    }
}
