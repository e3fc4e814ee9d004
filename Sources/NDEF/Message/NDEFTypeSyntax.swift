import HexText

/// The syntax the TYPE field of a record must follow for its TNF (NFC Forum NDEF 1.0, 3.2.6).
///
/// - TNF 1, NFC Forum well-known type: an RTD type name (NFC Forum RTD 1.0, 2.1 and
///   appendix A): letters, digits and the characters `( ) + , - . : = @ ; $ _ ! * '` (the
///   URN characters of RFC 2141 other than the reserved ones); a global type starts with an
///   upper-case letter, a local type with a lower-case letter or a digit.
/// - TNF 2, media type: `type "/" subtype *(";" parameter)` of RFC 2046 (section 4.2 of RFC
///   2045 for the grammar): type and subtype are tokens (US-ASCII without controls, space and
///   the tspecials `( ) < > @ , ; : \ " / [ ] ? =`); a parameter is `attribute "=" value`, the
///   value a token or a quoted string; spaces around `;` and `=` are allowed.
/// - TNF 3, absolute URI: the `absolute-URI` of RFC 3986, 4.3: `scheme ":" hier-part
///   ["?" query]`, the scheme a letter followed by letters, digits, `+`, `-` or `.`, the rest URI
///   characters (unreserved, reserved but for `#`, or `%` and two hex digits). A relative
///   reference and a fragment are not absolute URIs.
/// - TNF 4, NFC Forum external type: `domain ":" type` (RTD 1.0, 2.3.2): a domain name
///   (labels of letters, digits and `-`, separated by dots), then a non-empty type name of the
///   characters of a well-known type.
///
/// Every TYPE is US-ASCII: a byte above 7Fh breaks all four.
///
/// The decoder refuses a TYPE that breaks these rules in strict mode (``NDEFError/Code/invalidType``,
/// at the TYPE field's offset) and keeps the record with the issue in lenient mode; the encoder
/// refuses it unless asked to write it as it is (``NFCNDEFMessage/encoded(chunkSize:allowingInvalidTypes:)``).
public enum NDEFTypeSyntax {
    /// Why `type` is not a valid TYPE for `format`, or nil when it is (or the format has no
    /// syntax: TNF 0, 5, 6 and 7, whose TYPE must be empty, which the decoder checks apart).
    ///
    /// A valid TYPE costs one pass over its bytes and no allocation; text is built only to
    /// describe a problem.
    public static func problem(_ format: NFCTypeNameFormat, _ type: some Collection<UInt8>) -> String? {
        if let problem = type.withContiguousStorageIfAvailable({ problem(format, $0) }) { return problem }
        return Array(type).withUnsafeBufferPointer { problem(format, $0) }
    }

    /// ``problem(_:_:)`` on bytes in memory.
    static func problem(_ format: NFCTypeNameFormat, _ type: UnsafeBufferPointer<UInt8>) -> String? {
        // Each syntax check refuses every byte above 7Fh, so a valid TYPE takes one pass; the
        // US-ASCII rule is looked at apart only to name it first when there is a problem.
        let problem: String?
        switch format {
        case .nfcWellKnown: problem = wellKnownProblem(type)
        case .media: problem = mediaTypeProblem(type)
        case .absoluteURI: problem = absoluteURIProblem(type)
        case .nfcExternal: problem = externalProblem(type)
        case .empty, .unknown, .unchanged, .reserved: problem = ""
        }
        guard let problem else { return nil }
        if let byte = type.first(where: { $0 > 0x7F }) {
            return "holds the byte \(Hex.byte(byte))h, not US-ASCII"
        }
        return problem.isEmpty ? nil : problem
    }

    /// RTD 1.0 appendix A: a character of a record type name: a letter, a digit or one of
    /// `( ) + , - . : = @ ; $ _ ! * '`.
    public static func isTypeNameCharacter(_ byte: UInt8) -> Bool {
        ASCIISet.typeName.contains(byte)
    }

