import NDEF

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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
