import HexText
import NDEF
import TestSupport
import Testing

/// ``NDEFRecordSequence`` checks a message as ``NFCNDEFMessage/init(decoding:options:)`` does and
/// yields the same records: on valid messages, on every single-byte change of them (most of
/// which are invalid), and on generated chunked messages.
@Suite("NDEFRecordSequence: the same verdict and records as NFCNDEFMessage")
struct RecordSequenceTests {
    static let messages: [[UInt8]] =
        DecodingTests.validMessages + [
            JSONRoundTripTests.handChunked,
            hex("d7 00 02 abcd"),  // TNF 7 (kept as reserved) with a payload
            hex("b5 00 01 aa 56 00 01 bb"),  // chunked unknown record
            hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff 00"),  // a trailing byte
        ]

    @Test("On every message and every single-byte change of it", arguments: messages)
    func agrees(_ bytes: [UInt8]) {
        var inputs = [bytes]
        for index in bytes.indices {
            for value: UInt8 in [0x00, 0x10, 0x16, 0x36, 0x40, 0x80, 0xB1, 0xD1, 0xFF] {
                var changed = bytes
                changed[index] = value
                inputs.append(changed)
            }
        }
        inputs.append(Array(bytes.dropLast()))
        for input in inputs {
            Self.expectAgreement(input)
        }
    }

    @Test("On generated messages, chunked ones included", arguments: 0..<4)
    func generated(seed: UInt64) throws {
        var random = SeededRandom(seed: 0x5E9_0000 + seed)
        for _ in 0..<50 {
            let bytes = try JSONRoundTripTests.randomMessage(&random).encoded()
            Self.expectAgreement(bytes)
        }
    }

    @Test("Limits: the same record cap and the same error")
    func limits() throws {
        let two = hex("91 01 01 55 00 51 01 01 55 00")
        let options = NDEFDecodingOptions(maximumRecordCount: 1)
        #expect(throws: NDEFError(.tooManyRecords, at: 5, "")) {
            try NDEFRecordSequence(decoding: two, options: options)
        }
        #expect(Array(try NDEFRecordSequence(decoding: two)).count == 2)
    }

    @Test("Records are slices of the input, as NFCNDEFMessage's are")
    func sharesStorage() throws {
        let bytes = hex("d2 0a 03 746578742f706c61696e 616263")
        let record = try #require(Array(try NDEFRecordSequence(decoding: bytes)).first)
        let inputBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
        let payloadBase = record.payload.withUnsafeBufferPointer { $0.baseAddress }
        #expect(inputBase.map { $0 + record.payload.startIndex } == payloadBase)
        #expect(record.payload.startIndex == 13)
    }

    @Test("The examples in the documentation of NDEFRecordSequence and NDEFRecordView run as shown")
    func documentedExamples() throws {
        let bytes = hex("91 01 0c 55 04 6578616d706c652e636f6d 51 01 08 54 02 656e 48656c6c6f")
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        // NDEFRecordSequence
        for record in try NDEFRecordSequence(decoding: bytes) {
            if case .uri(let link)? = try record.view() { print(link.uri) }
        }
        // NDEFRecordView
        for record in try NFCNDEFMessage(decoding: bytes).records {
            switch try record.view() {
            case .uri(let link)?: print("link:", link.uri)
            case .text(let text)?: print("text (\(text.language)):", text.text)
            case let other?: print(other.value)
            case nil: print("a record no view reads:", record.typeString ?? "?")
            }
        }
        #expect(printed == ["https://example.com", "link: https://example.com", "text (en): Hello"])
    }

    /// The sequence and the message agree on `input`: both throw the same error, or both give
    /// the same records with the same chunk layout.
    static func expectAgreement(_ input: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let message = Result { () throws(NDEFError) in try NFCNDEFMessage(decoding: input) }
        let sequence = Result { () throws(NDEFError) in Array(try NDEFRecordSequence(decoding: input)) }
        switch (message, sequence) {
        case (.success(let message), .success(let records)):
            #expect(message.records == records, "\(Hex.encode(input))", sourceLocation: sourceLocation)
            #expect(
                message.records.map(\.chunkSizes) == records.map(\.chunkSizes), "\(Hex.encode(input))",
                sourceLocation: sourceLocation)
        case (.failure(let expected), .failure(let actual)):
            #expect(expected.code == actual.code, "\(Hex.encode(input))", sourceLocation: sourceLocation)
            #expect(expected.offset == actual.offset, "\(Hex.encode(input))", sourceLocation: sourceLocation)
            #expect(expected.reason == actual.reason, "\(Hex.encode(input))", sourceLocation: sourceLocation)
        default:
            Issue.record(
                "verdicts differ on \(Hex.encode(input)): \(message) vs \(sequence)", sourceLocation: sourceLocation
            )
        }
    }
}
