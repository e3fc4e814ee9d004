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
}
