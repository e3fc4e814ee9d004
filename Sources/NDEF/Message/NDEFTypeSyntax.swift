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
        if let byte = type.first(where: { $0 > 0x7F }) {
            return "holds the byte \(hexByte(byte)), not US-ASCII"
        }
        switch format {
        case .nfcWellKnown: return wellKnownProblem(type)
        case .media: return mediaTypeProblem(type)
        case .absoluteURI: return absoluteURIProblem(type)
        case .nfcExternal: return externalProblem(type)
        case .empty, .unknown, .unchanged, .reserved: return nil
        }
    }

    /// RTD 1.0 appendix A: a character of a record type name: a letter, a digit or one of
    /// `( ) + , - . : = @ ; $ _ ! * '`.
    public static func isTypeNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: "-"),
            UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: ";"),
            UInt8(ascii: "$"), UInt8(ascii: "_"), UInt8(ascii: "!"), UInt8(ascii: "*"), UInt8(ascii: "'"):
            true
        default:
            false
        }
    }

    /// RFC 2045, 5.1: a token character: any US-ASCII character but controls, space and the
    /// tspecials `( ) < > @ , ; : \ " / [ ] ? =`.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00...0x20, 0x7F...0xFF: false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
            UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""),
            UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="):
            false
        default: true
        }
    }

    /// RFC 3986, 2.2 and 2.3: a character a URI holds as it is (unreserved, or reserved but
    /// `#`); `%` starts a percent-encoding and is checked apart.
    private static func isURICharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "@"),
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default:
            false
        }
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
            while index < type.count, isTokenCharacter(type[index]) { index += 1 }
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
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        closed = true
                        break
                    } else if byte < 0x20 && byte != 0x09 || byte == 0x7F {
                        return "holds a control character in a quoted parameter value (RFC 822 qtext)"
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
        if let bad = scheme.first(where: { !isLetter($0) && !isDigit($0) && !"+-.".utf8.contains($0) }) {
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
            guard isURICharacter(byte) else {
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
            } else if isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") {
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

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// `"a"` for a printable character, `byte 0Ah` for another.
    private static func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte \(hexByte(byte))"
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]) + "h"
    }
}
