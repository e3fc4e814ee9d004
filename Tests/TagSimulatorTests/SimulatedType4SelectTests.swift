import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Simulated Type 4 tag: identity, states and SELECT")
struct SimulatedType4SelectTests {
    @Test("ISO/IEC 14443-3 6.4.2, 14443-4 5.2, NT4H2421Gx: ATQA 44 03, SAK 20, ATS 06 77 77 71 02 80 by default")
    func identity() throws {
        let tag = try SimulatedType4Tag()
        #expect(tag.uid == hex("04 3C 6A 92 2F 61 80"))
        #expect(tag.atqa == hex("44 03"))
        #expect(tag.sak == 0x20)
        #expect(tag.ats == hex("06 77 77 71 02 80"))
        #expect(tag.state == .idle)
    }

    @Test(
        "ISO/IEC 14443-3 6.4.2: the ATQA names the UID size; ISO/IEC 14443-4 5.2.3: FSCI rounds the frame size down",
        arguments: [
            ([UInt8](repeating: 0x08, count: 4), 16, "04 03", "06 70"),
            ([UInt8](repeating: 0x04, count: 7), 64, "44 03", "06 75"),
            ([UInt8](repeating: 0x04, count: 10), 255, "84 03", "06 77"),
            ([UInt8](repeating: 0x04, count: 7), 256, "44 03", "06 78"),
            ([UInt8](repeating: 0x04, count: 7), 4096, "44 03", "06 7C"),
        ])
    func identityVariants(uid: [UInt8], frameSize: Int, atqa: String, atsStart: String) throws {
        let tag = try SimulatedType4Tag(configuration: .init(uid: uid, frameSize: frameSize))
        #expect(tag.atqa == hex(atqa))
        #expect(Array(tag.ats.prefix(2)) == hex(atsStart))
    }

