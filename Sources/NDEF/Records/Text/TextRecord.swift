/// A text record: a string with its language (NFC Forum Text RTD 1.0, type `T`).
///
/// The payload (Text RTD 1.0, section 3.2.1) is a status byte — bit 7 set for UTF-16,
/// bit 6 reserved (RFU: written as zero, ignored when read), bits 5-0 the length of the
/// language code — then the IANA
/// language code (RFC 5646, US-ASCII) and the text. UTF-16 text may start with a byte order
/// mark; without one it is big-endian. This view writes UTF-16 big-endian without a mark.
///
/// The language stays a `String` as written on the tag (for example `"en"` or `"en-US"`).
public struct TextRecord: NDEFRecordConvertible {
    /// How the text is encoded in the payload (Text RTD 1.0, section 3.2.1, status bit 7).
    public enum Encoding: String, Sendable, Hashable, CaseIterable, Codable {
        /// UTF-8 (status bit 7 clear).
        case utf8 = "utf-8"
        /// UTF-16 (status bit 7 set).
        case utf16 = "utf-16"
    }

    /// The well-known type name, `T`.
    public static let recordType: [UInt8] = [0x54]
    /// The longest language code the status byte can describe (6 bits).
    public static let maximumLanguageLength = 63

    /// The name of this view in the registry, `"text"`.
    public static let kind = "text"

    /// The text.
    ///
    /// A parsed UTF-8 record keeps its checked payload and builds this string when it is read.
    public var text: String {
        get {
            switch storage {
            case .values(let text, _): text
            case .checkedUTF8(let payload): String(decoding: Self.fields(ofChecked: payload).text, as: UTF8.self)
            }
        }
        set { storage = .values(text: newValue, language: language) }
    }
    /// The IANA language code (RFC 5646), for example `"en"`; may be empty.
    public var language: String {
        get {
            switch storage {
            case .values(_, let language): language
            case .checkedUTF8(let payload):
                String(decoding: Self.fields(ofChecked: payload).language, as: UTF8.self)
            }
        }
        set { storage = .values(text: text, language: newValue) }
    }
    /// The encoding used on the tag.
    public var encoding: Encoding

    private enum Storage: Sendable {
        case values(text: String, language: String)
        /// The payload of a UTF-8 text record, checked by ``init(payload:)``: one reference,
        /// and no string built until one is asked for.
        case checkedUTF8(ArraySlice<UInt8>)
    }

    private var storage: Storage

    /// Creates a text record value; ``makeRecord()`` checks the language code.
    public init(text: String, language: String = "en", encoding: Encoding = .utf8) {
        self.storage = .values(text: text, language: language)
        self.encoding = encoding
    }

    /// The language code and text of a payload ``init(payload:)`` has checked (Text RTD 1.0,
    /// 3.2.1: the status byte's low six bits are the language code's length).
    private static func fields(ofChecked payload: ArraySlice<UInt8>) -> (
        language: ArraySlice<UInt8>, text: ArraySlice<UInt8>
    ) {
        let start = payload.startIndex + 1
        let textStart = start + Int(payload[payload.startIndex] & 0x3F)
        return (payload[start..<textStart], payload[textStart...])
    }

