// JSON checks for the NDEF fuzz target: the Codable forms must round-trip.
//
// The NDEF module itself uses no Foundation; only this test harness does, for its encoder.

import FoundationEssentials

/// Encodes `message` as JSON and decodes it back: the records must be unchanged.
func checkJSON(_ message: NFCNDEFMessage, input: [UInt8]) {
    let data: Data
    do {
        data = try JSONEncoder().encode(message)
    } catch {
        violated("JSON encoding of a message throws: \(error)", input)
    }
    let decoded: NFCNDEFMessage
    do {
        decoded = try JSONDecoder().decode(NFCNDEFMessage.self, from: data)
    } catch {
        violated("JSON of a message does not decode: \(error)", input)
    }
    if decoded != message { violated("JSON encode then decode changed the message", input) }
}

/// Encodes a typed value as its JSON `value` object and decodes it back: it must be unchanged.
func checkViewJSON<View: NDEFRecordConvertible>(_ value: View, input: [UInt8]) {
    let data: Data
    do {
        data = try JSONEncoder().encode(value)
    } catch {
        violated("\(View.kind): JSON encoding throws: \(error)", input)
    }
    let decoded: View
    do {
        decoded = try JSONDecoder().decode(View.self, from: data)
    } catch {
        violated("\(View.kind): its JSON value does not decode: \(error)", input)
    }
    if decoded != value { violated("\(View.kind): JSON encode then decode changed the value", input) }
}
