import NDEF

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns input bytes (binary, or hex text) into a message, with errors naming the input.
enum MessageInput {
    /// The bytes of a message: `bytes` itself, or the hex text it holds (whitespace and
    /// comments from `#` to the end of a line are ignored).
    static func bytes(_ bytes: [UInt8], hex: Bool, source: String) throws(CommandLineError) -> [UInt8] {
        guard hex else { return bytes }
        do {
            return try NDEFHex.decode(String(decoding: withoutComments(bytes), as: UTF8.self))
        } catch {
            let position = error.offset.map { " at character \($0)" } ?? ""
            throw CommandLineError(.dataError, "invalid hex in \(source)\(position): \(error.reason)")
        }
    }

    /// `text` with every comment (`#` to the end of its line) blanked out, so offsets stay the same.
    static func withoutComments(_ text: [UInt8]) -> [UInt8] {
        var inComment = false
        return text.map { byte in
            if byte == UInt8(ascii: "\n") { inComment = false }
            if byte == UInt8(ascii: "#") { inComment = true }
            return inComment ? UInt8(ascii: " ") : byte
        }
    }

    /// The message in `bytes` (binary or hex text), decoded strictly.
    static func decode(_ bytes: [UInt8], hex: Bool, source: String) throws(CommandLineError) -> NFCNDEFMessage {
        let message = try self.bytes(bytes, hex: hex, source: source)
        do {
            return try NFCNDEFMessage(decoding: message)
        } catch {
            throw ErrorText.failure(error, in: source)
        }
    }

    /// The message in the JSON text `bytes` (the contract of `decode --json`).
    static func decode(json bytes: [UInt8], source: String) throws(CommandLineError) -> NFCNDEFMessage {
        do {
            return try JSONDecoder().decode(NFCNDEFMessage.self, from: Data(bytes))
        } catch {
            throw CommandLineError(.dataError, "invalid JSON message in \(source): \(ErrorText.describe(json: error))")
        }
    }

    /// The message in `bytes`, whichever form it has: JSON (`{` first), hex text (other
    /// printable text), or binary NDEF.
    ///
    /// The forms cannot be mistaken for each other: the first byte of a binary message is a
    /// record header with MB set (NFC Forum NDEF 1.0, 3.2.1), 80h or more, never ASCII.
    static func decode(detecting bytes: [UInt8], source: String) throws(CommandLineError) -> NFCNDEFMessage {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.first(where: { !isSpace($0) }), first < 0x80 else {
            return try decode(bytes, hex: false, source: source)
        }
        if first == UInt8(ascii: "{") { return try decode(json: bytes, source: source) }
        return try decode(bytes, hex: true, source: source)
    }
}
