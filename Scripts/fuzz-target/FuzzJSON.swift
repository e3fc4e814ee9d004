// The JSON target of the NDEF fuzzer (-D NDEF_FUZZ_JSON): the Codable forms of messages and
// typed views must round-trip, and so must encoding and the hex form.
//
// The NDEF module itself uses no Foundation; only this test harness does, for its encoder.

import FoundationEssentials

/// The JSON target: what decodes, as JSON and re-encoded (plain and chunked), comes back unchanged.
func fuzzJSONAndEncoding(_ input: [UInt8]) {
    // A chunk size derived from the input, so chunked encoding is exercised too.
    let chunkSize = input.isEmpty ? 1 : 1 + Int(input[input.endIndex - 1] % 97)
    checkHex(input)
    let (strict, lenient) = decodeBoth(input)
    if let strict {
        checkJSON(strict, input: input)
        checkViewsJSON(strict, input: input)
        // Strict decoding keeps TNF 7 (read as unknown, NDEF 1.0, 3.2.6), which the encoder refuses.
        let encodable = !strict.records.contains { $0.typeNameFormat == .reserved }
        checkEncoding(strict, chunkSize: nil, mustEncode: encodable, input: input)
        checkEncoding(strict, chunkSize: chunkSize, mustEncode: encodable, input: input)
        // A canonical message (as the encoder writes it, chunk layout kept) comes back byte for byte.
        if let encoded = try? strict.encoded(), encoded == input,
            (try? JSONDecoder().decode(NFCNDEFMessage.self, from: JSONEncoder().encode(strict)).encoded()) != input
        {
            violated("decode, JSON, encode does not give back a canonical message", input)
        }
    } else if let lenient {
        checkJSON(lenient.message, input: input)
        checkViewsJSON(lenient.message, input: input)
        checkEncoding(lenient.message, chunkSize: nil, mustEncode: false, input: input)
    }
}

/// Every typed view of `message` that can be written: its JSON value must round-trip.
func checkViewsJSON(_ message: NFCNDEFMessage, input: [UInt8]) {
    for record in message.records {
        guard let value = try? record.interpreted(), (try? value.makeRecord()) != nil else { continue }
        checkViewJSON(value, input: input)
    }
}

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
