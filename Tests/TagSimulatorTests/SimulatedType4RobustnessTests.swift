import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Simulated Type 4 tag: command counting and arbitrary APDUs")
struct SimulatedType4RobustnessTests {
    @Test("T4T 3.0 5.4: every APDU is counted by kind, answered or not, and recorded in order when asked")
    func counting() throws {
        var tag = try SimulatedType4Tag()
        #expect(tag.send("00 A4 04 00 07 D2 76 00 00 85 01 01 00") == nil)
        tag.select()
        tag.isRecordingCommands = true
        #expect(tag.open(0xE104) == true)
        #expect(tag.status("00 B0 00 00 02") == 0x9000)
        #expect(tag.status("00 D6 00 00 02 00 00") == 0x9000)
        #expect(tag.status("00 B1 00 00 05 54 03 00 00 00 02") == 0x6D00)
        #expect(tag.status("00 CA 00 00 00") == 0x6D00)
        #expect(tag.status("80 B0 00 00 02") == 0x6E00)
        #expect(tag.status("00") == 0x6700)
        #expect(tag.status("00 A4 00 0C 02 E1 03") == 0x9000)
        #expect(tag.count(of: .selectApplication) == 2)
        #expect(tag.count(of: .selectFile) == 2)
        #expect(tag.count(of: .readBinary) == 2)
        #expect(tag.count(of: .updateBinary) == 1)
        #expect(tag.count(of: .unknown) == 3)
        #expect(tag.totalCommandCount == 10)
        #expect(
            tag.recordedCommands == [
                .selectApplication, .selectFile, .readBinary, .updateBinary, .readBinary, .unknown, .unknown,
                .unknown, .selectFile,
            ])
        tag.resetCommandCounts()
        #expect(tag.totalCommandCount == 0)
        #expect(tag.recordedCommands.isEmpty)
    }

    @Test(
        "ISO/IEC 7816-4: command kinds come from CLA, INS and P1 (CLA 90h: NTAG 424 DNA native)",
        arguments: [
            ("00 A4 04 00", SimulatedType4Command.selectApplication), ("00 A4 00 0C", .selectFile),
            ("00 A4 03 00", .selectFile),
            ("00 B0 00 00", .readBinary), ("00 B1 00 00", .readBinary), ("00 D6 00 00", .updateBinary),
            ("00 D7 00 00", .updateBinary), ("00 A4 04", .unknown), ("90 A4 04 00", .native), ("90 60 00 00", .native),
            ("80 A4 04 00", .unknown), ("90 60 00", .unknown),
            ("00 0E 00 00", .unknown),
            ("", .unknown),
        ])
    func kinds(apdu: String, kind: SimulatedType4Command) {
        #expect(SimulatedType4Command(apdu: hex(apdu)) == kind)
    }

    @Test(
        "ISO/IEC 7816-4, T4T 3.0 5.4: random APDUs never trap, always end in a status word, keep the file sizes",
        arguments: type4Versions)
    func randomAPDUs(configuration: SimulatedType4Tag.Configuration) throws {
        var tag = try SimulatedType4Tag.active(configuration, message: proxmarkMessage)
        var generator = SeededRandom(seed: UInt64(configuration.mappingVersion) &* 0x9E37_79B9_7F4A_7C15 | 1)
        let instructions: [UInt8] = [0xA4, 0xB0, 0xB1, 0xD6, 0xD7, 0xCA, 0x00]
        let ccBefore = tag.capabilityContainerFile
        let size = tag.ndefFile.count
        var answered = 0
        for round in 0..<4000 {
            var apdu = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if apdu.count >= 4, Bool.random(using: &generator) {
                apdu[0] = 0x00
                apdu[1] = instructions[Int.random(in: 0..<instructions.count, using: &generator)]
                apdu[2] = UInt8.random(in: 0...1, using: &generator) * 4
            }
            if round % 50 == 0 { _ = tag.open(Bool.random(using: &generator) ? 0xE103 : 0xE104) }
            if let answer = tag.transceiveAPDU(apdu) {
                #expect(answer.count >= 2)
                answered += 1
            }
            if round % 700 == 0 { tag.applyPartialUpdate(apdu, keepingBytes: 2) }
            if tag.state != .active { tag.select() }
        }
        #expect(tag.totalCommandCount == 4000 + 2 * (4000 / 50) + (4000 + 699) / 700)
        #expect(answered == 4000)
        #expect(tag.capabilityContainerFile == ccBefore)
        #expect(tag.ndefFile.count == size)
    }
}
