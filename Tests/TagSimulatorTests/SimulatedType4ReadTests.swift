import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Simulated Type 4 tag: READ BINARY and malformed commands")
struct SimulatedType4ReadTests {
    @Test("T4T 3.0 5.5.6: a preloaded message reads back as NLEN then the bytes of ndef-uri-short.hex")
    func preloadedMessage() throws {
        var tag = try SimulatedType4Tag.active(message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B0 00 00 02") == hex("00 11 90 00"))
        #expect(tag.send("00 B0 00 02 11") == hex("D1 01 0D 55 02 70 72 6F 78 6D 61 72 6B 2E 63 6F 6D 90 00"))
        let file = try tag.fileImages.ndefFile()
        #expect(file.message == proxmarkMessage)
        #expect(file.status == NDEFTagStatus(status: .readWrite, capacity: 254))
    }

    @Test(
        "T4T 3.0 5.5.1, 5.5.6: NDEF detection and read through TagMemory's read plan, in MLe-sized pieces",
        arguments: type4Versions)
    func readPlan(configuration: SimulatedType4Tag.Configuration) throws {
        var small = configuration
        small.maximumResponseDataSize = 0x0F
        let message = type4TextMessage(count: 150)
        var tag = try SimulatedType4Tag.active(small, message: message)
        #expect(tag.open(0xE103) == true)
        let cclen = try #require(try tag.readFile(offset: 0, length: 2))
        let cc = try Type4CapabilityContainer(
            parsing: cclen + (try #require(try tag.readPieces(offset: 2, length: Int(cclen[1]) - 2, piece: 15))))
        #expect(
            tag.transceive(.selectFile(cc.ndefFile.fileIdentifier, majorVersion: cc.majorVersion))?.isSuccess == true)
        let lengthField = try #require(try tag.readFile(offset: 0, length: cc.messageLengthFieldSize))
        let length = try Type4NDEFFile.messageLength(in: lengthField[...], capabilityContainer: cc)
        let plan = try cc.readPlan(messageLength: length)
        var image = lengthField
        for read in plan.dropFirst() {
            image += try #require(try tag.readFile(offset: read.offset, length: read.length))
        }
        #expect(plan.count == 1 + (length + 14) / 15)
        #expect(try Type4NDEFFile(parsing: image, capabilityContainer: cc).message == message)
    }

    @Test("ISO/IEC 7816-4 READ BINARY, NT4H2421Gx 10.9.2: a read reaching the end returns the bytes up to it with 9000")
    func readPastEnd() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumNDEFFileSize: 0x20), message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B0 00 1D 0A") == hex("00 00 00 90 00"))
        #expect(tag.send("00 B0 00 1F 00") == hex("00 90 00"))
        #expect(tag.status("00 B0 00 20 01") == 0x6B00)
        #expect(tag.status("00 B0 7F FF 01") == 0x6B00)
        #expect(tag.open(0xE103) == true)
        #expect(tag.send("00 B0 00 0E 05") == hex("00 90 00"))
        #expect(tag.status("00 B0 00 0F 01") == 0x6B00)
    }

