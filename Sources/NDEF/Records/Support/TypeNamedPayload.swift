import HexText

/// The TYPE (as text) and payload of a view whose record type names its content: the media,
/// external and absolute-URI views.
///
/// A parsed view keeps the record it was read from: one reference, moved in from
/// ``NFCNDEFPayload/view(options:)``, and the strings and slices are made when they are read.
/// A built or changed view keeps the values. Equality and hashing are those of the type text
/// and the payload bytes, whichever form either side is in.
struct TypeNamedPayload: Sendable, Hashable {
    private enum Storage: Sendable {
        case values(type: String, data: ArraySlice<UInt8>)
        /// A record whose TYPE the view has checked to be valid UTF-8.
        case record(NFCNDEFPayload)
    }

    private var storage: Storage

    /// A type and payload a caller gave.
    init(type: String, data: ArraySlice<UInt8>) {
        storage = .values(type: type, data: data)
    }

    /// The TYPE and payload of `record`, whose TYPE the caller has checked to be valid UTF-8.
    init(checked record: consuming NFCNDEFPayload) {
        storage = .record(record)
    }

    /// The TYPE field as text.
    var type: String {
        get {
            switch storage {
            case .values(let type, _): type
            case .record(let record): String(decoding: record.type, as: UTF8.self)
            }
        }
        set { storage = .values(type: newValue, data: data) }
    }

    /// The payload.
    var data: ArraySlice<UInt8> {
        get {
            switch storage {
            case .values(_, let data): data
            case .record(let record): record.payload
            }
        }
        set { storage = .values(type: type, data: newValue) }
    }

    static func == (lhs: TypeNamedPayload, rhs: TypeNamedPayload) -> Bool {
        lhs.type == rhs.type && lhs.data == rhs.data
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(data)
    }

    /// Whether `type` is a valid TYPE field of `format`: 1 to 255 bytes with the syntax NDEF 1.0
    /// section 3.2.6 gives (``NDEFTypeSyntax``).
    static func isValid(_ type: some Collection<UInt8>, as format: NFCTypeNameFormat) -> Bool {
        !type.isEmpty && type.count <= 255 && NDEFTypeSyntax.problem(format, type) == nil
    }

    /// The TYPE and payload of `record`, whose TYPE must be a valid name of `format`: a record
    /// the decoder found valid has one; others are checked here. `name` and `shape` word the
    /// error: `media type`, `type/subtype`.
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` when the TYPE field is not such a name.
    init(
        checking record: consuming NFCNDEFPayload, as format: NFCTypeNameFormat, name: String, shape: String
    ) throws(NDEFError) {
        guard record.typeIsChecked || Self.isValid(record.type, as: format) else {
            let shown = record.typeString ?? Hex.encode(record.type)
            throw NDEFError(.invalidPayload, "the record type \(shown) is not \(name) (\(shape))")
        }
        // A valid name is ASCII (checked above), so valid UTF-8.
        self.init(checked: record)
    }

    /// The record of `format` with ``type`` as its TYPE field and ``data`` as its payload.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` naming ``type`` as `name` (`the media type
    ///   "text" has no '/'`) when it is not a valid TYPE field of `format`.
    func makeRecord(as format: NFCTypeNameFormat, name: String) throws(NDEFError) -> NFCNDEFPayload {
        let bytes = Array(type.utf8)[...]
        guard Self.isValid(bytes, as: format) else {
            let problem = NDEFTypeSyntax.problem(format, bytes) ?? "is empty or longer than 255 bytes"
            throw NDEFError(.invalidValue, "the \(name) \(type.debugDescription) \(problem)")
        }
        return NFCNDEFPayload(format: format, type: bytes, payload: data)
    }
}
