import NDEF
import TagMemory
import TestSupport
import Testing

@Suite("Type 4 NDEF file (T4T 3.0, 5.2 and 5.5.1)")
struct Type4NDEFFileTests {
    static let uri = NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("proxmark.com".utf8))

    @Test("NLEN 0000 is an empty file: no message, status from the CC (5.2)")
    func empty() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        let file = try Type4NDEFFile(parsing: Type4Fixture.load("ndef-empty.hex").bytes, capabilityContainer: cc)
        #expect(file.message == nil)
        #expect(file.messageBytes.isEmpty)
        #expect(file.lengthFieldSize == 2)
        #expect(file.status == NDEFTagStatus(status: .readWrite, capacity: 253))
    }

    @Test("A short URI message after NLEN 0011, with the rest of the file ignored (5.2)")
    func shortMessage() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        let bytes = try Type4Fixture.load("ndef-uri-short.hex").bytes
        #expect(bytes.count == 19)
        let file = try Type4NDEFFile(parsing: bytes, capabilityContainer: cc)
        #expect(file.message == NFCNDEFMessage(records: [Self.uri]))
        // The whole 255-byte file, padded with zeros, reads the same.
        let whole = bytes + Array(repeating: 0, count: 255 - bytes.count)
        #expect(try Type4NDEFFile(parsing: whole, capabilityContainer: cc) == file)
    }

    @Test("A file filled exactly to the maximum size (NLEN = size - 2) reads (5.5.1)")
    func exactlyFull() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-small-32.hex")
        let bytes = try Type4Fixture.load("ndef-exactly-full.hex").bytes
        #expect(bytes.count == 32)
        let file = try Type4NDEFFile(parsing: bytes, capabilityContainer: cc)
        #expect(file.messageBytes.count == 30)
        #expect(file.status.capacity == 30)
        let text = try #require(file.message?.records.first)
        #expect(text.type.elementsEqual([0x54]))
        #expect(Array(text.payload.dropFirst(3)) == Array("exactly fills the file.".utf8))
    }

    @Test("ENLEN: a 4-byte length field with the Extended NDEF File Control TLV (5.2)")
    func extendedLength() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        let file = try Type4NDEFFile(parsing: Type4Fixture.load("ndef-enlen-uri.hex").bytes, capabilityContainer: cc)
        #expect(file.lengthFieldSize == 4)
        #expect(file.message == NFCNDEFMessage(records: [Self.uri]))
        #expect(file.status == NDEFTagStatus(status: .readWrite, capacity: 65532))
    }

    @Test("Hostile NDEF files fail with their documented error (5.2, 5.5.1)")
    func hostileFixtures() throws {
        let names = Type4Fixture.names(prefix: "hostile-ndef-")
        #expect(names.count >= 5)
        for name in names {
            let fixture = try Type4Fixture.load(name)
            let code = try #require(fixture.expectedError.flatMap(TagMemoryError.Code.init(rawValue:)), "\(name)")
            let cc = try Type4Fixture.capabilityContainer(try #require(fixture.capabilityContainerName, "\(name)"))
            #expect(throws: TagMemoryError(code, ""), "\(name)") {
                try Type4NDEFFile(parsing: fixture.bytes, capabilityContainer: cc)
            }
        }
    }

    @Test("A malformed message reports its offset in the file, after NLEN (5.2)")
    func malformedOffset() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        do {
            _ = try Type4NDEFFile(parsing: hex("0003112233"), capabilityContainer: cc)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .malformedMessage)
            #expect(error.offset == 2)
        }
        // The bytes stay available for a lenient reader.
        #expect(
            try Type4NDEFFile.messageBytes(in: hex("0003112233")[...], capabilityContainer: cc) == [
                0x11, 0x22, 0x33,
            ])
    }

    @Test("Every truncation of a valid NDEF file fails with truncated-image (5.2)")
    func truncations() throws {
        let pairs = [
            ("ndef-empty.hex", "cc-v2-example.hex"), ("ndef-uri-short.hex", "cc-v2-example.hex"),
            ("ndef-exactly-full.hex", "cc-v2-small-32.hex"), ("ndef-enlen-uri.hex", "cc-v3-extended.hex"),
        ]
        for (fileName, ccName) in pairs {
            let cc = try Type4Fixture.capabilityContainer(ccName)
            let bytes = try Type4Fixture.load(fileName).bytes
            let whole = try Type4NDEFFile(parsing: bytes, capabilityContainer: cc)
            for count in 0..<bytes.count {
                #expect(throws: TagMemoryError(.truncatedImage, ""), "\(fileName) cut to \(count)") {
                    try Type4NDEFFile(parsing: Array(bytes.prefix(count)), capabilityContainer: cc)
                }
            }
            let framed = [0xEE] + bytes + [0xEE]
            #expect(try Type4NDEFFile(parsing: framed[1..<(framed.count - 1)], capabilityContainer: cc) == whole)
        }
    }

    @Test("encoded(messageBytes:) writes NLEN or ENLEN then the message, within the capacity (5.2)")
    func encoding() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        let message = try NFCNDEFMessage(records: [Self.uri]).encoded()
        #expect(try Type4NDEFFile.encoded(messageBytes: message, capabilityContainer: cc) == hex("0011") + message)
        let v3 = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        #expect(
            try Type4NDEFFile.encoded(messageBytes: message, capabilityContainer: v3) == hex("00000011") + message)
        #expect(throws: TagMemoryError(.insufficientCapacity, "")) {
            try Type4NDEFFile.encoded(messageBytes: Array(repeating: 0, count: 254), capabilityContainer: cc)
        }
    }
}
