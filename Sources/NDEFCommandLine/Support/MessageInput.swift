import NDEF

/// Turns input bytes (binary, or hex text) into a message, with errors naming the input.
enum MessageInput {
    /// The bytes of a message: `bytes` itself, or the hex text it holds (whitespace ignored).
    static func bytes(_ bytes: [UInt8], hex: Bool, source: String) throws(CommandLineError) -> [UInt8] {
        guard hex else { return bytes }
        do {
            return try NDEFHex.decode(String(decoding: bytes, as: UTF8.self))
        } catch {
            let position = error.offset.map { " at character \($0)" } ?? ""
            throw CommandLineError(.dataError, "invalid hex in \(source)\(position): \(error.reason)")
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
