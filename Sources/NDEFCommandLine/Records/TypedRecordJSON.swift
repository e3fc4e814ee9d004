import NDEF

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Builds typed records through the JSON contract: a record object
/// `{"tnf":1,"type":"T","value":{...}}` is decoded into ``NFCNDEFPayload``, so the payload
/// comes from the typed view (``NDEFRecordConvertible``) that reads that type.
enum TypedRecordJSON {
    /// A JSON value, as the record objects need.
    indirect enum Value: Encodable, Sendable {
        case string(String)
        case integer(Int)
        case array([Value])
        case object([String: Value])

        func encode(to encoder: any Encoder) throws {
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
    static func record(
        format: NFCTypeNameFormat,
        type: String,
        value: [String: Value],
        for spec: RecordSpec
    ) throws(CommandLineError) -> NFCNDEFPayload {
        let object: [String: Value] = [
            "tnf": .integer(Int(format.rawValue)),
            "type": .string(type),
            "value": .object(value),
        ]
        do {
            let data = try JSONEncoder().encode(Value.object(object))
            return try JSONDecoder().decode(NFCNDEFPayload.self, from: data)
        } catch {
            throw .usage("Invalid \(spec.label): \(ErrorText.describe(json: error))")
        }
    }
}
