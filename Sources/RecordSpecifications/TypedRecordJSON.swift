import CommandLineKit
import NDEF

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds typed records through the JSON contract: a record object
/// `{"tnf":1,"type":"T","value":{...}}` is decoded into ``NFCNDEFPayload``, so the payload
/// comes from the typed view (``NDEFRecordConvertible``) that reads that type.
package enum TypedRecordJSON {
    /// A JSON value, as the record objects need.
    package indirect enum Value: Encodable, Sendable {
        case string(String)
        case integer(Int)
        case array([Value])
        case object([String: Value])

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            case .array(let values): try container.encode(values)
            case .object(let members): try container.encode(members)
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
            let data = try JSONEncoder().encode(Value.object(object))
            return try JSONDecoder().decode(NFCNDEFPayload.self, from: data)
        } catch {
            throw .usage("Invalid \(spec.label): \(JSONErrorText.describe(error))")
        }
    }
}

/// Errors of Foundation's JSON decoding as one line each, naming the JSON path where they
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
