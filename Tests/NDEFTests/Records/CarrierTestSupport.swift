import Foundation
import HexText
import NDEF
import TestSupport
import Testing

/// Helpers shared by the carrier configuration and handover record tests.
enum CarrierTest {
    /// A media-type record whose payload is `payloadHex`.
    static func media(_ type: String, _ payloadHex: String) -> NFCNDEFPayload {
        NFCNDEFPayload(format: .media, type: type, payload: hex(payloadHex))
    }

    /// A well-known record whose payload is `payloadHex`.
    static func wellKnown(_ type: String, _ payloadHex: String) -> NFCNDEFPayload {
        NFCNDEFPayload(format: .nfcWellKnown, type: type, payload: hex(payloadHex))
    }

    /// The bytes of `Fixtures/ndef/<name>`: hex text, `#` lines are comments.
    static func fixture(_ name: String) throws -> [UInt8] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }  // Records, NDEFTests, Tests, package root
        url.appendPathComponent("Fixtures/ndef/\(name)")
        let text = try String(contentsOf: url, encoding: .utf8)
        let hex = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: " ")
        return try Hex.decode(hex)
    }

    /// Parses every proper prefix of `record`'s payload with `view`: each must either parse or
    /// throw `invalidPayload` (never trap, never another code).
    static func checkTruncations<V: NDEFRecordConvertible>(
        _ view: V.Type,
        _ record: NFCNDEFPayload,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let payload = Array(record.payload)
        for length in 0..<payload.count {
            var truncated = record
            truncated.payload = payload[0..<length]
            do {
                _ = try V(parsing: truncated)
            } catch {
                #expect(
                    error.code == .invalidPayload, "prefix of \(length) bytes: \(error)", sourceLocation: sourceLocation
                )
            }
        }
    }

    /// `value` as a JSON object.
    static func jsonObject(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Decodes `json` as `type`.
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    /// Encodes `value` and decodes it again.
    static func jsonRoundTrip<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }
}
