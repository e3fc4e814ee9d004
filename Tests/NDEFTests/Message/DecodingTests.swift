import NDEF
import TestSupport
import Testing

@Suite("Message decoding")
struct DecodingTests {
    static let validMessages: [[UInt8]] = [
        hex("d1 01 0d 55 02 70726f786d61726b2e636f6d"),
        hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff"),
        hex("d0 00 00"),
        hex("ba 0a 03 01 746578742f706c61696e 31 616263 36 00 03 646566 56 00 01 67"),
        hex("c5 00 00 00 01 00") + Array(repeating: 0x5A, count: 256),
        hex("91 01 05 54 02 656e 6869 12 0a 03 746578742f706c61696e 616263 55 00 01 ff"),
    ]

    @Test("The two-record example decodes field by field")
    func twoRecords() throws {
        let message = try NFCNDEFMessage(decoding: hex("91 03 01 414243 00 59 03 01 01 58595a 30 ff"))
        #expect(message.records.count == 2)
        let second = try #require(message.records.last)
        #expect(second.typeNameFormat == .nfcWellKnown)
        #expect(second.typeString == "XYZ")
        #expect(second.identifierString == "0")
        #expect(Array(second.payload) == [0xFF])
    }

    @Test("Every proper prefix of a valid message fails cleanly; the whole message decodes", arguments: validMessages)
    func prefixes(_ bytes: [UInt8]) throws {
        for length in 0..<bytes.count {
            #expect(throws: NDEFError.self) { try NFCNDEFMessage(decoding: bytes[..<length]) }
            _ = try? NFCNDEFMessage.recovering(from: bytes[..<length])  // must not trap
        }
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(try NFCNDEFMessage(decoding: try message.encoded()) == message)
    }

    @Test("Every single-bit flip of a valid message decodes or fails cleanly", arguments: validMessages)
    func bitFlips(_ bytes: [UInt8]) {
        for index in bytes.indices {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[index] ^= 1 << bit
                if let message = try? NFCNDEFMessage(decoding: damaged) {
                    // TNF 7 is read, but not written again (NDEF 1.0, 3.2.6).
                    if message.records.contains(where: { $0.typeNameFormat == .reserved }) {
                        #expect(throws: NDEFError(.reservedTypeNameFormat, "")) { try message.encoded() }
                    } else {
                        #expect((try? NFCNDEFMessage(decoding: message.encoded(chunkSize: 64))) == message)
                    }
                }
                _ = try? NFCNDEFMessage.recovering(from: damaged)
            }
        }
    }

    @Test("Decoding a slice reports offsets from the slice start and keeps the payload in place")
    func sliceAndZeroCopy() throws {
        let buffer: [UInt8] =
            [0xEE, 0xEE] + hex("c2 18 00 01 00 00") + Array("application/octet-stream".utf8)
            + Array(repeating: 0x42, count: 65_536)
        let message = try NFCNDEFMessage(decoding: buffer[2...])
        let payload = try #require(message.records.first?.payload)
        #expect(payload.count == 65_536)
        let payloadAddress = payload.withUnsafeBufferPointer { $0.baseAddress }
        let expectedAddress = buffer.withUnsafeBufferPointer { $0.baseAddress.map { $0 + 2 + 6 + 24 } }
        #expect(payloadAddress == expectedAddress)

        #expect {
            _ = try NFCNDEFMessage(decoding: buffer[2..<40])
        } throws: { error in
            (error as? NDEFError)?.offset == 0
        }
    }

    @Test("A 32-bit payload length is honoured when the input holds it")
    func longPayload() throws {
        let size = 1 << 20
        let bytes = hex("c5 00") + [0x00, 0x10, 0x00, 0x00] + Array(repeating: 0x01, count: size)
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(message.records.first?.payload.count == size)
    }

    @Test("Chunks may have empty payloads (NDEF 1.0, 2.3.3)")
    func emptyChunks() throws {
        // Initial chunk text/plain with no data, an empty middle chunk, then the data.
        let message = try NFCNDEFMessage(decoding: hex("b2 0a 00 746578742f706c61696e 36 00 00 56 00 02 6869"))
        let record = try #require(message.records.first)
        #expect(message.records.count == 1)
        #expect(record.typeNameFormat == .media)
        #expect(record.typeString == "text/plain")
        #expect(Array(record.payload) == Array("hi".utf8))
        #expect(record.chunkCount == 3)
    }

    @Test("Many chunks are reassembled in time linear in the message size")
    func manyChunks() throws {
        // 16000 chunks of 1 KiB (within the default record cap): copying the growing payload for
        // every chunk (quadratic) moves about 130 GB and took half a minute; appending in place
        // moves each byte once. The work is weighed against that of 2000 chunks of the same size
        // on this thread's CPU clock (what other threads and processes do does not count): in
        // place 8 times the chunks cost about 8 times the work, copying the growing payload 64
        // times. No verdict on the machine's speed.
        let bytes = Self.chunkedRecord(chunks: 16_000, chunkSize: 1024)
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(message.records.count == 1)
        #expect(message.records.first?.payload.count == 16_000 * 1024)
        #expect(message.records.first?.chunkCount == 16_000)
        let eighth = Self.chunkedRecord(chunks: 2000, chunkSize: 1024)
        var large = Duration.seconds(1_000_000)
        var small = Duration.seconds(1_000_000)
        for _ in 0..<5 {  // the least of five runs: the work without interruptions
            large = min(large, try threadCPUTime { _ = try NFCNDEFMessage(decoding: bytes) })
            small = min(small, try threadCPUTime { _ = try NFCNDEFMessage(decoding: eighth) })
        }
        let ratio = large / max(small, .microseconds(1))
        #expect(ratio < 24, "8 times the chunks took \(ratio) times the CPU time (\(large) against \(small))")
    }

    /// One record (media type a/b) whose 1-byte-per-value payload is cut into `chunks` chunks of
    /// `chunkSize` bytes (NDEF 1.0, 2.3.3).
    static func chunkedRecord(chunks count: Int, chunkSize: Int) -> [UInt8] {
        let piece = [UInt8](repeating: 0x41, count: chunkSize)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * (piece.count + 9))
        for index in 0..<count {
            let first = index == 0
            let last = index == count - 1
            let flags: UInt8 = (first ? 0x80 : 0) | (last ? 0x40 : 0x20) | (first ? 0x02 : 0x06)
            let type: [UInt8] = first ? Array("a/b".utf8) : []
            let length = UInt32(chunkSize)
            bytes += [flags, UInt8(type.count)] + withUnsafeBytes(of: length.bigEndian, Array.init) + type + piece
        }
        return bytes
    }

    @Test("Errors describe themselves with code and offset")
    func errorDescription() {
        let error = NDEFError(.truncated, at: 7, "record 1: input ends")
        #expect(error.description == "record 1: input ends (at byte 7, truncated)")
    }
}
