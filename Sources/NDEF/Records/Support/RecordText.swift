import HexText

/// Text decoding for record payloads that reports where invalid input starts.
///
/// The standard library's `String(decoding:as:)` repairs invalid input with U+FFFD; typed
/// records must reject it instead (NFC Forum Text RTD 1.0, section 3.2.1, URI RTD 1.0,
/// section 3.2.2), naming the byte offset of the first invalid code unit.
enum RecordText {
    /// The byte order of UTF-16 text.
    enum ByteOrder {
        case bigEndian
        case littleEndian
    }

    /// Decodes `bytes` as UTF-8, or throws ``NDEFError/Code/invalidPayload`` at `base` plus
    /// the offset of the first byte that does not start a valid sequence.
    static func utf8(_ bytes: ArraySlice<UInt8>, at base: Int, _ what: String) throws(NDEFError) -> String {
        try checkUTF8(bytes, at: base, what)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Throws as ``utf8(_:at:_:)`` does when `bytes` is not valid UTF-8, without building a string.
    static func checkUTF8(_ bytes: ArraySlice<UInt8>, at base: Int, _ what: String) throws(NDEFError) {
        if !isASCII(bytes), let bad = firstInvalidUTF8(bytes) {
            throw NDEFError(.invalidPayload, at: base + bad, "\(what) is not valid UTF-8")
        }
    }

    /// Whether `bytes` is well-formed UTF-8.
    static func isValidUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        if let ascii = bytes.withContiguousStorageIfAvailable(isASCII), ascii { return true }
        return firstInvalidUTF8(bytes) == nil
    }

    /// Whether every byte is below 80h (and so `bytes` is valid UTF-8 as it is): one pass
    /// without branches per byte, the common case of URIs, types and most text.
    static func isASCII(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer(isASCII)
    }

