import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Injected faults: tags leaving the field mid-command, corrupted answers, a second tag.
@Suite("Simulated field: faults")
struct SimulatedFieldFaultTests {
    static let uid = SimulatedType2Tag.defaultUID

    /// A field with a selected factory NTAG215 and `faults` armed.
    static func field(_ faults: SimulatedField.Faults) -> SimulatedField {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(faults)
        field.select(uid: uid)
        return field
    }

    /// WRITE A2h `page` `data`.
    static func write(_ page: UInt8, _ data: String) -> [UInt8] { [0xA2, page] + hex(data) }

    /// Page `page` of the tag, as stored (PWD and PACK included).
    static func page(_ field: SimulatedField, _ page: Int) -> [UInt8]? {
        field.tag(uid: uid)?.type2Tag?.memory.page(page)
    }

    @Test("In flight, complete: the N-th WRITE is carried out but not answered")
    func inFlightCompletes() {
        var field = Self.field(.init(removeAfterCommands: 2, inFlight: .completes))
        #expect(field.transceive(Self.write(6, "11 22 33 44")) == .answer(.ack))
        #expect(field.transceive(Self.write(6, "AA BB CC DD")) == .silent)
        #expect(field.tagsHaveLeft)
        #expect(field.tags.isEmpty)
        #expect(Self.page(field, 6) == hex("AA BB CC DD"))
        #expect(field.count(of: .write) == 2)
    }

    @Test("In flight, none: the N-th WRITE never reaches the tag")
    func inFlightDoesNothing() {
        var field = Self.field(.init(removeAfterCommands: 2, inFlight: .doesNothing))
        #expect(field.transceive(Self.write(6, "11 22 33 44")) == .answer(.ack))
        #expect(field.transceive(Self.write(6, "AA BB CC DD")) == .silent)
        #expect(Self.page(field, 6) == hex("11 22 33 44"))
        #expect(field.count(of: .write) == 1)
    }

    @Test("In flight, tear (NTAG213/215/216 10.4: user pages are not tearing-protected): bytes 0-1 new, 2-3 old")
    func inFlightTearsUserPage() {
        var field = Self.field(.init(removeAfterCommands: 2, inFlight: .tearsPage))
        #expect(field.transceive(Self.write(6, "11 22 33 44")) == .answer(.ack))
        #expect(field.transceive(Self.write(6, "AA BB CC DD")) == .silent)
        #expect(Self.page(field, 6) == hex("AA BB 33 44"))
    }

    @Test("In flight, tear: the data frame of a COMPATIBILITY_WRITE tears its page the same way")
    func inFlightTearsCompatibilityWrite() {
        var field = Self.field(.init(removeAfterCommands: 2, inFlight: .tearsPage))
        #expect(field.transceive([0xA0, 0x81]) == .answer(.ack))
        let data = hex("01 02 03 04") + [UInt8](repeating: 0xEE, count: 12)
        #expect(field.transceive(data) == .silent)
        // Page 81h, the last NTAG215 user page, was 00 00 00 00.
        #expect(Self.page(field, 0x81) == hex("01 02 00 00"))
    }

    @Test(
        "In flight, tear: CC and dynamic lock pages (NTAG213/215/216 10.4, tearing-protected) keep the old content",
        arguments: [(3, "02 01 00 0F"), (0x82, "FF FF FF 00")])
    func inFlightTearLeavesProtectedPages(page: Int, data: String) {
        // Uninterrupted, the WRITE is accepted, and tearing it would have left a page unlike the old one.
        var plain = Self.field(.none)
        let before = Self.page(plain, page)
        #expect(plain.transceive(Self.write(UInt8(page), data)) == .answer(.ack))
        let after = Self.page(plain, page)
        #expect(after.map { Array($0.prefix(2)) + Array((before ?? []).suffix(2)) } != before)
        var field = Self.field(.init(removeAfterCommands: 1, inFlight: .tearsPage))
        #expect(field.transceive(Self.write(UInt8(page), data)) == .silent)
        #expect(Self.page(field, page) == before)
    }

