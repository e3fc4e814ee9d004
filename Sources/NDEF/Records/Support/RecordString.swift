/// A text field of a typed record view: a `String` a caller gave, or the bytes of a decoded
/// record it is read from, already checked to be valid UTF-8 (and whatever else the view
/// requires).
///
/// Reading a record through its view checks the bytes but does not build the string: that
/// happens when ``string`` is asked for, on each use (a value type keeps no cache). So
/// decoding a tag's records into their views allocates nothing beyond the records, and a
/// string nobody reads is never built. Equality and hashing are those of the text, as
/// `String` defines them (canonical equivalence), whichever form either side is in.
struct RecordString: Sendable, Hashable {
    private enum Storage: Sendable {
        case string(String)
        /// Valid UTF-8, checked by the view that made it.
        case utf8(ArraySlice<UInt8>)
    }

    private var storage: Storage

    /// A field holding `string`.
    init(_ string: String) {
        storage = .string(string)
    }

    /// A field read from `bytes`, which the caller has checked to be valid UTF-8.
    init(validUTF8 bytes: ArraySlice<UInt8>) {
        storage = .utf8(bytes)
    }

    /// The text.
    var string: String {
        get {
            switch storage {
            case .string(let string): string
            case .utf8(let bytes): String(decoding: bytes, as: UTF8.self)
            }
        }
        set { storage = .string(newValue) }
    }

    static func == (lhs: RecordString, rhs: RecordString) -> Bool {
        lhs.string == rhs.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}