    /// ``isASCII(_:)-(ArraySlice<UInt8>)`` on bytes in memory.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var union: UInt8 = 0
        for byte in bytes { union |= byte }
        return union < 0x80
    }

    /// The offset of the first ill-formed UTF-8 sequence, or `nil` when all of `bytes` is valid.
    static func firstInvalidUTF8(_ bytes: some Collection<UInt8>) -> Int? {
        if let offset = bytes.withContiguousStorageIfAvailable(firstInvalidUTF8(in:)) { return offset }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    /// ``firstInvalidUTF8(_:)`` on bytes in memory: the well-formed byte sequences of the
    /// Unicode Standard, table 3-7 (no overlong forms, no surrogates, nothing above U+10FFFF),
    /// with ASCII bytes passed over one comparison each.
    static func firstInvalidUTF8(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // The sequence length, and the range of the second byte (table 3-7).
            let length: Int
            var second: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, second) = (3, 0xA0...0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: (length, second) = (3, 0x80...0x9F)
            case 0xF0: (length, second) = (4, 0x90...0xBF)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, second) = (4, 0x80...0x8F)
            default: return index
            }
            guard bytes.count - index >= length, second.contains(bytes[index + 1]) else { return index }
            for continuation in 2..<length where !(0x80...0xBF).contains(bytes[index + continuation]) {
                return index
            }
            index += length
        }
        return nil
    }

    /// Decodes `bytes` as UTF-16 in the given byte order, or throws
    /// ``NDEFError/Code/invalidPayload`` at `base` plus the offset of the first invalid code
    /// unit (an unpaired surrogate, or a final odd byte).
    static func utf16(
        _ bytes: ArraySlice<UInt8>,
        order: ByteOrder,
        at base: Int,
        _ what: String
    ) throws(NDEFError) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while bytes.endIndex - index >= 2 {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(order == .bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        if index != bytes.endIndex {
            throw NDEFError(
                .invalidPayload, at: base + (index - bytes.startIndex), "\(what) has an odd number of UTF-16 bytes")
        }
        var parser = Unicode.UTF16.ForwardParser()
        var iterator = units.makeIterator()
        var unitOffset = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): unitOffset += scalar.count
            case .error:
                throw NDEFError(.invalidPayload, at: base + unitOffset * 2, "\(what) is not valid UTF-16")
            case .emptyInput: break parsing
            }
        }
        return String(decoding: units, as: UTF16.self)
    }

    /// The big-endian UTF-16 bytes of `text`, without a byte order mark.
    static func utf16BigEndianBytes(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf16.count * 2)
        for unit in text.utf16 {
            out.append(UInt8(truncatingIfNeeded: unit >> 8))
            out.append(UInt8(truncatingIfNeeded: unit))
        }
        return out
    }

    /// Whether every byte is printable ASCII (0x20-0x7E); an empty sequence is printable.
    static func isPrintableASCII(_ bytes: some Sequence<UInt8>) -> Bool {
        bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// Whether `text` is valid UTF-8 that a person can read: no control characters other
    /// than tab, line feed and carriage return.
    static func isReadable(_ bytes: some Collection<UInt8>) -> Bool {
        guard isValidUTF8(bytes) else { return false }
        return String(decoding: bytes, as: UTF8.self).unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: true
            case 0x00..<0x20, 0x7F..<0xA0: false
            default: true
            }
        }
    }

    /// `text` in ASCII lower case (other characters unchanged), for case-insensitive names.
    static func asciiLowercased(_ text: some StringProtocol) -> String {
        String(
            decoding: text.utf8.map(asciiLowercase),
            as: UTF8.self
        )
    }

    /// Whether `lhs` and `rhs` are the same bytes but for the case of ASCII letters.
    static func equalIgnoringASCIICase(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs) { asciiLowercase($0) == asciiLowercase($1) }
    }

    /// Whether `bytes` are the UTF-8 of `text` but for the case of ASCII letters (external type
    /// names, RTD 1.0 2.3.2, and media types, RFC 2045 5.1, compare so). One pass over both in
    /// memory, after comparing their lengths.
    static func equalsIgnoringASCIICase(_ bytes: some Collection<UInt8>, _ text: String) -> Bool {
        var text = text
        return text.withUTF8 { text in
            bytes.count == text.count && zip(bytes, text).allSatisfy { asciiLowercase($0) == asciiLowercase($1) }
        }
    }

    /// `byte` with an ASCII capital letter made small.
    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// "1 byte" or "n bytes", for descriptions.
    static func byteCount(_ count: Int) -> String {
        count == 1 ? "1 byte" : "\(count) bytes"
    }
}

extension ArraySlice<UInt8> {
    /// Whether these bytes are the UTF-8 of `literal`: for comparing a TYPE field with a type
    /// name written in the source, without building or loading an array.
    func equals(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { name in
            guard count == name.count else { return false }
            return withUnsafeBufferPointer { bytes in
                // An index loop: type names are a few bytes, too few for elementsEqual's
                // iterators to pay.
                var index = 0
                while index < name.count, bytes[index] == name[index] { index += 1 }
                return index == name.count
            }
        }
    }

    /// Whether these bytes are the UTF-8 of `literal` but for the case of ASCII letters (media
    /// types and external type names compare so): a length check, then one pass in memory.
    func equalsIgnoringASCIICase(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { name in
            guard count == name.count else { return false }
            return withUnsafeBufferPointer { bytes in
                var index = 0
                while index < name.count,
                    RecordText.asciiLowercase(bytes[index]) == RecordText.asciiLowercase(name[index])
                {
                    index += 1
                }
                return index == name.count
            }
        }
    }
}

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

extension String {
    /// The text in double quotes for a one-line description: `"` and `\` escaped with a
    /// backslash, line breaks and tabs as `\n`, `\r`, `\t`, other control characters (C0, DEL,
    /// C1) as `\u{XX}`; everything else as it is (apostrophes and non-ASCII letters included).
    public var quotedForDescription: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                result += "\\u{" + Hex.number(scalar.value) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
