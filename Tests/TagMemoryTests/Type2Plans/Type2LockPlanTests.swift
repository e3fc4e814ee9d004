import NDEF
import TagMemory
import TestSupport
import Testing

/// The read-only plan (NFC Forum Type 2 Tag 1.1, 6.4.4; lock bytes 2.1.2, 2.2.2; datasheets).
@Suite("Type 2 lock plan")
struct Type2LockPlanTests {
    @Test(
        "6.4.4: CC first, then dynamic, then static lock bits; every prefix reads writable or read-only as it is",
        arguments: Type2ChipCatalogue.all)
    func lockEveryChip(_ chip: Type2Chip) throws {
        let formatted = try Type2PlanSupport.formatted(chip)
        let message = try #require(Type2PlanSupport.message(length: 30, seed: 5))
        let memory = try formatted.applying(formatted.writePlan(for: message))
        let plan = try memory.lockPlan()
        var expectedPages = [3]
        if let layout = chip.dynamicLock { expectedPages.append(layout.page) }
        expectedPages.append(2)
        #expect(writtenPages(plan) == expectedPages)
        #expect(!plan.requiresAuthentication)
        let states = try Type2PlanSupport.states(of: memory, applying: plan)
        for (index, state) in states.enumerated() {
            #expect(state.message == message, "\(chip.name), step \(index)")
            #expect(state.ndefStatus.status == (index == 0 ? .readWrite : .readOnly), "\(chip.name), step \(index)")
            if state.ndefStatus.status == .readWrite {
                let rewrite = try state.writePlan(for: textMessage(count: 5))
                #expect(try state.applying(rewrite).message == textMessage(count: 5))
            } else {
                #expect(throws: TagMemoryError(.notWritable, "")) { try state.writePlan(for: textMessage(count: 5)) }
            }
        }
        let locked = try #require(states.last)
        // Every user page and the CC are locked; the chip refuses WRITE to each.
        let userPages = Array(chip.userPages)
        #expect(userPages.allSatisfy(locked.isPageLocked) && locked.isPageLocked(3))
        for page in [3, chip.userPages.lowerBound, chip.userPages.upperBound] {
            #expect(throws: TagMemoryError(.notWritable, ""), "\(chip.name) page \(page)") {
                try locked.applyingWrite(page: page, data: [0, 0, 0, 0], authenticated: true)
            }
        }
        #expect(locked.staticLock == Type2StaticLock(lock0: 0xFF, lock1: 0xFF))
        #expect(try locked.lockPlan().steps.isEmpty, "\(chip.name): locking twice is a no-op")
    }

    @Test("NTAG213/215/216 8.5.2-8.5.3: the plan gives the read-only fixtures exactly (CC 0F, FF FF, all lock bits)")
    func matchesReadOnlyFixtures() throws {
        for name in ["ntag213", "ntag215", "ntag216"] {
            let memory = try TagFixtures.memory("\(name)-short-message.hex")
            let plan = try memory.lockPlan()
            let expected = try TagFixtures.load("\(name)-read-only.hex")
            #expect(try memory.applying(plan).bytes == expected, "\(name)")
        }
        let n213 = try TagFixtures.memory("ntag213-short-message.hex")
        #expect(
            try n213.lockPlan().steps.map(\.data) == [hex("e1 10 12 0f"), hex("ff 0f 3f 00"), hex("44 48 ff ff")])
    }

    @Test("Options: without block-lock bits the static bytes are F8 FF and NTAG213 byte 2 stays 00; CFGLCK last")
    func options() throws {
        let n213 = try TagFixtures.memory("ntag213-short-message.hex")
        let plan = try n213.lockPlan(options: Type2LockOptions(setsBlockLockBits: false))
        #expect(plan.steps.map(\.data) == [hex("e1 10 12 0f"), hex("ff 0f 00 00"), hex("44 48 f8 ff")])
        let locked = try n213.applying(plan)
        #expect(locked.ndefStatus.status == .readOnly && Array(4...39).allSatisfy(locked.isPageLocked))
        let n215 = try TagFixtures.memory("ntag215-short-message.hex")
        let withConfiguration = try n215.lockPlan(options: Type2LockOptions(locksConfiguration: true))
        #expect(withConfiguration.steps.last?.address == 0x84 && withConfiguration.steps.last?.data == hex("40000000"))
        #expect(try n215.applying(withConfiguration).configuration?.isConfigurationLocked == true)
        let ultralightC = try Type2PlanSupport.formatted(.mifareUltralightC)
        #expect(throws: TagMemoryError(.unsupportedChip, "")) {
            try ultralightC.lockPlan(options: Type2LockOptions(locksConfiguration: true))
        }
    }

    @Test("2.1.2, 8.5.3: a block-lock bit already freezing a needed lock bit at 0 is a conflict, named")
    func frozenLockBits() throws {
        var bytes = try TagFixtures.load("ntag213-short-message.hex")
        bytes[10] = 0x02  // BL 9-4 set, L4-L9 clear
        do {
            _ = try Type2Memory(bytes: bytes, chip: .ntag213).lockPlan()
            Issue.record("expected a conflict")
        } catch {
            #expect(error.code == .conflictingState && error.reason.contains("L4"))
        }
        bytes[10] = 0x00
        bytes[0x28 * 4 + 2] = 0x01  // dynamic BL for lock bits 0-1 (pages 16-19), both clear
        do {
            _ = try Type2Memory(bytes: bytes, chip: .ntag213).lockPlan()
            Issue.record("expected a conflict")
        } catch {
            #expect(error.code == .conflictingState && error.reason.contains("16...17"))
        }
        // Already set and frozen: nothing is missing, the plan goes on.
        bytes[0x28 * 4] = 0x03
        #expect(try Type2Memory(bytes: bytes, chip: .ntag213).lockPlan().steps.count == 3)
        // The CC page locked while the CC still grants writing: it cannot become read-only.
        bytes[10] = 0x08
        #expect(throws: TagMemoryError(.conflictingState, "")) {
            try Type2Memory(bytes: bytes, chip: .ntag213).lockPlan()
        }
        // A frozen L-CC bit is not needed for the data area: the plan leaves it and goes on.
        bytes[10] = 0x01
        let plan = try Type2Memory(bytes: bytes, chip: .ntag213).lockPlan()
        #expect(try Type2Memory(bytes: bytes, chip: .ntag213).applying(plan).staticLock?.lock0 == 0xF7)
    }

    @Test("2.3.2: a chip not in the catalogue is locked through its Lock Control TLV; without one it is refused")
    func unknownChip() throws {
        let bytes = try TagFixtures.load("ntag213-short-message.hex")
        let memory = Type2Memory(bytes: bytes)
        let plan = try memory.lockPlan()
        // 12 lock bits at byte 160 (01 03 A0 0C 34): FF 0F.
        #expect(writtenPages(plan) == [3, 40, 2] && plan.steps[1].data == hex("ff 0f 00 00"))
        #expect(try memory.applying(plan).ndefStatus.status == .readOnly)
        let n215 = Type2Memory(bytes: try TagFixtures.load("ntag215-short-message.hex"))
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try n215.lockPlan() }
        #expect(throws: TagMemoryError(.notFormatted, "")) {
            try Type2PlanSupport.factory(.mifareUltralight).lockPlan()
        }
    }

    @Test("NTAG21x 8.8.1: lock pages at or after AUTH0 need authentication")
    func protectedLockPage() throws {
        let memory = try TagFixtures.memory("ntag213-password-protected.hex")
        let plan = try memory.lockPlan()
        #expect(plan.requiresAuthentication)
        #expect(throws: TagMemoryError(.notWritable, "")) { try memory.applying(plan, authenticated: false) }
        #expect(try memory.applying(plan).ndefStatus.status == .readOnly)
    }
}
