import CommandLineKit
import HexText
import NDEF

/// Functions the record kinds share to turn specification values into bytes.
package enum RecordData {
    /// Parses the hex value of `option` (whitespace, `:` and `-` separators allowed).
    package static func hex(_ text: String, for option: OptionSpec) throws(RecordSpecError) -> [UInt8] {
        do {
            return try Hex.decode(text, allowSeparators: true)
        } catch {
            let position = " at character \(error.offset)"
            throw .invalidValue(text, for: option, reason: "\(error.reason)\(position)")
        }
    }

    /// The record ID of `spec` from `--id` or `--id-hex`, at most 255 bytes (NDEF 1.0, 3.2.7).
    package static func identifier(of spec: RecordSpec, kind: RecordKind) throws(RecordSpecError) -> [UInt8]? {
        let bytes: [UInt8]
        let option: OptionSpec
        if let text = spec.option("id"), let idOption = kind.option("id") {
            bytes = Array(text.utf8)
            option = idOption
        } else if let text = spec.option("id-hex"), let idOption = kind.option("id-hex") {
            bytes = try hex(text, for: idOption)
            option = idOption
        } else {
            return nil
        }
        guard bytes.count <= 255 else {
            throw .invalidValue(
                spec.option(option.long) ?? "",
                for: option,
                reason: "an ID has at most 255 bytes, this one \(bytes.count)"
            )
        }
        return bytes
    }

    /// The data of `spec` from the value `<data>` (as UTF-8), `--file` or `--hex`; `nil` if none was given.
    package static func data(of spec: RecordSpec, kind: RecordKind, inputs: any RecordInputs) throws(RecordSpecError)
        -> [UInt8]?
    {
        if let text = spec.value("data") { return Array(text.utf8) }
        if let path = spec.option("file") { return try inputs.read(path, for: "--file of \(spec.label)") }
        if let text = spec.option("data-hex"), let option = kind.option("data-hex") {
            return try hex(text, for: option)
        }
        return nil
    }

    /// The bytes of a message file: `bytes` itself, or the hex text it holds (whitespace and
    /// comments from `#` to the end of a line are ignored).
    package static func messageBytes(_ bytes: [UInt8], hex: Bool, source: String) throws(RecordSpecError) -> [UInt8] {
        guard hex else { return bytes }
        do {
            return try Hex.decode(String(decoding: withoutComments(bytes), as: UTF8.self))
        } catch {
            let position = " at character \(error.offset)"
            throw RecordSpecError(.invalidMessage, "invalid hex in \(source)\(position): \(error.reason)")
        }
    }

    /// `text` with every comment (`#` to the end of its line) blanked out, so offsets stay the same.
    private static func withoutComments(_ text: [UInt8]) -> [UInt8] {
        var inComment = false
        return text.map { byte in
            if byte == UInt8(ascii: "\n") { inComment = false }
            if byte == UInt8(ascii: "#") { inComment = true }
            return inComment ? UInt8(ascii: " ") : byte
        }
    }

    /// The message in `bytes` (binary, or hex text with `hex`), decoded strictly; a decoding
    /// error is ``RecordSpecError/Code/invalidMessage`` with the ``NDEF/NDEFError`` underneath.
    package static func message(_ bytes: [UInt8], hex: Bool, source: String) throws(RecordSpecError) -> NFCNDEFMessage {
        let message = try messageBytes(bytes, hex: hex, source: source)
        do {
            return try NFCNDEFMessage(decoding: message)
        } catch {
            throw RecordSpecError(.invalidMessage, error.summary(in: source), underlying: error)
        }
    }

    /// Checks a built record through the first typed view that reads it, so a payload the
    /// library cannot read back is refused; records no view reads are accepted as they are.
    package static func checkReadable(_ record: NFCNDEFPayload, of spec: RecordSpec) throws(RecordSpecError) {
        do {
            _ = try record.interpreted()
        } catch {
            throw .usage("Invalid \(spec.label): \(error.description)")
        }
    }

    /// The length checks of NDEF 1.0, section 3.2, for a record built from a specification.
    package static func checkLengths(type: [UInt8], payload: [UInt8], of spec: RecordSpec) throws(RecordSpecError) {
        if type.count > 255 {
            throw .usage("Invalid \(spec.label): the type has \(type.count) bytes, at most 255 are allowed")
        }
        if UInt64(payload.count) > UInt64(UInt32.max) {
            throw .usage("Invalid \(spec.label): the payload is longer than 4294967295 bytes")
        }
    }
}

/// The syntax of the language of a Text record: an IETF language tag (RFC 5646, 2.1), at most
/// 63 bytes (NFC Forum Text RTD 1.0, 3.2.1: six bits of the status byte hold its length).
///
/// Checked as RFC 5646 writes any tag: subtags of 1 to 8 ASCII letters or digits joined by
/// `-`, the first of 2 to 8 letters, or `x`/`i` for a private-use or grandfathered tag. Whether
/// a subtag is registered is not checked (a reader shows the text whatever the tag).
package enum LanguageTag {
    /// The longest language tag a Text record can carry.
    package static let maximumLength = 63

    /// Whether `text` is a well-formed language tag a Text record can carry.
    package static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        let subtags = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        for subtag in subtags {
            guard (1...8).contains(subtag.count), subtag.allSatisfy(isLetterOrDigit) else { return false }
        }
        guard let first = subtags.first else { return false }
        if first.count == 1 {
            // A private-use (x-...) or grandfathered (i-...) tag, in either case.
            let singleton = (first.first ?? 0) | 0x20
            return (singleton == UInt8(ascii: "x") || singleton == UInt8(ascii: "i")) && subtags.count > 1
        }
        return first.count >= 2 && first.allSatisfy(isLetter)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
