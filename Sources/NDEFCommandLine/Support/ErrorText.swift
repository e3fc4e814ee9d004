import NDEF
import TagMemory

/// Human descriptions of the errors commands turn into messages.
enum ErrorText {
    /// The failure for an NDEF decoding `error`: ``ExitStatus/tooLarge`` for a limit of the
    /// decoder (``NDEF/NDEFError/isLimit``), else ``ExitStatus/dataError``.
    static func failure(_ error: NDEFError, in source: String? = nil, suffix: String = "") -> CommandLineError {
        CommandLineError(error.isLimit ? .tooLarge : .dataError, error.summary(in: source) + suffix)
    }

    /// `malformed Flipper NFC file in 'tag.nfc' at byte 412: line 27: ... (malformed-dump)`.
    static func malformed(_ error: TagMemoryError, in source: String, reading format: TagDumpFormat?) -> String {
        var text = "malformed \(format?.description ?? "tag dump") in \(source)"
        if let offset = error.offset { text += " at byte \(offset)" }
        return text + ": \(error.reason) (\(error.code.rawValue))"
    }
}
