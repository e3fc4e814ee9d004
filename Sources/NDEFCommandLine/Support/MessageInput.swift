import NDEF
import RecordSpecifications

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns input bytes (binary, or hex text) into a message, with errors naming the input.
enum MessageInput {
    /// The bytes of a message: `bytes` itself, or the hex text it holds (whitespace and
    /// comments from `#` to the end of a line are ignored); bad hex is ``ExitStatus/dataError``.
    static func bytes(_ bytes: [UInt8], hex: Bool, source: String) throws(CommandLineError) -> [UInt8] {
        do {
            return try RecordData.messageBytes(bytes, hex: hex, source: source)
        } catch {
            throw CommandLineError(error)
        }
    }

    /// The message in `bytes` (binary or hex text), decoded strictly.
    static func decode(_ bytes: [UInt8], hex: Bool, source: String) throws(CommandLineError) -> NFCNDEFMessage {
        do {
            return try RecordData.message(bytes, hex: hex, source: source)
        } catch {
            throw CommandLineError(error)
        }
    }

    /// The message in the JSON text `bytes` (the contract of `decode --json`).
    static func decode(json bytes: [UInt8], source: String) throws(CommandLineError) -> NFCNDEFMessage {
        do {
            return try TypedRecordJSON.message(json: bytes)
        } catch {
            throw CommandLineError(.dataError, "invalid JSON message in \(source): \(error.reason)")
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

/// The JSON contract of a message as printed: pretty, keys sorted, slashes not escaped.
enum MessageJSON {
    /// `message` (or any value with a JSON form) as JSON text (without a final newline); on one
    /// line when not `pretty` (JSON Lines, one object per event).
    static func text(of message: some Encodable, pretty: Bool = true) throws(CommandLineError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(message), as: UTF8.self)
        } catch {
            throw CommandLineError(.dataError, "cannot write the JSON output: \(error)")
        }
    }
}
