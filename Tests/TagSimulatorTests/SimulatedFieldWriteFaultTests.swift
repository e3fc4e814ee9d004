import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Injected write failures (a NAK, a write acknowledged but not stored) and a GET_VERSION answer
/// from outside the catalogue.
@Suite("Simulated field: write faults and GET_VERSION")
struct SimulatedFieldWriteFaultTests {
    static let uid = SimulatedType2Tag.defaultUID
    static let type4UID = SimulatedType4Tag.defaultUID
    static let ok: [UInt8] = [0x90, 0x00]

    /// A field with a selected factory NTAG215, recording its log, with `faults` armed.
    static func field(_ faults: SimulatedField.Faults) -> SimulatedField {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.isRecordingCommands = true
        field.arm(faults)
        field.select(uid: uid)
        return field
    }

    /// A field with a selected factory Type 4 tag whose NDEF file is selected, then `faults` armed.
    static func type4Field(_ faults: SimulatedField.Faults) throws -> SimulatedField {
        var field = SimulatedField(.type4(try SimulatedType4Tag()))
        field.isRecordingCommands = true
        field.select(uid: type4UID)
        _ = field.transceiveAPDU(hex("00 A4 04 00 07 D2 76 00 00 85 01 01 00"))
        _ = field.transceiveAPDU(hex("00 A4 00 0C 02 E1 04"))
        field.arm(faults)
        field.resetCommandCounts()
        return field
    }

    static func page(_ field: SimulatedField, _ page: Int) -> [UInt8]? {
        field.tag(uid: uid)?.type2Tag?.memory.page(page)
    }

    static func ndefFile(_ field: SimulatedField, _ count: Int) -> [UInt8]? {
        field.tag(uid: type4UID)?.type4Tag.map { Array($0.ndefFile.prefix(count)) }
    }