    @Test(
        "In flight, tear: the configuration pages, which NTAG213/215/216 10.4 does not list as protected, tear too",
        arguments: [
            (0x83, "04 00 00 04", "04 00 00 FF"), (0x84, "07 00 11 22", "07 00 00 00"),
            (0x85, "12 34 56 78", "12 34 FF FF"),
        ])
    func inFlightTearsConfigurationPages(page: Int, data: String, torn: String) {
        // NTAG215 as delivered: CFG0 04 00 00 FF, CFG1 00 00 00 00, PWD FF FF FF FF (8.5.7).
        var field = Self.field(.init(removeAfterCommands: 1, inFlight: .tearsPage))
        #expect(field.transceive(Self.write(UInt8(page), data)) == .silent)
        #expect(Self.page(field, page) == hex(torn))
    }

    @Test("In flight, tear: a READ or a refused WRITE changes nothing")
    func inFlightTearOfOtherCommands() {
        var read = Self.field(.init(removeAfterCommands: 1, inFlight: .tearsPage))
        let before = read.tag(uid: Self.uid)?.type2Tag?.bytes
        #expect(read.transceive([0x30, 0x04]) == .silent)
        #expect(read.tag(uid: Self.uid)?.type2Tag?.bytes == before)
        // Page 0 is read-only (NTAG213/215/216 8.5.1): the tag would refuse the WRITE.
        var refused = Self.field(.init(removeAfterCommands: 1, inFlight: .tearsPage))
        #expect(refused.transceive(Self.write(0, "00 00 00 00")) == .silent)
        #expect(refused.tag(uid: Self.uid)?.type2Tag?.bytes == before)
    }

    @Test("After the tags leave, every command is unanswered until putBack(); then they wait in IDLE")
    func silentUntilPutBack() {
        var field = Self.field(.init(removeAfterCommands: 1))
        field.isRecordingCommands = true
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.poll().isEmpty)
        let selected1 = field.select(uid: Self.uid)
        #expect(!selected1)
        #expect(field.log.map(\.fate) == [.inFlight(.doesNothing), .lost])
        field.putBack()
        #expect(field.tag(uid: Self.uid)?.type2Tag?.state == .idle)
        #expect(field.transceive([0x30, 0x04]) == .silent)
        #expect(field.poll(.reqa).count == 1)
        let selected2 = field.select(uid: Self.uid)
        #expect(selected2)
        // The removal fires once per arming.
        for _ in 0..<3 { #expect(field.transceive([0x30, 0x04]).answer != nil) }
    }

    @Test("remove-after 0: the tags are out as soon as the faults are armed")
    func removeAtOnce() {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag213)))
        field.arm(.init(removeAfterCommands: 0))
        #expect(field.poll().isEmpty)
        #expect(field.removedTags.count == 1)
    }

    @Test("Every N-th answer arrives corrupted: data with its first byte inverted, a 4-bit ACK as it is")
    func corruptedAnswers() {
        var field = Self.field(.init(corruptEveryNthResponse: 2))
        // Page 3 of a factory NTAG215: E1 10 3E 00 (NTAG213/215/216 8.5.6).
        #expect(field.transceive([0x30, 0x03]).answer?.bytes?.prefix(4) == hex("E1 10 3E 00")[...])
        let second = field.transceive([0x30, 0x03])
        guard case .corrupted(.data(let bytes)) = second else {
            Issue.record("expected a corrupted answer, got \(second)")
            return
        }
        #expect(bytes.prefix(4) == hex("1E 10 3E 00")[...])
        #expect(field.transceive(Self.write(6, "01 02 03 04")) == .answer(.ack))
        #expect(field.transceive(Self.write(6, "01 02 03 04")) == .corrupted(.ack))
        // Unanswered commands are not answers: they do not count.
        field.select(uid: hex("04 00 00 00 00 00 00"))
        #expect(field.transceive([0x30, 0x03]) == .silent)
        #expect(field.responsesSinceArmed == 4)
    }

    @Test("second-tag: arming puts a tag of the same chip with another UID in the field, disarming takes it out")
    func secondTag() {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag213)))
        field.arm(.init(secondTag: true))
        let listed = field.poll()
        #expect(listed.count == 2)
        #expect(listed.last?.type2Tag?.chip == .ntag213)
        #expect(listed.last?.uid == hex("04 51 7C A2 4B 35 81"))
        field.disarm()
        #expect(field.poll().map(\.uid) == [Self.uid])
    }
}
