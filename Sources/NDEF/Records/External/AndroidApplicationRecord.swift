/// An Android Application Record (AAR): the external type `android.com:pkg` (NFC Forum RTD
/// 1.0, section 3.2.2, TNF 4) whose payload is an Android package name in UTF-8.
///
/// Android starts (or offers to install) the named application when it reads a tag with
/// this record. The type name is matched without regard to case, as external names are.
public struct AndroidApplicationRecord: NDEFRecordConvertible {
    /// The external type name, `android.com:pkg`.
    public static let recordType = "android.com:pkg"

    /// The name of this view in the registry, `"aar"`.
    public static let kind = "aar"

    /// The application's package name, for example `com.example.app`.
    ///
    /// A parsed record keeps its checked payload and builds this string when it is read.
    public var package: String {
        get { packageField.string }
        set { packageField = RecordString(newValue) }
    }
    private var packageField: RecordString

    /// Creates an AAR value; ``makeRecord()`` checks the package name.
    public init(package: String) {
        self.packageField = RecordString(package)
    }

    /// Reads TNF 4 records named `android.com:pkg` in any case.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcExternal && type.equalsIgnoringASCIICase("android.com:pkg")  // recordType, as a literal
    }

    /// Reads an AAR.
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` when the payload is empty or not valid UTF-8.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        try self.init(payload: record.payload)
    }

    /// Parses the payload of an AAR: the package name, checked, kept as bytes.
    init(payload: ArraySlice<UInt8>) throws(NDEFError) {
        guard !payload.isEmpty else {
            throw NDEFError(.invalidPayload, at: 0, "an Android application record needs a package name")
        }
        try RecordText.checkUTF8(payload, at: 0, "the package name")
        self.packageField = RecordString(validUTF8: payload)
    }

    /// Builds the record: type `android.com:pkg`, payload the package name in UTF-8.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the package name is empty.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        guard !package.isEmpty else {
            throw NDEFError(.invalidValue, "an Android application record needs a package name")
        }
        return NFCNDEFPayload(format: .nfcExternal, type: Self.recordType, payload: Array(package.utf8))
    }

    /// A one-line summary for people.
    public var description: String {
        "Android application \(package)"
    }
}

/// The JSON `value` of an AAR: `{"package": "com.example.app"}`.
extension AndroidApplicationRecord {
    enum CodingKeys: String, CodingKey {
        case package
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(package: try container.decode(String.self, forKey: .package))
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(package, forKey: .package)
    }
}
