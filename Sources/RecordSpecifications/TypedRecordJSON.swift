import CommandLineKit
import JSONSupport
import NDEF

/// Builds typed records through the JSON contract: a record object
/// `{"tnf":1,"type":"T","value":{...}}` is decoded into ``NFCNDEFPayload``, so the payload
/// comes from the typed view (``NDEFRecordConvertible``) that reads that type.
package enum TypedRecordJSON {
    /// A JSON value, as the record objects need.
    package indirect enum Value: Sendable {
        case string(String)
        case integer(Int)
        case array([Value])
        case object([String: Value])

        /// The value as a JSON tree (object members in key order).
        var json: JSONValue {
            switch self {
            case .string(let text): .string(text)
            case .integer(let number): .number(String(number))
            case .array(let values): .array(values.map(\.json))
            case .object(let members):
                .object(members.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value.json, offset: 0) })
            }
        }
    }

    /// The record of `format` and `type` whose view reads `value`, for specification `spec`.
    package static func record(
        format: NFCTypeNameFormat,
        type: String,
        value: [String: Value],
        for spec: RecordSpec
    ) throws(RecordSpecError) -> NFCNDEFPayload {
        let object: [String: Value] = [
            "tnf": .integer(Int(format.rawValue)),
            "type": .string(type),
            "value": .object(value),
        ]
        do {
            return try JSONValueDecoder.decode(NFCNDEFPayload.self, from: Value.object(object).json)
        } catch {
            throw .usage("Invalid \(spec.label): \(JSONErrorText.describe(error))")
        }
    }

    /// How message JSON is parsed: UTF-8 only, no key given twice, nesting to 128 levels (a
    /// message nests one object and one array per level of records inside records).
    static let messageOptions = JSONParseOptions(
        maximumDepth: 128, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true)

    /// The message in JSON text: the contract `ndeftool decode --json` prints, `NFCNDEFMessage`'s
    /// `Codable` form. Every command that reads message JSON decodes it here, through the same
    /// decoder that builds typed records.
    ///
    /// - Throws: ``RecordSpecError/Code/invalidMessage`` naming the line and byte of a syntax
    ///   error, or the JSON path of a value the contract refuses (`tnf must be 0-7, not 9 at
    ///   records[0]`).
    package static func message(json bytes: [UInt8]) throws(RecordSpecError) -> NFCNDEFMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes, options: messageOptions)
        } catch {
            let line = JSONParseError.line(of: error.offset, in: bytes)
            throw RecordSpecError(.invalidMessage, "line \(line) (byte \(error.offset)): \(error.reason)")
        }
        do {
            return try JSONValueDecoder.decode(NFCNDEFMessage.self, from: value)
        } catch {
            throw RecordSpecError(.invalidMessage, JSONErrorText.describe(error))
        }
    }
}

/// Errors of JSON decoding (the standard library's `DecodingError`) as one line each, naming the JSON path where they
/// were found: `missing key 'tnf' at records[0]`.
package enum JSONErrorText {
    /// A decoding error as one line, naming the JSON path where it was found.
    package static func describe(_ error: any Error) -> String {
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
