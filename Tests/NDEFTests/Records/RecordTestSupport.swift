import Foundation
import HexText
import NDEF
import TestSupport
import Testing

/// A record of the given format and textual type whose payload is `payloadHex`.
func record(_ format: NFCTypeNameFormat, _ type: String, _ payloadHex: String) throws -> NFCNDEFPayload {
    NFCNDEFPayload(format: format, type: type, payload: hex(payloadHex))
}

/// A well-known record (TNF 1) whose payload is `hex`.
func wellKnown(_ type: String, _ hex: String) throws -> NFCNDEFPayload {
    try record(.nfcWellKnown, type, hex)
}

/// The only record of a strictly decoded one-record message, so its fields are slices of a
/// larger buffer (their indices do not start at 0).
func decodedRecord(_ messageHex: String) throws -> NFCNDEFPayload {
    let message = try NFCNDEFMessage(decoding: hex(messageHex))
    try #require(message.records.count == 1)
    return message.records[0]
}

/// The encoded one-record message of `record`, as hex.
func messageHex(_ record: NFCNDEFPayload) throws -> String {
    Hex.encode(try NFCNDEFMessage(records: [record]).encoded())
}

/// Parses every proper prefix of `record`'s payload (and of the same payload in a decoded
/// message, so indices are offset): each must parse or throw an error with one of `allowed`
/// codes, never trap. Returns how many prefixes threw.
@discardableResult
func checkTruncations<View: NDEFRecordConvertible>(
    _ view: View.Type,
    _ record: NFCNDEFPayload,
    allowed: Set<NDEFError.Code> = [.invalidPayload]
) throws -> Int {
    let embedded = try NFCNDEFMessage(decoding: try NFCNDEFMessage(records: [record]).encoded()).records[0]
    var failures = 0
    for source in [record, embedded] {
        for count in 0..<source.payload.count {
            var cut = source
            cut.payload = source.payload.prefix(count)
            do {
                _ = try View(parsing: cut)
            } catch {
                #expect(allowed.contains(error.code), "prefix of \(count) bytes: \(error)")
                failures += 1
            }
        }
    }
    return failures / 2
}

/// The error `body` throws, which must be an ``NDEFError``.
func ndefError(
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) -> NDEFError? {
    #expect(throws: NDEFError.self, sourceLocation: sourceLocation) { try body() }
}

/// The JSON object `value` encodes to.
func jsonObject(_ value: some Encodable) throws -> [String: Any] {
    let data = try JSONEncoder().encode(value)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// The top-level keys of `value`'s JSON object.
func jsonKeys(_ value: some Encodable) throws -> Set<String> {
    Set(try jsonObject(value).keys)
}

/// `value` encoded to JSON and decoded back.
func jsonRoundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: try JSONEncoder().encode(value))
}

/// Decodes `json` text.
func decodeJSON<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

/// Checks an input the fuzz target once reported (`Scripts/fuzz`): the message `messageHex`
/// (decoded strictly, else leniently) must hold at least one record the registry interprets
/// with `view`, and each such value must come back unchanged from its JSON `value` and from the
/// record it builds. Returns the values, for further checks.
@discardableResult
func checkFuzzFinding<View: NDEFRecordConvertible>(
    _ view: View.Type,
    _ messageHex: String,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [View] {
    let input = hex(messageHex)
    let message: NFCNDEFMessage
    do {
        message = try NFCNDEFMessage(decoding: input)
    } catch {
        message = try NFCNDEFMessage.recovering(from: input).message
    }
    let read = message.records.filter { NDEFRecordRegistry.view(format: $0.typeNameFormat, type: $0.type) == View.self }
    let values = try read.compactMap { try $0.interpreted() as? View }
    #expect(!values.isEmpty, "no \(View.kind) record in the message", sourceLocation: sourceLocation)
    for value in values {
        _ = value.description
        #expect(try jsonRoundTrip(value) == value, "JSON value of \(value)", sourceLocation: sourceLocation)
        #expect(try View(parsing: value.makeRecord()) == value, "record of \(value)", sourceLocation: sourceLocation)
    }
    return values
}
