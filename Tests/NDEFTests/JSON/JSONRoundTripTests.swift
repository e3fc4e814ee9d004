import Foundation
import HexText
import NDEF
import TestSupport
import Testing

/// `decode --json` then `encode --json` gives back every canonical message byte for byte,
/// chunked records included: the JSON keeps each chunk's payload size (`chunkSizes`), and the
/// encoder writes a record in its own chunk sizes (NDEF 1.0, 3.2.3).
@Suite("JSON round trip: byte for byte, chunk layout included")
struct JSONRoundTripTests {
    /// NDEF 1.0, 3.2.3: "Hello" chunked 2 + 0 + 3 (an empty middle chunk), then a record with an ID
    /// whose 300-byte payload is chunked 256 + 44 (a long first chunk, a short last one).
    static let handChunked: [UInt8] =
        [0xB1, 0x01, 0x02, 0x54, 0x02, 0x65]  // MB CF SR TNF 1, "T", "\u{02}e"
        + [0x36, 0x00, 0x00]  // CF SR TNF 6, empty chunk
        + [0x16, 0x00, 0x03, 0x6E, 0x48, 0x69]  // SR TNF 6, "nHi"
        + [0x2A, 0x0A, 0x00, 0x00, 0x01, 0x00, 0x01] + Array("text/plain".utf8) + [0x41]
        + [UInt8](repeating: 0x78, count: 256)  // CF IL TNF 2, long, ID "A"
        + [0x56, 0x00, 0x2C] + [UInt8](repeating: 0x79, count: 44)  // ME SR TNF 6

    @Test("A hand-chunked message survives decode, JSON and encode unchanged")
    func handChunkedMessage() throws {
        let message = try NFCNDEFMessage(decoding: Self.handChunked)
        #expect(message.records.map(\.chunkSizes) == [[2, 0, 3], [256, 44]])
        #expect(try Self.roundTrip(message) == Self.handChunked)
    }

    @Test("Generated messages: decode, JSON, encode is the identity", arguments: 0..<8)
    func generatedMessages(seed: UInt64) throws {
        var random = SeededRandom(seed: 0x5EED_0000 + seed)
        for _ in 0..<50 {
            let bytes = try Self.randomMessage(&random).encoded()
            let decoded = try NFCNDEFMessage(decoding: bytes)
            #expect(try Self.roundTrip(decoded) == bytes, "\(Hex.encode(bytes))")
        }
    }

    @Test("chunkSizes that do not add up to the payload are refused, in JSON and when encoding")
    func inconsistentLayouts() throws {
        var record = NFCNDEFPayload(format: .media, type: "text/plain", payload: Array("abc".utf8))
        record.chunkSizes = [1, 1]
        #expect(throws: NDEFError(.invalidChunkSize, "")) { try NFCNDEFMessage(records: [record]).encoded() }
        let json = #"{"records":[{"tnf":2,"type":"text/plain","payloadHex":"616263","chunkSizes":[1,1]}]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NFCNDEFMessage.self, from: Data(json.utf8)) }
        // An explicit chunk size wins over the record's own layout: 3 bytes need no chunk of 3.
        record.chunkSizes = [1, 2]
        #expect(
            try NFCNDEFMessage(records: [record]).encoded(chunkSize: 3) == [0xD2, 0x0A, 0x03]
                + Array("text/plainabc".utf8))
        #expect(try NFCNDEFMessage(records: [record]).encoded().first == 0xB2)
    }

    /// The message's JSON, decoded again and encoded.
    static func roundTrip(_ message: NFCNDEFMessage) throws -> [UInt8] {
        let json = try JSONEncoder().encode(message)
        return try JSONDecoder().decode(NFCNDEFMessage.self, from: json).encoded()
    }

    /// One to four records of TNF 1-5 with valid types, random IDs and payloads (some over 255
    /// bytes), about half of them in random chunks.
    static func randomMessage(_ random: inout SeededRandom) throws -> NFCNDEFMessage {
        let types: [(NFCTypeNameFormat, String)] = [
            (.nfcWellKnown, "T"), (.nfcWellKnown, "U"), (.media, "application/octet-stream"),
            (.absoluteURI, "urn:example:x"), (.nfcExternal, "example.com:t"), (.unknown, ""),
        ]
        var records: [NFCNDEFPayload] = []
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let (format, type) = types[Int.random(in: 0..<types.count, using: &random)]
            let length =
                Bool.random(using: &random)
                ? Int.random(in: 0...40, using: &random) : Int.random(in: 250...600, using: &random)
            let identifier = Bool.random(using: &random) ? random.bytes(Int.random(in: 1...8, using: &random)) : []
            var record = NFCNDEFPayload(
                format: format, type: Array(type.utf8), identifier: identifier, payload: random.bytes(length))
            if Bool.random(using: &random) {
                var sizes: [Int] = []
                var left = length
                while sizes.isEmpty || left > 0 {
                    let size = Int.random(in: 0...max(0, left), using: &random)
                    sizes.append(size)
                    left -= size
                }
                if sizes.count == 1 { sizes.append(0) }
                record.chunkSizes = sizes
            }
            records.append(record)
        }
        return NFCNDEFMessage(records: records)
    }
}
