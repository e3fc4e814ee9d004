import NDEF
import TagMemory
import TestSupport
import Testing

/// Formatting a blank tag (NFC Forum Type 2 Tag 1.1, 6.1 and 6.3.1; datasheet factory content).
@Suite("Type 2 format plan")
struct Type2FormatPlanTests {
    /// The capacity of each formatted chip: the CC's data area less the Lock Control TLV and the
    /// NDEF TLV header (T2T 2.3.4).
    static let capacities: [String: Int] = [
        "MF0ICU1": 46, "MF0UL11": 46, "NT2L1011": 46, "MF0UL21": 126, "NT2L1211": 121, "NT2H1311": 137,
        "MF0ICU2": 142, "NT2H1511": 492, "NT2H1611": 868,
    ]

    @Test(
        "6.3.1: every chip formats to read/write, an empty message and the catalogue capacity",
        arguments: Type2ChipCatalogue.all)
    func formatEveryChip(_ chip: Type2Chip) throws {
        let blank = try Type2PlanSupport.factory(chip)
        let plan = try blank.formatPlan()
        let states = try Type2PlanSupport.states(of: blank, applying: plan)
        let formatted = try #require(states.last)
        #expect(
            formatted.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: Self.capacities[chip.typeCode] ?? -1))
        #expect(formatted.ndefMessageBytes == [] && formatted.problem == nil)
        #expect(formatted.page(3) == chip.ndefCapabilityContainer)
        // The CC is written last: until then a blank tag stays blank.
        for state in states.dropLast() { #expect(state.ndefStatus.status == blank.ndefStatus.status) }
        // Only the CC and data area pages.
        #expect(plan.steps.allSatisfy { $0.address == 3 || chip.userPages.contains($0.address) })
        // NXP formats NTAG21x at the factory: nothing to do; formatting again is a no-op.
        if chip.factoryCapabilityContainer.first == 0xE1 { #expect(plan.steps.isEmpty) }
        #expect(try formatted.formatPlan().steps.isEmpty)
    }

    @Test("MF0ICU1 8.5: a blank Ultralight gets 03 00 FE in page 4, then CC E1 10 06 00")
    func ultralightSteps() throws {
        let plan = try Type2PlanSupport.factory(.mifareUltralight).formatPlan()
        #expect(writtenPages(plan) == [4, 3])
        #expect(plan.steps.map(\.data) == [hex("03 00 fe 00"), hex("e1 10 06 00")])
        let ultralightC = try Type2PlanSupport.factory(.mifareUltralightC).formatPlan()
        #expect(ultralightC.steps.last?.data == hex("e1 10 12 00"))
    }

    @Test("T2T 2.1, NTAG213 8.5.6: page 3 is one-time programmable; a CC with extra bits cannot be formatted")
    func oneTimeProgrammableCC() throws {
        var bytes = try TagFixtures.load("ultralight-mf0icu1-factory.hex")
        bytes[15] = 0x0F  // write access Fh: read-only for good
        #expect(throws: TagMemoryError(.conflictingState, "")) {
            try Type2Memory(bytes: bytes, chip: .mifareUltralight).formatPlan()
        }
        // A CC with a subset of the wanted bits is completed.
        bytes.replaceSubrange(12..<16, with: hex("e1 00 02 00"))
        let plan = try Type2Memory(bytes: bytes, chip: .mifareUltralight).formatPlan()
        #expect(plan.steps.last?.data == hex("e1 10 06 00"))
    }

    @Test("Re-formatting an NTAG213 holding a message rewrites the NDEF TLV page only")
    func reformat() throws {
        let memory = try TagFixtures.memory("ntag213-short-message.hex")
        let plan = try memory.formatPlan()
        #expect(writtenPages(plan) == [5] && plan.steps.first?.data == hex("34 03 00 fe"))
        #expect(try memory.applying(plan).ndefMessageBytes == [])
    }

    @Test("Refusals: unknown chip, locked data page")
    func refusals() throws {
        let bytes = try TagFixtures.load("ultralight-mf0icu1-factory.hex")
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try Type2Memory(bytes: bytes).formatPlan() }
        var locked = bytes
        locked[10] = 0x10  // L4
        #expect(throws: TagMemoryError(.notWritable, "")) {
            try Type2Memory(bytes: locked, chip: .mifareUltralight).formatPlan()
        }
    }
}
