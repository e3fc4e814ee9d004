import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Type 4 tags in a simulated field: identity, the APDU path, faults and counts.
@Suite("Simulated field: Type 4 tags")
struct SimulatedFieldType4Tests {
    static let uid = SimulatedType4Tag.defaultUID
    /// SELECT of the NDEF Tag Application, version 2.0 and later (T4T 3.0, 5.4.2), with Le 00.
    static let selectApplication = hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00")
    /// SELECT of the NDEF file E104 (T4T 3.0, 5.4.3), P2 0C.
    static let selectNDEFFile = hex("00 A4 00 0C 02 E1 04")
    static let ok: [UInt8] = [0x90, 0x00]

    /// A field with a selected factory Type 4 tag of `configuration` and `faults` armed.
    static func field(
        _ faults: SimulatedField.Faults, _ configuration: SimulatedType4Tag.Configuration = .init()
    ) throws -> SimulatedField {
        var field = SimulatedField(.type4(try SimulatedType4Tag(configuration: configuration)))
        field.arm(faults)
        field.select(uid: uid)
        return field
    }

    /// SELECTs the NDEF Tag Application and the NDEF file; true when both answer 9000.
    static func openNDEFFile(_ field: inout SimulatedField) -> Bool {
        field.transceiveAPDU(selectApplication) == .answer(ok) && field.transceiveAPDU(selectNDEFFile) == .answer(ok)
    }

    /// The first `count` bytes of the tag's NDEF file, in the field or removed.
    static func ndefFile(_ field: SimulatedField, _ count: Int) -> [UInt8]? {
        field.tag(uid: uid)?.type4Tag.map { Array($0.ndefFile.prefix(count)) }
    }