    private static func wellKnownProblem(_ type: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = type.first else { return "is empty" }
        guard isLetter(first) || isDigit(first) else {
            return "starts with \(describe(first)): a well-known type name starts with a letter (global: upper case) "
                + "or a digit (local) (RTD 1.0, 2.1)"
        }
        if let bad = type.first(where: { !isTypeNameCharacter($0) }) {
            return "holds \(describe(bad)), which no record type name may (RTD 1.0, appendix A)"
        }
        return nil
    }

    private static func mediaTypeProblem(_ type: UnsafeBufferPointer<UInt8>) -> String? {
        var index = 0
        func token() -> Range<Int> {
            let start = index
            while index < type.count, ASCIISet.token.contains(type[index]) { index += 1 }
            return start..<index
        }
        func skipSpaces() { while index < type.count, type[index] == 0x20 || type[index] == 0x09 { index += 1 } }
        if token().isEmpty { return "has no type before the \"/\" (RFC 2046: type \"/\" subtype)" }
        guard index < type.count, type[index] == UInt8(ascii: "/") else {
            return index < type.count
                ? "holds \(describe(type[index])) where \"/\" must follow the type (RFC 2045, 5.1)"
                : "has no \"/\" and subtype (RFC 2046: type \"/\" subtype)"
        }
        index += 1
        if token().isEmpty { return "has no subtype after the \"/\" (RFC 2046: type \"/\" subtype)" }
        while index < type.count {
            skipSpaces()
            guard index < type.count else { return "ends with spaces (RFC 2045, 5.1)" }
            guard type[index] == UInt8(ascii: ";") else {
                return "holds \(describe(type[index])) after the subtype, where only \";\" parameters may follow "
                    + "(RFC 2045, 5.1)"
            }
            index += 1
            skipSpaces()
            if token().isEmpty { return "has a parameter without a name (RFC 2045, 5.1)" }
            skipSpaces()
            guard index < type.count, type[index] == UInt8(ascii: "=") else {
                return "has a parameter without \"=\" and a value (RFC 2045, 5.1)"
            }
            index += 1
            skipSpaces()
            if index < type.count, type[index] == UInt8(ascii: "\"") {
                index += 1
                var closed = false
                while index < type.count {
                    let byte = type[index]
                    index += 1
                    if byte == UInt8(ascii: "\\") {
                        guard index < type.count else { break }
                        guard type[index] <= 0x7F else { return "holds a byte that is not US-ASCII" }
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    } else if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                        return "holds a control character in a quoted parameter value (RFC 822 qtext)"
                    } else if byte > 0x7F {
                        return "holds a byte that is not US-ASCII"
                    }
                }
                if !closed { return "has a quoted parameter value without its closing quote (RFC 2045, 5.1)" }
            } else if token().isEmpty {
                return "has a parameter without a value (RFC 2045, 5.1)"
            }
        }
        return nil
    }

    private static func absoluteURIProblem(_ type: UnsafeBufferPointer<UInt8>) -> String? {
        guard let colon = type.firstIndex(of: UInt8(ascii: ":")) else {
            return "has no scheme and \":\": a relative reference is not an absolute URI (RFC 3986, 4.3)"
        }
        let scheme = type[..<colon]
        guard let first = scheme.first, isLetter(first) else {
            return "has a scheme that does not start with a letter (RFC 3986, 3.1)"
        }
        if let bad = scheme.first(where: { !ASCIISet.scheme.contains($0) }) {
            return "has \(describe(bad)) in its scheme (RFC 3986, 3.1: letters, digits, \"+\", \"-\", \".\")"
        }
        var index = colon + 1
        while index < type.count {
            let byte = type[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < type.count, isHexDigit(type[index + 1]), isHexDigit(type[index + 2]) else {
                    return "has a \"%\" not followed by two hex digits (RFC 3986, 2.1)"
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                return "has a fragment (\"#\"), which an absolute URI does not (RFC 3986, 4.3)"
            }
            guard ASCIISet.uri.contains(byte) else {
                return "holds \(describe(byte)), which a URI may hold only percent-encoded (RFC 3986, 2)"
            }
            index += 1
        }
        return nil
    }

    private static func externalProblem(_ type: UnsafeBufferPointer<UInt8>) -> String? {
        guard let colon = type.firstIndex(of: UInt8(ascii: ":")) else {
            return "has no \":\": an external type is domain \":\" type (RTD 1.0, 2.3.2)"
        }
        let domain = UnsafeBufferPointer(rebasing: type[..<colon])
        let name = UnsafeBufferPointer(rebasing: type[(colon + 1)...])
        if domain.isEmpty { return "has no domain before the \":\" (RTD 1.0, 2.3.2)" }
        var labelIsEmpty = true
        for byte in domain {
            if byte == UInt8(ascii: ".") {
                if labelIsEmpty { return "has an empty label in its domain (RFC 1035, 2.3.1)" }
                labelIsEmpty = true
            } else if ASCIISet.label.contains(byte) {
                labelIsEmpty = false
            } else {
                return "has \(describe(byte)) in its domain (letters, digits and \"-\", RFC 1035, 2.3.1)"
            }
        }
        if labelIsEmpty { return "has an empty label in its domain (RFC 1035, 2.3.1)" }
        if name.isEmpty { return "has no type name after the domain's \":\" (RTD 1.0, 2.3.2)" }
        if let bad = name.first(where: { !isTypeNameCharacter($0) }) {
            return "holds \(describe(bad)), which no record type name may (RTD 1.0, appendix A)"
        }
        return nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool { ASCIISet.letter.contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { ASCIISet.digit.contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool { ASCIISet.hexDigit.contains(byte) }

    /// `"a"` for a printable character, `byte 0Ah` for another.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte \(Hex.byte(byte))h"
    }
}

/// A set of US-ASCII bytes as a 128-bit mask: membership is a shift and a test, with no
/// branches per character class and no table to load.
struct ASCIISet {
    /// Bit `n` for byte `n`, 0-63.
    let low: UInt64
    /// Bit `n` for byte `64 + n`, 64-127.
    let high: UInt64

    /// Whether `byte` is in the set (never, for a byte above 7Fh).
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool {
        // Without branches (a select and a shift): the bytes of a TYPE alternate between the
        // two halves too often for a branch to be predicted.
        let word = byte & 0x40 == 0 ? low : high
        let inASCII = UInt64(truncatingIfNeeded: (byte >> 7) ^ 1)
        return (word >> UInt64(byte & 0x3F)) & inASCII != 0
    }

    // The masks follow the grammars named on each (ASCIISetTests rebuilds each from its
    // characters): letters are 41h-5Ah and 61h-7Ah, digits 30h-39h.

    /// RTD 1.0 appendix A: letters, digits and `( ) + , - . : = @ ; $ _ ! * '`.
    static let typeName = ASCIISet(low: 0x2FFF_7F92_0000_0000, high: 0x07FF_FFFE_87FF_FFFF)
    /// RFC 2045, 5.1 token: 21h-7Eh but the tspecials `( ) < > @ , ; : \ " / [ ] ? =`.
    static let token = ASCIISet(low: 0x03FF_6CFA_0000_0000, high: 0x7FFF_FFFF_C7FF_FFFE)
    /// RFC 3986, 2.2 and 2.3: unreserved and reserved characters but `#`.
    static let uri = ASCIISet(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_AFFF_FFFF)
    /// RFC 3986, 3.1: the characters of a scheme: letters, digits, `+`, `-` and `.`.
    static let scheme = ASCIISet(low: 0x03FF_6800_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    /// RFC 1035, 2.3.1: the characters of a domain label: letters, digits and `-`.
    static let label = ASCIISet(low: 0x03FF_2000_0000_0000, high: 0x07FF_FFFE_07FF_FFFE)
    /// `A`-`Z` and `a`-`z`.
    static let letter = ASCIISet(low: 0, high: 0x07FF_FFFE_07FF_FFFE)
    /// `0`-`9`.
    static let digit = ASCIISet(low: 0x03FF_0000_0000_0000, high: 0)
    /// `0`-`9`, `A`-`F` and `a`-`f`.
    static let hexDigit = ASCIISet(low: 0x03FF_0000_0000_0000, high: 0x0000_007E_0000_007E)
}
