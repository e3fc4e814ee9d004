import HexText
import NFCSession
import NFCWireFormat

/// A PC/SC reader named as a URL: `pcsc:NAME` with options after `?`, `&`-separated.
///
/// `pcsc:` (the first reader), `pcsc:1` (the second), `pcsc:ACS` (the reader whose name starts
/// with `ACS`), `pcsc:Virtual%20PCD%2000%2001?profile=acr122u&exclusive=1`.
///
/// NAME is, in this order: empty (the first reader pcscd lists); a whole reader name; a decimal
/// index into pcscd's list; a prefix of exactly one reader name. Names compare case-insensitively
/// when no reader matches exactly. Percent-encoding (`%20`) is decoded.
///
/// Options (each at most once):
/// - `profile=generic|acr122u|pcsc-transparent`: force the way Type 2 frames travel
///   (``PCSCReaderProfile``) instead of choosing it from the reader name.
/// - `exclusive=1`: connect with `SCARD_SHARE_EXCLUSIVE`, so no other program talks to the tag
///   meanwhile (useful for writes); `0` (the default) shares the reader.
/// - `apdu=auto|short|extended`: which APDU lengths pass to Type 4 tags (``PCSCAPDULength``);
///   `auto` (the default) asks the reader driver.
///
/// Booleans are `1`/`0`, `true`/`false` or `yes`/`no`.
public struct PCSCReaderURL: Sendable, Hashable, CustomStringConvertible {
    /// How the reader is picked from pcscd's list.
    public enum Selector: Sendable, Hashable {
        /// The first reader.
        case first
        /// The reader at this position.
        case index(Int)
        /// The reader with this name, or the one reader whose name starts with it.
        case name(String)
    }

    /// The scheme, with its colon.
    public static let scheme = "pcsc:"

    /// Which reader.
    public var selector: Selector
    /// The profile forced, or nil to choose it from the reader name.
    public var profile: PCSCReaderProfile?
    /// Whether to connect exclusively.
    public var exclusive: Bool
    /// Which APDU lengths pass to Type 4 tags.
    public var apduLength: PCSCAPDULength

    /// Creates a URL value.
    public init(
        selector: Selector = .first, profile: PCSCReaderProfile? = nil, exclusive: Bool = false,
        apduLength: PCSCAPDULength = .automatic
    ) {
        self.selector = selector
        self.profile = profile
        self.exclusive = exclusive
        self.apduLength = apduLength
    }

    /// Parses `text`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` naming what is wrong: the
    ///   scheme, a bad percent escape, an unknown, repeated or valueless option, or a value.
    public init(parsing text: String) throws(NFCReaderError) {
        guard text.lowercased().hasPrefix(Self.scheme) else {
            throw Self.error(text, "a PC/SC reader is named \"\(Self.scheme)NAME\", for example pcsc:ACS or pcsc:0")
        }
        let rest = text.dropFirst(Self.scheme.count)
        let nameText = rest.prefix { $0 != "?" }
        let name = try Self.percentDecoded(String(nameText), url: text)
        if name.isEmpty {
            selector = .first
        } else if name.allSatisfy(\.isASCIIDigitCharacter), let index = Int(name) {
            selector = .index(index)
        } else {
            selector = .name(name)
        }
        profile = nil
        exclusive = false
        apduLength = .automatic
        guard rest.count > nameText.count else { return }
        var seen: Set<String> = []
        for item in rest.dropFirst(nameText.count + 1).split(separator: "&", omittingEmptySubsequences: false) {
            try take(item, seen: &seen, url: text)
        }
    }