    @Test("ISO/IEC 14443-3 6.4.3.4, 14443-4 5.2: a Type 4 tag polls with ATQA 44 03, SAK 20 and its ATS")
    func identity() throws {
        var field = SimulatedField(.type4(try SimulatedType4Tag()))
        let listed = field.poll()
        #expect(listed.count == 1)
        #expect(listed.first?.uid == hex("04 3C 6A 92 2F 61 80"))
        #expect(listed.first?.atqa == hex("44 03"))
        #expect(listed.first?.sak == 0x20)
        // ISO/IEC 14443-4 5.2: TL 06, T0 77 (FSCI 7: 128 bytes), TA 77, TB 71, TC 02, historical byte 80,
        // as an NTAG 424 DNA answers.
        #expect(listed.first?.ats == hex("06 77 77 71 02 80"))
        #expect(listed.first?.type2Tag == nil && listed.first?.type4Tag != nil)
        #expect(
            listed.first?.summary == "Type 4 tag (mapping version 2.0, 256-byte NDEF file), UID 04:3C:6A:92:2F:61:80")
    }

    @Test("T4T 3.0 5.4: APDUs reach the selected tag; the CC file reads back as the NTAG 424 DNA default")
    func apduPath() throws {
        var field = try Self.field(.none)
        field.isRecordingCommands = true
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex("00 A4 00 0C 02 E1 03")) == .answer(Self.ok))
        #expect(
            field.transceiveAPDU(hex("00 B0 00 00 0F"))
                == .answer(hex("00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 00 90 00")))
        #expect(field.count(of: SimulatedType4Command.selectApplication) == 1)
        #expect(field.count(of: SimulatedType4Command.selectFile) == 1)
        #expect(field.count(of: .type4(.readBinary)) == 1)
        #expect(field.totalCommandCount == 3)
        #expect(field.log.map(\.command) == [.type4(.selectApplication), .type4(.selectFile), .type4(.readBinary)])
        #expect(field.log.allSatisfy { $0.fate == .answered && $0.uid == Self.uid })
        #expect(field.log.map(\.command.description) == ["SELECT_APPLICATION", "SELECT_FILE", "READ_BINARY"])
    }

    @Test("In flight, complete: the N-th UPDATE BINARY is written whole but not answered")
    func inFlightCompletes() throws {
        var field = try Self.field(.init(removeAfterCommands: 4, inFlight: .completes))
        #expect(Self.openNDEFFile(&field))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 04 11 22 33 44")) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 04 AA BB CC DD")) == .silent)
        #expect(field.tagsHaveLeft && field.tags.isEmpty)
        #expect(Self.ndefFile(field, 8) == hex("00 00 AA BB CC DD 00 00"))
        #expect(field.count(of: SimulatedType4Command.updateBinary) == 2)
    }

    @Test("In flight, none: the N-th UPDATE BINARY never reaches the tag and is not counted")
    func inFlightDoesNothing() throws {
        var field = try Self.field(.init(removeAfterCommands: 4, inFlight: .doesNothing))
        #expect(Self.openNDEFFile(&field))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 04 11 22 33 44")) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 04 AA BB CC DD")) == .silent)
        #expect(Self.ndefFile(field, 8) == hex("00 00 11 22 33 44 00 00"))
        #expect(field.count(of: SimulatedType4Command.updateBinary) == 1)
    }

    @Test(
        "In flight, tear: the first half of the data bytes (rounded down) is written, the rest keeps its old bytes",
        arguments: [
            ("00 D6 00 02 04 AA BB CC DD", "00 00 AA BB 33 44 55 66 77 00"),
            ("00 D6 00 02 07 A1 A2 A3 A4 A5 A6 A7", "00 00 A1 A2 A3 44 55 66 77 00"),
            ("00 D6 00 03 01 EE", "00 00 11 22 33 44 55 66 77 00"),
            ("00 D6 00 00 02 00 07", "00 00 11 22 33 44 55 66 77 00"),
            ("00 D6 00 00 02 01 07", "01 00 11 22 33 44 55 66 77 00"),
        ])
    func inFlightTears(update: String, expected: String) throws {
        var field = try Self.field(.init(removeAfterCommands: 4, inFlight: .tearsPage))
        #expect(Self.openNDEFFile(&field))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 07 11 22 33 44 55 66 77")) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex(update)) == .silent)
        #expect(Self.ndefFile(field, 10) == hex(expected))
        #expect(field.count(of: SimulatedType4Command.updateBinary) == 2)
        #expect(field.tag(uid: Self.uid)?.state == .idle)
    }

    @Test("In flight, tear: a D7 UPDATE BINARY (T4T 3.0 5.4.7) keeps half the bytes inside its data object")
    func inFlightTearsOffsetDataObject() throws {
        let configuration = SimulatedType4Tag.Configuration(mappingVersion: 0x30, maximumNDEFFileSize: 0x400)
        var field = try Self.field(.init(removeAfterCommands: 3, inFlight: .tearsPage), configuration)
        #expect(Self.openNDEFFile(&field))
        // Offset 000004, 5 data bytes: 2 are written.
        #expect(field.transceiveAPDU(hex("00 D7 00 00 0C 54 03 00 00 04 53 05 01 02 03 04 05")) == .silent)
        #expect(Self.ndefFile(field, 10) == hex("00 00 00 00 01 02 00 00 00 00"))
    }

    @Test("In flight, tear: a refused UPDATE BINARY (write access FF, T4T 3.0 5.1.2) writes nothing")
    func inFlightTearOfRefusedUpdate() throws {
        let configuration = SimulatedType4Tag.Configuration(writeAccess: .none)
        var field = try Self.field(.init(removeAfterCommands: 3, inFlight: .tearsPage), configuration)
        #expect(Self.openNDEFFile(&field))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 04 AA BB CC DD")) == .silent)
        #expect(Self.ndefFile(field, 8) == [UInt8](repeating: 0, count: 8))
        #expect(field.count(of: SimulatedType4Command.updateBinary) == 1)
    }

    @Test("In flight: a READ BINARY torn does nothing; a SELECT completed is carried out and counted")
    func inFlightOtherCommands() throws {
        var torn = try Self.field(.init(removeAfterCommands: 3, inFlight: .tearsPage))
        #expect(Self.openNDEFFile(&torn))
        #expect(torn.transceiveAPDU(hex("00 B0 00 00 02")) == .silent)
        #expect(torn.count(of: SimulatedType4Command.readBinary) == 0)
        var completed = try Self.field(.init(removeAfterCommands: 1, inFlight: .completes))
        #expect(completed.transceiveAPDU(Self.selectApplication) == .silent)
        #expect(completed.count(of: SimulatedType4Command.selectApplication) == 1)
        // The tag left the field: it lost its selection with its power.
        #expect(completed.tag(uid: Self.uid)?.type4Tag?.isApplicationSelected == false)
    }

    @Test("remove-after counts frames and APDUs alike; afterwards APDUs are lost until putBack()")
    func removeAfterCountsFramesAndAPDUs() throws {
        var field = try Self.field(.init(removeAfterCommands: 3))
        field.isRecordingCommands = true
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
        #expect(field.transceiveAPDU(Self.selectNDEFFile) == .silent)
        #expect(field.transceiveAPDU(Self.selectApplication) == .silent)
        #expect(
            field.log.map(\.fate) == [.unanswered, .answered, .inFlight(.doesNothing), .lost])
        #expect(field.log.first?.command == .type2(.read))
        field.putBack()
        #expect(field.select(uid: Self.uid) == true)
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
    }

    @Test("Every N-th answer arrives corrupted: the response APDU's first byte inverted (SW1 without data)")
    func corruptedAnswers() throws {
        var field = try Self.field(.init(corruptEveryNthResponse: 2))
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
        // 90h inverted is 6Fh; the tag carried the SELECT out all the same.
        #expect(field.transceiveAPDU(hex("00 A4 00 0C 02 E1 03")) == .corrupted(hex("6F 00")))
        #expect(field.transceiveAPDU(hex("00 B0 00 00 02")) == .answer(hex("00 0F 90 00")))
        #expect(field.transceiveAPDU(hex("00 B0 00 00 02")) == .corrupted(hex("FF 0F 90 00")))
        #expect(field.responsesSinceArmed == 4)
    }

    @Test("A Type 2 tag and a Type 4 tag: each answers only its own kind of command")
    func mixedField() throws {
        var field = SimulatedField(tags: [
            .type2(SimulatedType2Tag(chip: .ntag213)), .type4(try SimulatedType4Tag()),
        ])
        let listed = field.poll()
        #expect(listed.map(\.uid) == [SimulatedType2Tag.defaultUID, Self.uid])
        #expect(listed.map(\.sak) == [0x00, 0x20])
        #expect(listed.map(\.ats) == [nil, hex("06 77 77 71 02 80")])
        #expect(field.select(uid: Self.uid) == true)
        // A Type 2 READ to the Type 4 tag: ignored; the tag stays ACTIVE and counts nothing.
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.selectedTag?.isActive == true)
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
        #expect(field.select(uid: SimulatedType2Tag.defaultUID) == true)
        #expect(field.transceiveAPDU(Self.selectApplication) == .silent)
        // NTAG213 CC (NTAG213/215/216 8.5.6).
        #expect(field.transceive([0x30, 0x03]).answer?.bytes?.prefix(4) == hex("E1 10 12 00")[...])
        #expect(field.commandCounts == [.read: 1])
        #expect(field.type4CommandCounts == [.selectApplication: 1])
        #expect(field.allCommandCounts == [.type2(.read): 1, .type4(.selectApplication): 1])
        #expect(field.totalCommandCount == 2)
        field.resetCommandCounts()
        #expect(field.totalCommandCount == 0)
    }

    @Test("ISO/IEC 14443-3 6.3: a polled Type 4 tag is HALT; a new poll sends an ACTIVE one back to HALT")
    func haltAndPoll() throws {
        var field = SimulatedField(.type4(try SimulatedType4Tag()))
        #expect(field.poll().count == 1)
        #expect(field.poll(.reqa).isEmpty)
        #expect(field.select(uid: Self.uid) == true)
        #expect(field.transceiveAPDU(Self.selectApplication) == .answer(Self.ok))
        #expect(field.poll(.reqa).isEmpty)
        #expect(field.tag(uid: Self.uid)?.state == .halt)
        #expect(field.tag(uid: Self.uid)?.type4Tag?.isApplicationSelected == false)
        field.fieldOff()
        field.fieldOn()
        #expect(field.poll(.reqa).count == 1)
    }

    @Test("second-tag: a factory tag of the first Type 4 tag's configuration, the UID's last byte changed")
    func secondTag() throws {
        let configuration = SimulatedType4Tag.Configuration(mappingVersion: 0x30, maximumNDEFFileSize: 0x400)
        var field = SimulatedField(
            .type4(try SimulatedType4Tag(configuration: configuration, message: proxmarkMessage)))
        field.arm(.init(secondTag: true))
        let listed = field.poll()
        #expect(listed.map(\.uid) == [Self.uid, hex("04 3C 6A 92 2F 61 81")])
        var expected = configuration
        expected.uid = hex("04 3C 6A 92 2F 61 81")
        #expect(listed.last?.type4Tag?.configuration == expected)
        #expect(listed.last?.type4Tag?.ndefFile.allSatisfy { $0 == 0 } == true)
        field.disarm()
        #expect(field.poll().map(\.uid) == [Self.uid])
    }
}
