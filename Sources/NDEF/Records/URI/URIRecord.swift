/// A URI record (NFC Forum URI RTD 1.0, type `U`).
///
/// The payload (URI RTD 1.0, section 3.2) is an identifier code that abbreviates a common
/// prefix (table 3, codes 0x00-0x23), then the rest of the URI in UTF-8; IRIs (RFC 3987)
/// are allowed. Codes 0x24 and above are reserved (RFU) and read as "no prefix": the code
/// byte is dropped and the rest is the URI (section 3.2.2: RFU values are treated as 0x00).
/// A URI holds no control characters (RFC 3986 and 3987). The builder abbreviates with the
/// longest prefix that matches.
public struct URIRecord: NDEFRecordConvertible {
    /// The well-known type name, `U`.
    public static let recordType: [UInt8] = [0x55]

    /// The URI identifier codes 0x00-0x23 and the prefixes they stand for (URI RTD 1.0, table 3).
    public static let prefixes: [String] = [
        "",  // 0x00: no prefix
        "http://www.",
        "https://www.",
        "http://",
        "https://",
        "tel:",
        "mailto:",
        "ftp://anonymous:anonymous@",
        "ftp://ftp.",
        "ftps://",
        "sftp://",  // 0x0A
        "smb://",
        "nfs://",
        "ftp://",
        "dav://",
        "news:",
        "telnet://",  // 0x10
        "imap:",
        "rtsp://",
        "urn:",
        "pop:",
        "sip:",
        "sips:",
        "tftp:",
        "btspp://",
        "btl2cap://",
        "btgoep://",  // 0x1A
        "tcpobex://",
        "irdaobex://",
        "file://",
        "urn:epc:id:",
        "urn:epc:tag:",
        "urn:epc:pat:",  // 0x20
        "urn:epc:raw:",
        "urn:epc:",
        "urn:nfc:",  // 0x23
    ]

    /// The name of this view in the registry, `"uri"`.
    public static let kind = "uri"

    /// The full URI (or IRI), prefix expanded.
    ///
    /// A parsed record keeps its checked payload and builds this string when it is read.
    public var uri: String {
        get {
            switch storage {
            case .uri(let uri): uri
            case .payload(let payload):
                Self.joined(Self.prefix(forCode: payload[payload.startIndex]) ?? "", payload.dropFirst())
            }
        }
        set { storage = .uri(newValue) }
    }

    private enum Storage: Sendable {
        case uri(String)
        /// A payload of at least one byte whose URI field has been checked.
        case payload(ArraySlice<UInt8>)
    }

    private var storage: Storage

    /// Creates a URI record value.
    public init(uri: String) {
        storage = .uri(uri)
    }

    public static func == (lhs: URIRecord, rhs: URIRecord) -> Bool {
        lhs.uri == rhs.uri
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
    }

    /// The prefix that `code` stands for, or `nil` for a reserved code (0x24 and above).
    public static func prefix(forCode code: UInt8) -> String? {
        let index = Int(code)
        return index < prefixes.count ? prefixes[index] : nil
    }

    /// The identifier code the builder uses: the longest prefix in table 3 that `uri` starts with.
    public var prefixCode: UInt8 {
        Self.abbreviation(for: uri).code
    }

    /// The code of the longest matching prefix and the length of that prefix in bytes.
    static func abbreviation(for uri: String) -> (code: UInt8, length: Int) {
        let bytes = uri.utf8
        var best: (code: UInt8, length: Int) = (0, 0)
        for (index, prefix) in prefixes.enumerated() where prefix.utf8.count > best.length {
            if bytes.starts(with: prefix.utf8) {
                best = (UInt8(truncatingIfNeeded: index), prefix.utf8.count)
            }
        }
        return best
    }

    /// Reads TNF 1 records of type `U`.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("U")  // recordType, without loading it
    }

    /// Parses a URI RTD 1.0 payload (section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` for an empty payload (no identifier code),
    ///   a URI field that is not valid UTF-8, or one holding a control character (with the
    ///   offset of the first bad byte).
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(payload: record.payload)
    }

    /// Parses the payload bytes of a URI record: one pass over the URI field to check it;
    /// the string is built when ``uri`` is read.
    init(payload: ArraySlice<UInt8>) throws(NDEFError) {
        try Self.check(payload: payload)
        storage = .payload(payload)
    }

    /// Throws what ``init(payload:)`` throws for `payload`, without making the value.
    static func check(payload: ArraySlice<UInt8>) throws(NDEFError) {
        guard !payload.isEmpty else {
            throw NDEFError(.invalidPayload, at: 0, "a URI record needs at least the identifier code")
        }
        // The field is checked in place: no slice of it is made unless it is wrong.
        let check = payload.withUnsafeBufferPointer { Self.scan(UnsafeBufferPointer(rebasing: $0.dropFirst())) }
        if !check.isASCII {
            try RecordText.checkUTF8(payload.dropFirst(), at: 1, "the URI field")
        }
        if let bad = check.firstControl {
            throw NDEFError(.invalidPayload, at: 1 + bad, "the URI field holds a control character")
        }
    }

    /// Whether `field` is all ASCII, and the offset of its first control character.
    private static func scan(_ field: UnsafeBufferPointer<UInt8>) -> (isASCII: Bool, firstControl: Int?) {
        var union: UInt8 = 0
        var controls = false
        for byte in field {
            union |= byte
            controls = controls || isControl(byte)
        }
        return (union < 0x80, controls ? field.firstIndex(where: isControl) : nil)
    }

    /// `prefix` followed by `field` (valid UTF-8), built in one allocation.
    private static func joined(_ prefix: String, _ field: ArraySlice<UInt8>) -> String {
        var prefix = prefix
        let count = prefix.utf8.count + field.count
        return prefix.withUTF8 { prefix in
            field.withUnsafeBufferPointer { field in
                String(unsafeUninitializedCapacity: count) { buffer in
                    let afterPrefix = buffer.initialize(fromContentsOf: prefix)
                    let end = buffer[afterPrefix...].initialize(fromContentsOf: field)
                    return end
                }
            }
        }
    }

    /// Whether `byte` is a control character (U+0000-U+001F or U+007F), which no URI or IRI may
    /// hold (RFC 3986, section 2; RFC 3987, section 2.2). In UTF-8 these bytes only stand for
    /// themselves, so checking bytes finds every one.
    static func isControl(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F
    }

    /// Builds the record, abbreviating the longest matching prefix (URI RTD 1.0, section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the URI holds a control character.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        guard !uri.utf8.contains(where: Self.isControl) else {
            throw NDEFError(.invalidValue, "the URI \(uri.debugDescription) holds a control character")
        }
        let (code, length) = Self.abbreviation(for: uri)
        var payload: [UInt8] = [code]
        payload += uri.utf8.dropFirst(length)
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }

    /// A one-line summary for people.
    public var description: String {
        "URI: \(uri)"
    }
}

/// The JSON `value` of a URI record: `{"uri": "https://example.com"}`.
extension URIRecord {
    enum CodingKeys: String, CodingKey {
        case uri
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(uri: try container.decode(String.self, forKey: .uri))
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
    }
}