    @Test("ISO/IEC 7816-4 READ BINARY: with the end-of-file warning on, a short read answers 6282, but not for Le 00")
    func endOfFileWarning() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumNDEFFileSize: 0x20, reportsEndOfFile: true))
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B0 00 1D 0A") == hex("00 00 00 62 82"))
        #expect(tag.send("00 B0 00 1D 03") == hex("00 00 00 90 00"))
        #expect(tag.send("00 B0 00 1D 00") == hex("00 00 00 90 00"))
    }

    @Test("T4T 3.0 5.4.4: Le above MLe answers 6700, Le 00 (256) included when MLe is smaller")
    func leAboveMLe() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumResponseDataSize: 0x3B))
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B0 00 00 3B")?.count == 0x3B + 2)
        #expect(tag.status("00 B0 00 00 3C") == 0x6700)
        #expect(tag.status("00 B0 00 00 00") == 0x6700)
        var ntag = try SimulatedType4Tag.active()
        #expect(ntag.open(0xE104) == true)
        #expect(ntag.send("00 B0 00 00 00")?.count == 256 + 2)
    }

    @Test("T4T 3.0 5.1.2: read access other than 00 refuses READ BINARY of the NDEF file with 6982, not of the CC")
    func readAccess() throws {
        for access: UInt8 in [0xFF, 0x80, 0xFE] {
            var tag = try SimulatedType4Tag.active(.init(readAccess: Type4AccessCondition(rawValue: access)))
            #expect(tag.open(0xE104) == true)
            #expect(tag.status("00 B0 00 00 02") == 0x6982)
            #expect(tag.open(0xE103) == true)
            #expect(tag.status("00 B0 00 00 0F") == 0x9000)
        }
    }

    @Test(
        "ISO/IEC 7816-4 5.1 and status words: malformed or unsupported commands",
        arguments: [
            ("", 0x6700), ("00", 0x6700), ("00 B0 00", 0x6700),
            ("80 B0 00 00 02", 0x6E00), ("90 60 00 00 00", 0x6E00), ("FF CA 00 00 00", 0x6E00),
            ("00 CA 00 00 00", 0x6D00), ("00 B2 01 04 00", 0x6D00), ("00 B1 00 00 05 54 03 00 00 00 02", 0x6D00),
            ("00 D7 00 00 06 54 03 00 00 00 53", 0x6D00),
            ("00 B0 00 00", 0x6700), ("00 B0 00 00 01 00", 0x6700), ("00 B0 00 00 01 00 02", 0x6700),
            ("00 B0 81 00 02", 0x6A86), ("00 A4 04 00 07 D2 76 00", 0x6700),
            ("00 A4 04 00 07 D2 76 00 00 85 01 01 00 00", 0x6700),
            ("00 B0 00 00 00 00 10", 0x6700), ("00 B0 00 00 00 00", 0x6700),
        ])
    func malformed(command: String, status: Int) throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.open(0xE104) == true)
        let before = tag.ndefFile
        #expect(tag.status(command) == UInt16(status))
        #expect(tag.ndefFile == before)
        #expect(tag.state == .active)
    }

    @Test("T4T 3.0 5.4.4, ISO/IEC 7816-4 6.1: READ BINARY with no file selected answers 6986")
    func noFileSelected() throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.status("00 B0 00 00 02") == 0x6986)
        #expect(tag.transceive(.selectNDEFApplication())?.isSuccess == true)
        #expect(tag.status("00 B0 00 00 02") == 0x6986)
    }

    @Test("ISO/IEC 7816-4 5.1: extended Le is refused unless MLe or MLc needs it, then reads more than 256 bytes")
    func extendedLength() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumResponseDataSize: 0x0400, maximumNDEFFileSize: 0x0800))
        #expect(tag.open(0xE104) == true)
        let sent = tag.send("00 B0 00 00 00 04 00")
        let answer = try #require(sent)
        #expect(answer.count == 0x0400 + 2)
        #expect(answer.suffix(2) == hex("90 00"))
        #expect(tag.status("00 B0 00 00 00 04 01") == 0x6700)
        #expect(try tag.readFile(offset: 0x10, length: 0x300)?.count == 0x300)
    }

    @Test("T4T 3.0 5.4.6: READ BINARY B1 with an offset data object answers a 53 data object (version 3.0)")
    func readWithOffsetDataObject() throws {
        let configuration = SimulatedType4Tag.Configuration(mappingVersion: 0x30, maximumNDEFFileSize: 0x9000)
        var content = [UInt8](repeating: 0, count: 0x9000)
        content[0x8000] = 0xAB
        content[0x8FFF] = 0xCD
        var tag = try SimulatedType4Tag(configuration: configuration, ndefFile: content)
        tag.select()
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B1 00 00 05 54 03 00 80 00 04") == hex("53 02 AB 00 90 00"))
        #expect(tag.send("00 B1 00 00 05 54 03 00 8F FF 10") == hex("53 01 CD 90 00"))
        let sent = tag.send("00 B1 00 00 05 54 03 00 80 00 00")
        let long = try #require(sent)
        #expect(Array(long.prefix(4)) == hex("53 81 FD AB"))
        #expect(long.count == 256 + 2)
        #expect(tag.status("00 B1 00 00 05 54 03 00 90 00 04") == 0x6B00)
        #expect(tag.status("00 B1 00 00 05 54 02 00 80 00 04") == 0x6A80)
        #expect(tag.status("00 B1 00 00 06 54 03 00 80 00 00 04") == 0x6A80)
        #expect(tag.status("00 B1 E1 04 05 54 03 00 80 00 04") == 0x6A86)
        #expect(tag.status("00 B1 00 00 05 54 03 00 80 00") == 0x6700)
        #expect(tag.status("00 B1 00 00 05 54 03 00 80 00 01") == 0x6700)
    }
}