    /// Reads one `key=value` option.
    private mutating func take(_ item: Substring, seen: inout Set<String>, url: String) throws(NFCReaderError) {
        guard let equals = item.firstIndex(of: "=") else {
            throw Self.error(url, "option \"\(item)\" has no value (write key=value)")
        }
        let key = item[..<equals].lowercased()
        let value = try Self.percentDecoded(String(item[item.index(after: equals)...]), url: url)
        guard seen.insert(key).inserted else { throw Self.error(url, "option \"\(key)\" is given twice") }
        switch key {
        case "profile":
            guard let forced = PCSCReaderProfile(name: value) else {
                let known = PCSCReaderProfile.allCases.map(\.rawValue).joined(separator: ", ")
                throw Self.error(url, "profile \"\(value)\" is not one of \(known)")
            }
            profile = forced
        case "exclusive":
            switch value.lowercased() {
            case "1", "true", "yes": exclusive = true
            case "0", "false", "no": exclusive = false
            default: throw Self.error(url, "exclusive=\(value) is not a boolean (1/0, true/false, yes/no)")
            }
        case "apdu":
            guard let length = PCSCAPDULength(name: value) else {
                let known = PCSCAPDULength.allCases.map(\.rawValue).joined(separator: ", ")
                throw Self.error(url, "apdu=\(value) is not one of \(known)")
            }
            apduLength = length
        default:
            throw Self.error(url, "unknown option \"\(key)\"; options: profile, exclusive, apdu")
        }
    }

    /// The URL in canonical form: the selector percent-encoded, then the options given.
    public var description: String {
        var text = Self.scheme
        switch selector {
        case .first: break
        case .index(let index): text += String(index)
        case .name(let name): text += Self.percentEncoded(name)
        }
        var items: [String] = []
        if let profile { items.append("profile=\(profile.rawValue)") }
        if exclusive { items.append("exclusive=1") }
        if apduLength != .automatic { items.append("apdu=\(apduLength.rawValue)") }
        return text + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }

    /// An ``NFCSession/NFCReaderError/Code/invalidParameter`` error about `url`.
    static func error(_ url: String, _ reason: String) -> NFCReaderError {
        NFCReaderError(.invalidParameter, "PC/SC reader \"\(url)\": \(reason)")
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0-9.
    fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}

/// Picking the reader a URL names from pcscd's list, and percent-encoding.
extension PCSCReaderURL {
    /// The reader name ``selector`` picks from `readers` (pcscd's list, in its order).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the list is empty or
    ///   nothing matches (the message lists the readers there are, and explains the usual cause
    ///   of an empty list); ``NFCSession/NFCReaderError/Code/invalidParameter`` when a prefix
    ///   matches several readers.
    public func resolve(among readers: [String]) throws(NFCReaderError) -> String {
        guard !readers.isEmpty else {
            throw NFCReaderError(
                .readerUnavailable,
                "pcscd lists no reader (SCARD_E_NO_READERS_AVAILABLE). " + PCSCError.kernelDriverHint)
        }
        let list = readers.enumerated().map { "\($0.offset): \($0.element)" }.joined(separator: "; ")
        switch selector {
        case .first:
            return readers[0]
        case .index(let index):
            guard readers.indices.contains(index) else {
                throw NFCReaderError(.readerUnavailable, "there is no reader \(index); pcscd lists \(list)")
            }
            return readers[index]
        case .name(let name):
            if let exact = readers.first(where: { $0 == name }) { return exact }
            let lower = name.lowercased()
            if let exact = readers.first(where: { $0.lowercased() == lower }) { return exact }
            let matches = readers.filter { $0.lowercased().hasPrefix(lower) }
            guard let match = matches.first else {
                throw NFCReaderError(.readerUnavailable, "no reader is named \"\(name)\"; pcscd lists \(list)")
            }
            guard matches.count == 1 else {
                throw NFCReaderError(
                    .invalidParameter,
                    "\"\(name)\" starts the names of \(matches.count) readers (\(matches.joined(separator: "; "))): "
                        + "give more of the name, or the reader's index")
            }
            return match
        }
    }

    /// `text` with `%XX` escapes decoded as UTF-8.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a `%` not followed by
    ///   two hex digits, or escapes that are not UTF-8.
    static func percentDecoded(_ text: String, url: String) throws(NFCReaderError) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let high = Hex.digitValue(rest[rest.startIndex]),
                let low = Hex.digitValue(rest[rest.startIndex + 1])
            else {
                throw error(url, "\"%\" must be followed by two hex digits (%20 for a space)")
            }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw error(url, "the percent escapes are not UTF-8")
        }
        return decoded
    }

    /// `text` with everything but letters, digits and `-._~` percent-encoded.
    static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80,
                scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar))
                    || "-._~".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + Hex.byte(byte)
            }
        }
        return result
    }
}