    @Test("T4T 3.0 5.4.2, 5.4.3: a version 2.0 SELECT sequence (application with Le, CC file, NDEF file)")
    func version2Sequence() throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == hex("90 00"))
        #expect(tag.isApplicationSelected)
        #expect(tag.selectedFile == nil)
        #expect(tag.send("00 A4 00 0C 02 E1 03") == hex("90 00"))
        #expect(tag.selectedFile == 0xE103)
        #expect(tag.send("00 B0 00 00 0F") == hex("00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 00 90 00"))
        #expect(tag.send("00 A4 00 0C 02 E1 04") == hex("90 00"))
        #expect(tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }

    @Test("T4T 3.0 5.4.2 (version 1.0 coexistence): a version 1.0 tag answers to D2760000850100 and SELECT P2 00")
    func version1Sequence() throws {
        var tag = try SimulatedType4Tag.active(type4Versions[0])
        #expect(tag.status("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == 0x6A82)
        #expect(!tag.isApplicationSelected)
        #expect(tag.send("00 A4 04 00 07 D2 76 00 00 85 01 00") == hex("90 00"))
        #expect(tag.send("00 A4 00 00 02 E1 03") == hex("90 00"))
        #expect(tag.send("00 B0 00 00 0F") == hex("00 0F 10 00 3B 00 34 04 06 E1 04 01 00 00 00 90 00"))
    }

    @Test(
        "T4T 3.0 5.4.2: version 2.0 does not answer to the version 1.0 name; NT4H2421Gx 10.9.1 keeps the selection"
    )
    func version2RefusesVersion1Name() throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.open(0xE104) == true)
        #expect(tag.status("00 A4 04 00 07 D2 76 00 00 85 01 00") == 0x6A82)
        #expect(tag.isApplicationSelected)
        #expect(tag.selectedFile == 0xE104)
        #expect(tag.status("00 A4 04 00 05 D2 76 00 00 85") == 0x6A82)
        #expect(tag.status("00 A4 04 00 00") == 0x6700)
    }

    @Test("T4T 3.0 5.4.3: file selection needs the application first, and names only E103 and the NDEF file")
    func fileSelection() throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.status("00 A4 00 0C 02 E1 03") == 0x6A82)
        #expect(tag.status("00 A4 00 0C 02 E1 04") == 0x6A82)
        #expect(tag.selectedFile == nil)
        #expect(tag.open(0xE103) == true)
        #expect(tag.status("00 A4 00 0C 02 E1 05") == 0x6A82)
        #expect(tag.selectedFile == 0xE103)
        #expect(tag.status("00 A4 00 0C 03 E1 04 00") == 0x6A87)
        #expect(tag.status("00 A4 00 00 02 E1 04") == 0x9000)
        #expect(tag.selectedFile == 0xE104)
    }

    @Test("T4T 3.0 5.1.2: a configured NDEF file identifier is the one SELECT finds")
    func customFileIdentifier() throws {
        var tag = try SimulatedType4Tag.active(.init(ndefFileIdentifier: 0x0001))
        #expect(tag.transceive(.selectNDEFApplication())?.isSuccess == true)
        #expect(tag.status("00 A4 00 0C 02 E1 04") == 0x6A82)
        #expect(tag.status("00 A4 00 0C 02 00 01") == 0x9000)
        #expect(tag.send("00 B0 00 00 02") == hex("00 00 90 00"))
    }

    @Test("ISO/IEC 7816-4 7.1.1, NT4H2421Gx 10.9.1: selecting the master file (3F00 or no data) leaves the application")
    func masterFile() throws {
        for command in ["00 A4 00 0C 02 3F 00", "00 A4 00 0C", "00 A4 00 00 00"] {
            var tag = try SimulatedType4Tag.active()
            #expect(tag.open(0xE104) == true)
            #expect(tag.status(command) == 0x9000, "\(command)")
            #expect(!tag.isApplicationSelected)
            #expect(tag.selectedFile == nil)
            #expect(tag.status("00 A4 00 0C 02 E1 04") == 0x6A82)
        }
    }

    @Test(
        "ISO/IEC 7816-4 (SELECT P1-P2), NT4H2421Gx 10.9.1: unsupported P1 or P2 answer 6A86",
        arguments: [
            "00 A4 01 0C 02 E1 04", "00 A4 08 0C 02 E1 04", "00 A4 00 04 02 E1 04",
            "00 A4 04 02 07 D2 76 00 00 85 01 01",
        ])
    func wrongParameters(command: String) throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.transceive(.selectNDEFApplication())?.isSuccess == true)
        #expect(tag.status(command) == 0x6A86)
        #expect(tag.isApplicationSelected)
    }

    @Test(
        "T4T 3.0 5.1: the CC file read back is what Type4CapabilityContainer builds and parses",
        arguments: [
            (type4Versions[0], "00 0F 10 00 3B 00 34 04 06 E1 04 01 00 00 00"),
            (type4Versions[1], "00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 00"),
            (type4Versions[2], "00 11 30 01 00 00 FF 06 08 E1 04 00 00 04 00 00 00"),
            (
                SimulatedType4Tag.Configuration(
                    maximumResponseDataSize: 0x3B, maximumCommandDataSize: 0x34, maximumNDEFFileSize: 0xFF,
                    readAccess: .granted, writeAccess: .none),
                "00 0F 20 00 3B 00 34 04 06 E1 04 00 FF 00 FF"
            ),
        ])
    func capabilityContainer(configuration: SimulatedType4Tag.Configuration, expected: String) throws {
        var tag = try SimulatedType4Tag.active(configuration)
        #expect(tag.open(0xE103) == true)
        let bytes = try #require(try tag.readFile(offset: 0, length: hex(expected).count))
        #expect(bytes == hex(expected))
        let cc = try Type4CapabilityContainer(parsing: bytes)
        #expect(cc == (try configuration.capabilityContainer()))
        #expect(cc.mappingVersion == configuration.mappingVersion)
        #expect(cc.maximumResponseDataSize == configuration.maximumResponseDataSize)
        #expect(cc.maximumCommandDataSize == configuration.maximumCommandDataSize)
        #expect(cc.ndefFile.fileIdentifier == configuration.ndefFileIdentifier)
        #expect(cc.ndefFile.maximumFileSize == configuration.maximumNDEFFileSize)
        #expect(cc.ndefFile.writeAccess == configuration.writeAccess)
        #expect(cc.messageLengthFieldSize == (configuration.majorVersion >= 3 ? 4 : 2))
        #expect(cc.conformanceIssues.isEmpty)
    }

    @Test("ISO/IEC 14443-3 state diagram: silent until select(), and after halt() or fieldOff() until select() again")
    func silentWhenNotActive() throws {
        var tag = try SimulatedType4Tag()
        #expect(tag.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == nil)
        tag.select()
        #expect(tag.state == .active)
        #expect(tag.open(0xE104) == true)
        tag.fieldOff()
        #expect(tag.state == .idle)
        #expect(!tag.isApplicationSelected)
        #expect(tag.selectedFile == nil)
        #expect(tag.send("00 B0 00 00 02") == nil)
        tag.select()
        #expect(tag.status("00 B0 00 00 02") == 0x6986)
        #expect(tag.open(0xE104) == true)
        tag.halt()
        #expect(tag.state == .halt)
        #expect(tag.send("00 B0 00 00 02") == nil)
        tag.select()
        #expect(tag.selectedFile == nil)
        #expect(tag.status("00 B0 00 00 02") == 0x6986)
    }

    @Test(
        "T4T 3.0 5.1: a configuration that makes no valid CC is refused",
        arguments: [
            SimulatedType4Tag.Configuration(uid: [0x04, 0x01, 0x02, 0x03, 0x04]),
            SimulatedType4Tag.Configuration(mappingVersion: 0x40),
            SimulatedType4Tag.Configuration(mappingVersion: 0x00),
            SimulatedType4Tag.Configuration(maximumResponseDataSize: 0x0E),
            SimulatedType4Tag.Configuration(maximumResponseDataSize: 0x1_0000),
            SimulatedType4Tag.Configuration(maximumCommandDataSize: 0),
            SimulatedType4Tag.Configuration(ndefFileIdentifier: 0xE103),
            SimulatedType4Tag.Configuration(ndefFileIdentifier: 0x3F00),
            SimulatedType4Tag.Configuration(maximumNDEFFileSize: 4),
            SimulatedType4Tag.Configuration(maximumNDEFFileSize: 0x8000),
            SimulatedType4Tag.Configuration(mappingVersion: 0x30, maximumNDEFFileSize: (1 << 20) + 1),
            SimulatedType4Tag.Configuration(writeAccess: Type4AccessCondition(rawValue: 0x01)),
            SimulatedType4Tag.Configuration(frameSize: 15),
        ])
    func invalidConfiguration(configuration: SimulatedType4Tag.Configuration) {
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try SimulatedType4Tag(configuration: configuration) }
    }

    @Test("T4T 3.0 5.2: initial contents longer than the NDEF file are refused")
    func contentTooLong() {
        let configuration = SimulatedType4Tag.Configuration(maximumNDEFFileSize: 0x10)
        #expect(throws: TagMemoryError(.insufficientCapacity, "")) {
            try SimulatedType4Tag(configuration: configuration, ndefFile: [UInt8](repeating: 0, count: 0x11))
        }
        #expect(throws: TagMemoryError(.insufficientCapacity, "")) {
            try SimulatedType4Tag(configuration: configuration, message: type4TextMessage(count: 20))
        }
    }
}
