import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Two tags in one field: polling, anticollision listing and selection (ISO/IEC 14443-3).
@Suite("Simulated field: polling and selection")
struct SimulatedFieldTests {
    static let firstUID = hex("04 51 7C A2 4B 35 80")
    static let secondUID = hex("04 11 22 33 44 55 66")

    /// A field with an NTAG215 and an NTAG213, in that order.
    static func twoTags() -> SimulatedField {
        SimulatedField(tags: [
            .type2(SimulatedType2Tag(chip: .ntag215, uid: firstUID)),
            .type2(SimulatedType2Tag(chip: .ntag213, uid: secondUID)),
        ])
    }

    /// The ISO/IEC 14443-3 state of the tag with `uid`.
    static func state(_ field: SimulatedField, _ uid: [UInt8]) -> SimulatedType2Tag.State? {
        field.tag(uid: uid)?.type2Tag?.state
    }

    @Test("ISO/IEC 14443-3 6.4: the anticollision loop lists both tags one by one and leaves them HALT")
    func listsTwoTags() {
        var field = Self.twoTags()
        let listed = field.poll(.reqa)
        #expect(listed.map(\.uid) == [Self.firstUID, Self.secondUID])
        #expect(Self.state(field, Self.firstUID) == .halt)
        #expect(Self.state(field, Self.secondUID) == .halt)
        #expect(field.selectedTag == nil)
    }

    @Test("ISO/IEC 14443-3 6.4: a loop that stops after one tag leaves the other IDLE for the next REQA")
    func listsOneAtATime() {
        var field = Self.twoTags()
        #expect(field.poll(.reqa, limit: 1).map(\.uid) == [Self.firstUID])
        #expect(Self.state(field, Self.firstUID) == .halt)
        #expect(Self.state(field, Self.secondUID) == .idle)
        #expect(field.poll(.reqa, limit: 1).map(\.uid) == [Self.secondUID])
        #expect(field.poll(.reqa, limit: 1).isEmpty)
        #expect(field.poll(.wupa, limit: 0).isEmpty)
        #expect(field.poll(.wupa, limit: 2, uid: Self.secondUID).map(\.uid) == [Self.secondUID])
        #expect(Self.state(field, Self.firstUID) == .halt)
        #expect(field.poll(.wupa, limit: 2, uid: hex("04 00 00 00 00 00 00")).isEmpty)
    }

    @Test("ISO/IEC 14443-3 6.3.2: HALT tags do not answer REQA but answer WUPA")
    func haltedTagsAnswerOnlyWUPA() {
        var field = Self.twoTags()
        field.poll(.reqa)
        #expect(field.poll(.reqa).isEmpty)
        #expect(field.poll(.wupa).map(\.uid) == [Self.firstUID, Self.secondUID])
        field.fieldOff()
        field.fieldOn()
        #expect(field.poll(.reqa).count == 2)
    }

    @Test("ISO/IEC 14443-3 6.4: after listing, selecting by UID wakes that tag (WUPA) and only it answers")
    func selectByUIDAfterListing() {
        var field = Self.twoTags()
        field.poll()
        let selected1 = field.select(uid: Self.secondUID)
        #expect(selected1)
        #expect(Self.state(field, Self.secondUID) == .active)
        #expect(Self.state(field, Self.firstUID) == .halt)
        // NTAG213 page 3 holds the CC E1 10 12 00 (NTAG213/215/216 8.5.6).
        let answer = field.transceive([0x30, 0x03]).answer?.bytes
        #expect(answer.map { Array($0.prefix(4)) } == hex("E1 10 12 00"))
        #expect(field.tag(uid: Self.secondUID)?.type2CommandCounts[.read] == 1)
        #expect(field.tag(uid: Self.firstUID)?.type2CommandCounts[.read] == nil)
    }