    public static func == (lhs: TextRecord, rhs: TextRecord) -> Bool {
        lhs.encoding == rhs.encoding && lhs.language == rhs.language && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text)
        hasher.combine(language)
        hasher.combine(encoding)
    }

    /// Reads TNF 1 records of type `T`.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("T")  // recordType, without loading it
    }

    /// Parses a Text RTD 1.0 payload (section 3.2.1).
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` (with the payload offset) for an empty
    ///   payload, a language code longer than the payload or not ASCII, or text that is not
    ///   valid UTF-8 / UTF-16.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(payload: record.payload)
    }

    /// Parses the payload bytes of a text record.
    init(payload: ArraySlice<UInt8>) throws(NDEFError) {
        if try Self.check(payload: payload) {
            encoding = .utf8
            storage = .checkedUTF8(payload)
        } else {
            // UTF-16 is checked by decoding it, so the string is kept.
            let (language, text) = Self.fields(ofChecked: payload)
            encoding = .utf16
            storage = .values(
                text: try Self.decodeUTF16(text, at: text.startIndex - payload.startIndex),
                language: String(decoding: language, as: UTF8.self))
        }
    }

    /// Checks the status byte and language code of a text record's payload, and its text when
    /// that is UTF-8; whether the text is UTF-8 (true) or UTF-16, to be checked by decoding it.
    ///
    /// - Throws: what ``init(payload:)`` throws for those parts.
    static func check(payload: ArraySlice<UInt8>) throws(NDEFError) -> Bool {
        guard let status = payload.first else {
            throw NDEFError(.invalidPayload, at: 0, "a text record needs at least the status byte")
        }
        // Text RTD 1.0, table 3: bit 6 is RFU; writers set it to zero, and a reader ignores it,
        // as NFC Forum specifications treat RFU bits (and as Android and ndeflib read it), so a
        // record from a later revision that uses the bit still reads.
        let languageLength = Int(status & 0x3F)
        guard languageLength <= payload.count - 1 else {
            throw NDEFError(
                .invalidPayload,
                at: 0,
                "the language code length \(languageLength) runs past the \(payload.count)-byte payload"
            )
        }
        let languageStart = payload.startIndex + 1
        let languageBytes = payload[languageStart..<(languageStart + languageLength)]
        if let bad = languageBytes.firstIndex(where: { $0 >= 0x80 }) {
            throw NDEFError(.invalidPayload, at: bad - payload.startIndex, "the language code is not ASCII")
        }
        guard status & 0x80 == 0 else { return false }
        try RecordText.checkUTF8(payload[(languageStart + languageLength)...], at: 1 + languageLength, "the text")
        return true
    }

    /// UTF-16 text honouring a byte order mark; big-endian without one (Text RTD 1.0, 3.2.1).
    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, at offset: Int) throws(NDEFError) -> String {
        let start = bytes.startIndex
        if bytes.count >= 2 {
            switch (bytes[start], bytes[start + 1]) {
            case (0xFE, 0xFF):
                return try RecordText.utf16(bytes.dropFirst(2), order: .bigEndian, at: offset + 2, "the text")
            case (0xFF, 0xFE):
                return try RecordText.utf16(bytes.dropFirst(2), order: .littleEndian, at: offset + 2, "the text")
            default:
                break
            }
        }
        return try RecordText.utf16(bytes, order: .bigEndian, at: offset, "the text")
    }

    /// Builds the record: status byte, language code, text (Text RTD 1.0, section 3.2.1).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the language code is longer than 63
    ///   bytes or is not ASCII.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        let (text, language) = (self.text, self.language)
        let languageBytes = Array(language.utf8)
        guard languageBytes.count <= Self.maximumLanguageLength else {
            throw NDEFError(
                .invalidValue,
                "the language code is \(languageBytes.count) bytes, at most \(Self.maximumLanguageLength)"
            )
        }
        guard languageBytes.allSatisfy({ $0 < 0x80 }) else {
            throw NDEFError(.invalidValue, "the language code \(language.debugDescription) is not ASCII")
        }
        var payload: [UInt8] = []
        switch encoding {
        case .utf8:
            payload.append(UInt8(languageBytes.count))
            payload += languageBytes
            payload += Array(text.utf8)
        case .utf16:
            payload.append(0x80 | UInt8(languageBytes.count))
            payload += languageBytes
            // Text starting with U+FEFF or U+FFFE gets an explicit mark, so it is not read as one.
            if let first = text.utf16.first, first == 0xFEFF || first == 0xFFFE { payload += [0xFE, 0xFF] }
            payload += RecordText.utf16BigEndianBytes(text)
        }
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }

    /// A one-line summary for people.
    public var description: String {
        let suffix = encoding == .utf16 ? ", UTF-16" : ""
        return "Text (\(language)\(suffix)): \(text.quotedForDescription)"
    }
}

extension TextRecord {
    enum CodingKeys: String, CodingKey {
        case text, language, encoding
    }

    /// Decodes `{"text": ..., "language": ..., "encoding": ...}`; the language defaults to
    /// `"en"` and the encoding to `"utf-8"`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decode(String.self, forKey: .text),
            language: try container.decodeIfPresent(String.self, forKey: .language) ?? "en",
            encoding: try container.decodeIfPresent(Encoding.self, forKey: .encoding) ?? .utf8
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(language, forKey: .language)
        try container.encode(encoding, forKey: .encoding)
    }
}
