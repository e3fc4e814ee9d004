import NDEF
import TestSupport
import Testing

@Suite("Message encoding (NDEF 1.0, 3.2)")
struct EncodingTests {
    @Test("A URI record encodes with MB, ME and SR")
    func uriRecord() throws {
        let record = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("proxmark.com".utf8))
        let bytes = try NFCNDEFMessage(records: [record]).encoded()
        #expect(bytes == hex("d1 01 0d 55 02 70726f786d61726b2e636f6d"))
    }

    @Test("Two records: MB on the first, ME on the last, IL only where there is an ID")
    func twoRecordsWithIdentifier() throws {
        let first = NFCNDEFPayload(format: .nfcWellKnown, type: "ABC", payload: [0x00])
        let second = NFCNDEFPayload(format: .nfcWellKnown, type: "XYZ", identifier: [0x30], payload: [0xFF])
        let bytes = try NFCNDEFMessage(records: [first, second]).encoded()
        #expect(bytes == hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff"))
    }

    @Test("SR exactly when the payload is under 256 bytes", arguments: [0, 1, 255, 256, 257, 70_000])
    func shortRecordBoundary(size: Int) throws {
        let record = NFCNDEFPayload(format: .unknown, type: [], payload: Array(repeating: 0xAB, count: size))
        let bytes = try NFCNDEFMessage(records: [record]).encoded()
        let short = size < 256
        #expect(bytes[0] == (short ? 0xD5 : 0xC5))
        #expect(bytes.count == 2 + (short ? 1 : 4) + size)
        if !short {
            let length = bytes[2...5].reduce(0) { $0 << 8 | Int($1) }
            #expect(length == size)
        }
        #expect(try NFCNDEFMessage(decoding: bytes).records == [record])
        #expect(NFCNDEFMessage(records: [record]).length == bytes.count)
    }

    @Test("Chunking splits payloads into TNF 6 chunks; type and ID only on the first")
    func chunking() throws {
        let record = NFCNDEFPayload(
            format: .media, type: "text/plain", identifier: [0x31], payload: Array("abcdefg".utf8))
        let bytes = try NFCNDEFMessage(records: [record]).encoded(chunkSize: 3)
        let expected = hex(
            """
            ba 0a 03 01 746578742f706c61696e 31 616263
            36 00 03 646566
            56 00 01 67
            """
        )
        #expect(bytes == expected)
        let decoded = try NFCNDEFMessage(decoding: bytes)
        #expect(decoded.records == [record])
        #expect(decoded.records.first?.chunkCount == 3)
    }

    @Test("Chunked records between others keep MB and ME at the message ends")
    func chunkingInTheMiddle() throws {
        let small = NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: hex("02 656e 6869"))
        let large = NFCNDEFPayload(format: .unknown, type: [], payload: Array(repeating: 7, count: 600))
        let message = NFCNDEFMessage(records: [small, large, small])
        let bytes = try message.encoded(chunkSize: 256)
        #expect(try NFCNDEFMessage(decoding: bytes) == message)
        let recovered = try NFCNDEFMessage.recovering(from: bytes)
        #expect(recovered.isClean)
        #expect(recovered.message.records.map(\.chunkCount) == [1, 3, 1])
    }

    @Test("A payload no longer than the chunk size is not chunked")
    func chunkSizeNotReached() throws {
        let record = NFCNDEFPayload(format: .unknown, type: [], payload: [1, 2, 3])
        #expect(try NFCNDEFMessage(records: [record]).encoded(chunkSize: 3) == hex("d5 00 03 010203"))
    }

    @Test("Invalid records and messages are refused with the right code")
    func encodingErrors() {
        let cases: [([NFCNDEFPayload], NDEFError.Code)] = [
            ([], .emptyMessage),
            ([NFCNDEFPayload(format: .empty, type: [], payload: [1])], .emptyRecordNotEmpty),
            ([NFCNDEFPayload(format: .unknown, type: "x", payload: [])], .typeNotAllowed),
            ([NFCNDEFPayload(format: .unchanged, type: [], payload: [])], .unexpectedUnchanged),
            ([NFCNDEFPayload(format: .reserved, type: [], payload: [])], .reservedTypeNameFormat),
            ([NFCNDEFPayload(format: .nfcWellKnown, type: [], payload: [])], .missingType),
            ([NFCNDEFPayload(format: .media, type: Array(repeating: 0x61, count: 256), payload: [])], .typeTooLong),
            (
                [NFCNDEFPayload(format: .media, type: "a/b", identifier: Array(repeating: 1, count: 256), payload: [])],
                .identifierTooLong
            ),
        ]
        for (records, code) in cases {
            #expect(throws: NDEFError(code, "")) { try NFCNDEFMessage(records: records).encoded() }
        }
        let ok = NFCNDEFMessage(records: [.empty])
        #expect(throws: NDEFError(.invalidChunkSize, "")) { try ok.encoded(chunkSize: 0) }
    }

    @Test("The empty record encodes as D0 00 00")
    func emptyRecord() throws {
        #expect(try NFCNDEFMessage(records: [.empty]).encoded() == hex("d0 00 00"))
    }
}