    @Test("ISO/IEC 14443-3 6.4: selecting another tag sends the ACTIVE one back to its waiting state")
    func selectingAnotherTag() {
        var field = Self.twoTags()
        let selected2 = field.select(uid: Self.firstUID)
        #expect(selected2)
        let selected3 = field.select(uid: Self.secondUID)
        #expect(selected3)
        #expect(Self.state(field, Self.firstUID) == .idle)
        #expect(field.selectedTag?.uid == Self.secondUID)
        // NTAG215 CC E1 10 3E 00: the frame went to the NTAG213 instead.
        #expect(field.transceive([0x30, 0x03]).answer?.bytes.map { Array($0.prefix(4)) } == hex("E1 10 12 00"))
    }

    @Test("ISO/IEC 14443-3: an unknown UID, a field that is off, or no selection gives no answer")
    func nothingSelected() {
        var field = Self.twoTags()
        #expect(field.transceive([0x30, 0x00]) == .silent)
        let selected4 = field.select(uid: hex("04 00 00 00 00 00 01"))
        #expect(!selected4)
        field.fieldOff()
        let selected5 = field.select(uid: Self.firstUID)
        #expect(!selected5)
        #expect(field.poll().isEmpty)
        #expect(field.transceive([0x30, 0x00]) == .silent)
    }

    @Test("NTAG213/215/216 9.3: after a NAK the selected tag is IDLE and stays silent until selected again")
    func nakEndsTheSelection() {
        var field = Self.twoTags()
        field.select(uid: Self.firstUID)
        #expect(field.transceive([0x30, 0xFF]) == .answer(.nak(0)))
        #expect(field.transceive([0x30, 0x00]) == .silent)
        field.select(uid: Self.firstUID)
        #expect(field.transceive([0x30, 0x00]).answer?.bytes?.count == 16)
    }

    @Test("A field holds one tag per UID; remove(uid:) takes a tag out")
    func insertAndRemove() {
        var field = Self.twoTags()
        let inserted6 = field.insert(.type2(SimulatedType2Tag(chip: .ntag216, uid: Self.firstUID)))
        #expect(!inserted6)
        #expect(field.tags.count == 2)
        let removed = field.remove(uid: Self.firstUID)
        #expect(removed?.type2Tag?.chip == .ntag215)
        #expect(field.poll().map(\.uid) == [Self.secondUID])
        let inserted7 = field.insert(.type2(SimulatedType2Tag(chip: .ntag216, uid: Self.firstUID)))
        #expect(inserted7)
        #expect(field.tags.map(\.uid) == [Self.secondUID, Self.firstUID])
    }

    @Test("NTAG213/215/216 9.3 and 9.4: a Type 2 tag reports ATQA 0044h (44 00 as received) and SAK 00h")
    func identity() {
        let tag = SimulatedTag.type2(SimulatedType2Tag(chip: .mifareUltralight, uid: Self.secondUID))
        #expect(tag.uid == Self.secondUID)
        #expect(tag.atqa == hex("44 00"))
        #expect(tag.sak == 0x00)
        #expect(tag.ats == nil)
    }

    @Test("Command counts add up over every tag in the field, and the log keeps the order")
    func countsAndLog() {
        var field = Self.twoTags()
        field.isRecordingCommands = true
        field.select(uid: Self.firstUID)
        _ = field.transceive([0x30, 0x00])
        _ = field.transceive([0x60])
        field.select(uid: Self.secondUID)
        _ = field.transceive([0x30, 0x04])
        _ = field.transceive([0xA2, 0x04, 0x01, 0x02, 0x03, 0x04])
        #expect(field.count(of: .read) == 2)
        #expect(field.count(of: .getVersion) == 1)
        #expect(field.count(of: .write) == 1)
        #expect(field.totalCommandCount == 4)
        #expect(
            field.log.map(\.command) == [.type2(.read), .type2(.getVersion), .type2(.read), .type2(.write)])
        #expect(field.log.map(\.uid) == [Self.firstUID, Self.firstUID, Self.secondUID, Self.secondUID])
        #expect(field.log.allSatisfy { $0.fate == .answered })
        field.resetCommandCounts()
        #expect(field.totalCommandCount == 0)
        #expect(field.log.isEmpty)
    }
}