    @Test("NTAG213/215/216 9.3: nakWrite refuses the N-th WRITE (reads not counted) unwritten; the tag goes to IDLE")
    func nakWrite() {
        var field = Self.field(.init(nakWrite: 2))
        #expect(field.transceive([0x30, 0x04]).answer?.bytes?.count == 16)
        #expect(field.transceive([0xA2, 0x06, 1, 2, 3, 4]) == .answer(.ack))
        #expect(field.transceive([0x30, 0x04]).answer?.bytes?.count == 16)
        #expect(field.transceive([0xA2, 0x07, 5, 6, 7, 8]) == .answer(.nak(0x5)))
        #expect(Self.page(field, 6) == [1, 2, 3, 4])
        #expect(Self.page(field, 7) == [0, 0, 0, 0])
        #expect(field.selectedTag?.state == .idle)
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.log.map(\.fate) == [.answered, .answered, .answered, .writeRefused, .unanswered])
        #expect(field.log[3].bytes == [0xA2, 0x07, 5, 6, 7, 8])
        #expect(field.count(of: .write) == 2)
        #expect(field.writesSinceArmed == 2)
        // The fault fires once: the next write after a new selection is stored.
        field.select(uid: Self.uid)
        #expect(field.transceive([0xA2, 0x07, 5, 6, 7, 8]) == .answer(.ack))
        #expect(Self.page(field, 7) == [5, 6, 7, 8])
    }

    @Test("nakCode sets the NAK: 0h, as for a locked page; the data frame of a COMPATIBILITY_WRITE is the write")
    func nakCodeAndCompatibilityWrite() {
        var field = Self.field(.init(nakWrite: 1, nakCode: 0x0))
        #expect(field.transceive([0xA0, 0x06]) == .answer(.ack))
        let data: [UInt8] = [9, 9, 9, 9] + [UInt8](repeating: 0, count: 12)
        #expect(field.transceive(data) == .answer(.nak(0x0)))
        #expect(Self.page(field, 6) == [0, 0, 0, 0])
        #expect(field.count(of: .compatibilityWriteData) == 1)
    }

    @Test("T2T 1.1 5.2: loseWrite acknowledges the N-th WRITE without storing it; only a READ shows it")
    func loseWrite() {
        var field = Self.field(.init(loseWrite: 1))
        #expect(field.transceive([0xA2, 0x06, 1, 2, 3, 4]) == .answer(.ack))
        #expect(Self.page(field, 6) == [0, 0, 0, 0])
        #expect(field.selectedTag?.isActive == true)
        #expect(field.transceive([0x30, 0x06]).answer?.bytes?.prefix(4) == [0, 0, 0, 0])
        #expect(field.transceive([0xA2, 0x06, 1, 2, 3, 4]) == .answer(.ack))
        #expect(Self.page(field, 6) == [1, 2, 3, 4])
        #expect(field.log.map(\.fate) == [.writeNotStored, .answered, .answered])
    }

    @Test("A NAK and a lost write for the same write: the NAK wins; a WRITE to a HALT tag is not counted")
    func precedence() {
        var field = Self.field(.init(nakWrite: 1, loseWrite: 1))
        #expect(field.transceive([0xA2, 0x06, 1, 2, 3, 4]) == .answer(.nak(0x5)))
        // The tag is IDLE now: the next WRITE reaches no ACTIVE tag and is not a write.
        #expect(field.transceive([0xA2, 0x06, 1, 2, 3, 4]) == .silent)
        #expect(field.writesSinceArmed == 1)
    }

    @Test("T4T 3.0 5.4.5: nakWrite refuses the N-th UPDATE BINARY with 6581 unwritten; the file stays selected")
    func type4Nak() throws {
        var field = try Self.type4Field(.init(nakWrite: 1))
        #expect(field.transceiveAPDU(hex("00 B0 00 00 02")) == .answer(hex("00 00 90 00")))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 02 D1 01")) == .answer(hex("65 81")))
        #expect(Self.ndefFile(field, 4) == hex("00 00 00 00"))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 02 D1 01")) == .answer(Self.ok))
        #expect(Self.ndefFile(field, 4) == hex("00 00 D1 01"))
        #expect(field.log.map(\.fate) == [.answered, .writeRefused, .answered])
        var other = try Self.type4Field(.init(nakWrite: 1, nakStatusWord: 0x6982))
        #expect(other.transceiveAPDU(hex("00 D6 00 02 02 D1 01")) == .answer(hex("69 82")))
    }

    @Test("loseWrite answers the N-th UPDATE BINARY with 9000 and stores nothing; READ BINARY shows it")
    func type4Lose() throws {
        var field = try Self.type4Field(.init(loseWrite: 2))
        #expect(field.transceiveAPDU(hex("00 D6 00 02 02 D1 01")) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex("00 D6 00 00 02 00 02")) == .answer(Self.ok))
        #expect(field.transceiveAPDU(hex("00 B0 00 00 04")) == .answer(hex("00 00 D1 01 90 00")))
        #expect(field.count(of: SimulatedType4Command.updateBinary) == 2)
        #expect(field.log.map(\.fate) == [.answered, .writeNotStored, .answered])
    }

    @Test("NTAG213/215/216 10.1: versionAnswer replaces every GET_VERSION answer; a tag without GET_VERSION still NAKs")
    func versionAnswer() {
        let answer = hex("00 04 04 05 02 01 13 03")
        var field = Self.field(.init(versionAnswer: answer))
        #expect(field.transceive([0x60]) == .answer(.data(answer)))
        #expect(field.count(of: .getVersion) == 1)
        var ultralight = SimulatedField(.type2(SimulatedType2Tag(chip: .mifareUltralight)))
        ultralight.arm(.init(versionAnswer: answer))
        ultralight.select(uid: Self.uid)
        #expect(ultralight.transceive([0x60]) == .answer(.nak(0x0)))
        var garbled = Self.field(.init(versionAnswer: [0x00, 0x04]))
        #expect(garbled.transceive([0x60]) == .answer(.data([0x00, 0x04])))
    }

    @Test("The log keeps each frame's bytes; selectCount counts select(uid:), not polls")
    func logBytesAndSelections() {
        var field = Self.field(.none)
        #expect(field.selectCount == 1)
        field.poll()
        #expect(field.selectCount == 1)
        field.select(uid: Self.uid)
        _ = field.transceive([0x3A, 0x00, 0x03])
        #expect(field.log.map(\.bytes) == [[0x3A, 0x00, 0x03]])
        field.resetCommandCounts()
        #expect(field.log.isEmpty)
        #expect(field.selectCount == 2)
    }
}
