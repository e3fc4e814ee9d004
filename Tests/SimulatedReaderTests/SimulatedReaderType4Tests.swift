import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// `sim:type4`: a Type 4 tag through the reader contract.
@Suite("Simulated reader: Type 4 tags")
struct SimulatedReaderType4Tests {
    static let ok = hex("90 00")

    @Test("ISO/IEC 14443-3 6.4.3.4: sim:type4 polls as a Type 4 target (SAK 20) with the NTAG 424 DNA ATS")
    func poll() async throws {
        let reader = try await SimulatedReader(url: "sim:type4")
        let targets = try await reader.pollTargets()
        #expect(targets.count == 1)
        let target = try #require(targets.first)
        #expect(target.kind == .type4)
        #expect(target.uid == hex("04 3C 6A 92 2F 61 80"))
        #expect(target.atqa == hex("44 03") && target.sak == 0x20)
        #expect(target.ats == hex("06 77 77 71 02 80"))
    }

    @Test("T4T 3.0 5.4: SELECT, READ BINARY of the CC and UPDATE and READ BINARY of the NDEF file")
    func apdus() async throws {
        let reader = try await SimulatedReader(url: "sim:type4")
        try await reader.selectFirst()
        #expect(try await reader.openType4File("E1 03") == [Self.ok, Self.ok])
        #expect(
            try await reader.sendAPDU(hex("00 B0 00 00 0F"))
                == hex("00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 00 90 00"))
        #expect(try await reader.sendAPDU(hex("00 A4 00 0C 02 E1 04")) == Self.ok)
        // The URI record https://www.proxmark.com with its NLEN (T4T 3.0 5.2).
        let file = hex("00 11 D1 01 0D 55 02 70 72 6F 78 6D 61 72 6B 2E 63 6F 6D")
        #expect(try await reader.sendAPDU(hex("00 D6 00 00 13") + file) == Self.ok)
        #expect(try await reader.sendAPDU(hex("00 B0 00 00 13")) == file + Self.ok)
        // An offset past the file's 256 bytes (ISO/IEC 7816-4: 6B00).
        #expect(try await reader.sendAPDU(hex("00 B0 01 00 01")) == hex("6B 00"))
        #expect(reader.count(of: SimulatedType4Command.selectApplication) == 1)
        #expect(reader.count(of: SimulatedType4Command.updateBinary) == 1)
        #expect(reader.type4CommandCounts[.readBinary] == 3)
        #expect(reader.commandCounts.isEmpty)
    }

    @Test("T4T 3.0 5.4.2: v1=1 answers to the 1.0 application identifier D2760000850100 only")
    func versionOne() async throws {
        let reader = try await SimulatedReader(url: "sim:type4?v1=1")
        try await reader.selectFirst()
        #expect(try await reader.sendAPDU(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")) == hex("6A 82"))
        #expect(try await reader.openType4File("E1 03", version1: true) == [Self.ok, Self.ok])
        #expect(try await reader.sendAPDU(hex("00 B0 00 00 03")) == hex("00 0F 10 90 00"))
    }

    @Test("A Type 2 frame to a Type 4 tag, and an APDU to a Type 2 tag, are response errors that reach no tag")
    func wrongKindOfCommand() async throws {
        let type4 = try await SimulatedReader(url: "sim:type4?remove-after=1")
        try await type4.selectFirst()
        do {
            _ = try await type4.transceive([0x30, 0x04])
            Issue.record("a READ frame reached a Type 4 tag")
        } catch {
            #expect(error.code == .tagResponseError)
            #expect(error.reason.contains("Type 4 tag"), "\(error.reason)")
        }
        // The refused frame did not count towards remove-after: the tag leaves during the APDU.
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) { try await type4.openType4File() }
        let type2 = try await SimulatedReader(url: "sim:ntag215")
        try await type2.selectFirst()
        do {
            _ = try await type2.sendAPDU(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
            Issue.record("an APDU reached a Type 2 tag")
        } catch {
            #expect(error.code == .tagResponseError)
            #expect(error.reason.contains("Type 2 tag"), "\(error.reason)")
        }
        #expect(type2.withField { $0.totalCommandCount } == 0)
    }

    @Test(
        "remove-after on UPDATE BINARY: complete writes it, none leaves the old bytes, tear writes its first half",
        arguments: [
            ("complete", "00 00 AA BB CC DD EE FF 00"),
            ("none", "00 00 11 22 33 44 55 66 00"),
            ("tear", "00 00 AA BB CC 44 55 66 00"),
        ])
    func removeAfterWithOutcome(outcome: String, expected: String) async throws {
        let reader = try await SimulatedReader(url: "sim:type4?remove-after=4&in-flight=\(outcome)")
        try await reader.selectFirst()
        #expect(try await reader.openType4File() == [Self.ok, Self.ok])
        #expect(try await reader.sendAPDU(hex("00 D6 00 02 06 11 22 33 44 55 66")) == Self.ok)
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) {
            try await reader.sendAPDU(hex("00 D6 00 02 06 AA BB CC DD EE FF"))
        }
        #expect(reader.storedNDEFFile(9) == hex(expected))
        await #expect(throws: NFCReaderError(.tagConnectionLost, "")) {
            try await reader.sendAPDU(hex("00 B0 00 00 02"))
        }
        #expect(try await reader.pollTargets().isEmpty)
    }

    @Test("corrupt-every: a corrupted response APDU is a response error; the tag carried the command out")
    func corruptedResponse() async throws {
        let reader = try await SimulatedReader(url: "sim:type4?corrupt-every=3")
        try await reader.selectFirst()
        #expect(try await reader.openType4File() == [Self.ok, Self.ok])
        await #expect(throws: NFCReaderError(.tagResponseError, "")) {
            try await reader.sendAPDU(hex("00 D6 00 00 02 00 05"))
        }
        #expect(try await reader.sendAPDU(hex("00 B0 00 00 02")) == hex("00 05 90 00"))
        #expect(reader.storedNDEFFile(2) == hex("00 05"))
    }

    @Test("second-tag=1: two Type 4 tags are listed, each selected by its UID")
    func twoType4Tags() async throws {
        let reader = try await SimulatedReader(url: "sim:type4?second-tag=1&version=3")
        let targets = try await reader.pollTargets()
        #expect(targets.map(\.uid) == [hex("04 3C 6A 92 2F 61 80"), hex("04 3C 6A 92 2F 61 81")])
        #expect(targets.allSatisfy { $0.kind == .type4 && $0.ats == hex("06 77 77 71 02 80") })
        try await reader.select(targets[1])
        #expect(try await reader.openType4File("E1 03") == [Self.ok, Self.ok])
        // Version 3.0 CC: CCLEN 0011, version 30 (T4T 3.0 5.1).
        #expect(try await reader.sendAPDU(hex("00 B0 00 00 03")) == hex("00 11 30 90 00"))
        #expect(reader.withField { $0.tag(uid: targets[1].uid)?.type4CommandCounts[.readBinary] } == 1)
        #expect(reader.withField { $0.tag(uid: targets[0].uid)?.type4CommandCounts.isEmpty } == true)
    }

    @Test("A field of a Type 2 and a Type 4 tag lists both, with their kinds, and each takes its own commands")
    func mixedField() async throws {
        let field = SimulatedField(tags: [
            .type2(SimulatedType2Tag(chip: .ntag215)), .type4(try SimulatedType4Tag()),
        ])
        let reader = SimulatedReader(field: field)
        let targets = try await reader.pollTargets()
        #expect(targets.map(\.kind) == [.type2, .type4])
        #expect(targets.map(\.index) == [0, 1])
        #expect(targets.map(\.ats) == [nil, hex("06 77 77 71 02 80")])
        try await reader.select(targets[1])
        #expect(try await reader.openType4File() == [Self.ok, Self.ok])
        try await reader.select(targets[0])
        // NTAG215 CC (NTAG213/215/216 8.5.6).
        #expect(try await reader.read(3).prefix(4) == hex("E1 10 3E 00")[...])
        #expect(reader.count(of: .read) == 1)
        #expect(reader.count(of: SimulatedType4Command.selectFile) == 1)
    }
}
