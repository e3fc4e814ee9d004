import NDEF
import TagMemory

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

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

    /// A decoding error as one line, naming the JSON path where it was found.
    static func describe(json error: any Error) -> String {
        if let error = error as? NDEFError { return error.description }
        guard let error = error as? DecodingError else { return String(describing: error) }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing key '\(key.stringValue)'" + location(context.codingPath)
        case .typeMismatch(let type, let context):
            return "expected \(typeName(type))" + location(context.codingPath) + detail(context)
        case .valueNotFound(let type, let context):
            return "expected \(typeName(type)), found null" + location(context.codingPath)
        case .dataCorrupted(let context):
            let reason = underlyingReason(context) ?? context.debugDescription
            return reason + location(context.codingPath)
        @unknown default:
            return String(describing: error)
        }
    }

    /// ` at records[0].tnf`, or nothing at the top level.
    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return " at \(text)"
    }

    private static func detail(_ context: DecodingError.Context) -> String {
        context.debugDescription.isEmpty ? "" : " (\(context.debugDescription))"
    }

    private static func underlyingReason(_ context: DecodingError.Context) -> String? {
        guard let underlying = context.underlyingError else { return nil }
        if let error = underlying as? NDEFError { return error.description }
        return "\(context.debugDescription): \(underlying)"
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is UInt8.Type, is UInt32.Type, is Int64.Type, is UInt64.Type: "a number"
        default: "\(type)"
        }
    }
}
