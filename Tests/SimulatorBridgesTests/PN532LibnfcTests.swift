import Foundation
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The real libnfc (Debian's 1.8.0, its `pn532_uart` driver) against ``PN532SerialSimulator``:
/// `nfc-list` and `nfc-mfultralight` run as subprocesses with
/// `LIBNFC_DEVICE=pn532_uart:<link>`, and what they print is checked against the simulated
/// tags. See ``LibnfcTools`` for when these tests run.
@Suite(.enabled(if: LibnfcTools.isEnabled, LibnfcTools.skipNote), .timeLimit(.minutes(3)))
struct PN532LibnfcTests {
    /// A started simulator over `field` with a link in `directory`.
    static func serve(_ field: SimulatedField, in directory: TemporaryDirectory) throws -> PN532SerialSimulator {
        let reader = SimulatedReader(field: field)
        let simulator = try PN532SerialSimulator(reader: reader, linkPath: directory.path("pn532"))
        try simulator.start()
        return simulator
    }

    /// The bytes as libnfc's tools print them: lower-case hex, two spaces apart (squeezed to one).
    static func columns(_ bytes: [UInt8]) -> String {
        bytes.map { hexText([$0]).lowercased() }.joined(separator: " ")
    }

    @Test("nfc-list shows the simulated NTAG215: UID, ATQA and SAK")
    func listsNTAG215() async throws {
        let directory = try TemporaryDirectory("libnfc")
        let simulator = try Self.serve(SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215))), in: directory)
        defer { simulator.stop() }
        let run = try await LibnfcTools.run("nfc-list", connstring: simulator.connstring)
        print("nfc-list against the simulated PN532 took \(run.duration)")
        #expect(run.status == 0, "\(run.output)")
        let output = run.squeezed
        #expect(output.contains("1 ISO14443A passive target(s) found"), "\(run.output)")
        #expect(output.contains("ATQA (SENS_RES): 00 44"))
        #expect(output.contains("UID (NFCID1): 04 51 7c a2 4b 35 80"))
        #expect(output.contains("SAK (SEL_RES): 00"))
        #expect(!output.lowercased().contains("error"), "\(run.output)")
        // What libnfc sends: set-up, listing, the probes of other modulations, power-down.
        let status = simulator.status
        for code: UInt8 in [0x00, 0x02, 0x06, 0x08, 0x12, 0x14, 0x16, 0x32, 0x42, 0x44, 0x4A, 0x52] {
            #expect(status.count(of: code) > 0, "command \(hexText([code])) was not sent")
        }
        #expect(status.refusedCount == 0)
        #expect(status.droppedFrameCount == 0)
    }

    @Test("nfc-list with a second tag in the field lists both")
    func listsTwoTags() async throws {
        let directory = try TemporaryDirectory("libnfc")
        let second = SimulatedType2Tag(chip: .ntag213, uid: hex("04A1B2C3D4E5F6"))
        let field = SimulatedField(tags: [.type2(SimulatedType2Tag(chip: .ntag215)), .type2(second)])
        let simulator = try Self.serve(field, in: directory)
        defer { simulator.stop() }
        let run = try await LibnfcTools.run("nfc-list", connstring: simulator.connstring)
        #expect(run.status == 0, "\(run.output)")
        let output = run.squeezed
        #expect(output.contains("2 ISO14443A passive target(s) found"), "\(run.output)")
        #expect(output.contains("UID (NFCID1): 04 51 7c a2 4b 35 80"))
        #expect(output.contains("UID (NFCID1): 04 a1 b2 c3 d4 e5 f6"))
    }

    @Test("nfc-list lists a Type 4 tag with its ATS")
    func listsType4() async throws {
        let directory = try TemporaryDirectory("libnfc")
        let tag = try SimulatedType4Tag(configuration: .init())
        let ats = try #require(SimulatedTag.type4(tag).ats)
        let simulator = try Self.serve(SimulatedField(.type4(tag)), in: directory)
        defer { simulator.stop() }
        let run = try await LibnfcTools.run("nfc-list", connstring: simulator.connstring)
        #expect(run.status == 0, "\(run.output)")
        let output = run.squeezed
        #expect(output.contains("1 ISO14443A passive target(s) found"), "\(run.output)")
        #expect(output.contains("ATQA (SENS_RES): " + Self.columns(SimulatedTag.type4(tag).atqa.reversed())))
        #expect(output.contains("UID (NFCID1): " + Self.columns(tag.uid)))
        #expect(output.contains("SAK (SEL_RES): 20"))
        // libnfc prints the ATS without its length byte TL.
        #expect(output.contains("ATS: " + Self.columns(Array(ats.dropFirst()))), "\(run.output)")
    }

    @Test("nfc-list finds nothing once the tag is taken out of the field")
    func removedTag() async throws {
        let directory = try TemporaryDirectory("libnfc")
        let simulator = try Self.serve(SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215))), in: directory)
        defer { simulator.stop() }
        simulator.removeTag()
        let run = try await LibnfcTools.run("nfc-list", connstring: simulator.connstring)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("NFC device: "), "\(run.output)")
        #expect(!run.output.contains("passive target(s) found"), "\(run.output)")
    }

    @Test("nfc-poll (InAutoPoll) finds the tag, and sees it go when it is taken out of the field")
    func pollsUntilRemoved() async throws {
        let directory = try TemporaryDirectory("libnfc")
        let simulator = try Self.serve(SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215))), in: directory)
        defer { simulator.stop() }
        // libnfc waits a fixed time for each answer: an nfc-poll that ended before finding the
        // tag (the served PN532 scheduled late) is started again, three runs at most.
        var poll = try LibnfcTools.Background("nfc-poll", [], connstring: simulator.connstring)
        var runs = 1
        var found = await poll.waitFor("Waiting for card removing")
        while !found && !poll.process.isRunning && runs < 3 {
            print("nfc-poll ended before it found the tag; again:\n\(poll.output)")
            poll = try LibnfcTools.Background("nfc-poll", [], connstring: simulator.connstring)
            runs += 1
            found = await poll.waitFor("Waiting for card removing")
        }
        #expect(found, "\(poll.output)")
        #expect(simulator.status.count(of: 0x60) == runs)
        simulator.removeTag()
        let run = await poll.finish()
        #expect(run.status == 0, "\(run.output)")
        let output = run.squeezed
        #expect(output.contains("UID (NFCID1): 04 51 7c a2 4b 35 80"), "\(run.output)")
        #expect(output.contains("done."), "\(run.output)")
    }

    @Test("nfc-mfultralight r dumps exactly the pages of the simulated NTAG215")
    func dumpsNTAG215() async throws {
        let directory = try TemporaryDirectory("libnfc")
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        // A URI record (NFC Forum Type 2 Tag 1.1 NDEF Message TLV) and a marker at the last user page.
        field.select(uid: SimulatedType2Tag.defaultUID)
        let message = hex("0311 D1010D55 0270726F 786D6172 6B2E636F 6DFE0000")
        for page in 0..<(message.count / 4) {
            _ = field.transceive([0xA2, UInt8(4 + page)] + message[(page * 4)..<(page * 4 + 4)])
        }
        _ = field.transceive(hex("A281CAFEF00D"))
        let tag = try #require(field.tags.first?.type2Tag)
        let simulator = try Self.serve(field, in: directory)
        defer { simulator.stop() }
        let file = directory.path("dump.mfd")
        let run = try await LibnfcTools.run("nfc-mfultralight", ["r", file], connstring: simulator.connstring)
        print("nfc-mfultralight r of an NTAG215 against the simulated PN532 took \(run.duration)")
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("NTAG215"), "\(run.output)")
        #expect(run.output.contains("Done, 135 of 135 pages read (0 pages failed)."), "\(run.output)")
        let dump = try directory.read("dump.mfd")
        #expect(dump.count == 135 * 4)
        // Every page as stored, but PWD (page 133), which reads back as 00 00 00 00.
        for page in 0..<135 {
            let stored = tag.page(page) ?? []
            let expected = page == 0x85 ? [0, 0, 0, 0] : stored
            #expect(Array(dump[(page * 4)..<(page * 4 + 4)]) == expected, "page \(page)")
        }
        #expect(Array(dump[16..<(16 + message.count)]) == message)
        #expect(Array(dump[(0x81 * 4)..<(0x82 * 4)]) == hex("CAFEF00D"))
    }
}
