import NDEF

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
            throw CommandLineError(.dataError, ErrorText.malformed(error, in: source))
        }
    }
}
