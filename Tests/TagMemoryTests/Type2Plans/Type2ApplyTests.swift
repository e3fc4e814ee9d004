import Foundation
import NDEF
import TagMemory
import TestSupport
import Testing

/// The page-write model (T2T 1.1 2.1 and 5.2; NTAG213/215/216 8.5; MF0ICU1 8.5).
@Suite("Type 2 page writes as the chip executes them")
struct Type2ApplyTests {
    @Test("NTAG213 8.5.2: WRITE to page 2 ORs bytes 2-3 into the lock bytes and leaves bytes 0-1")
    func staticLockPage() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let written = try memory.applyingWrite(page: 2, data: hex("00 00 30 01"))
        #expect(written.page(2) == hex("44 48 30 01"))
        #expect(written.isPageLocked(4) && written.isPageLocked(5) && written.isPageLocked(8))
        // One-time programmable: writing zeros clears nothing.
        #expect(try written.applyingWrite(page: 2, data: hex("ff ff 00 00")).page(2) == hex("44 48 30 01"))
        // BL 9-4 freezes L4-L9: a later L6 does not take.
        let frozen = try memory.applyingWrite(page: 2, data: hex("00 00 02 00"))
        #expect(try frozen.applyingWrite(page: 2, data: hex("00 00 40 04")).page(2) == hex("44 48 02 04"))
    }

    @Test("NTAG213 8.5.6: the CC is one-time programmable (OR) and refused once L-CC is set")
    func capabilityContainerPage() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let readOnly = try memory.applyingWrite(page: 3, data: hex("00 00 00 0f"))
        #expect(readOnly.page(3) == hex("e1 10 12 0f") && readOnly.ndefStatus.status == .readOnly)
        #expect(try readOnly.applyingWrite(page: 3, data: hex("e1 10 12 00")).page(3) == hex("e1 10 12 0f"))
        let locked = try memory.applyingWrite(page: 2, data: hex("00 00 08 00"))
        #expect(throws: TagMemoryError(.notWritable, "")) { try locked.applyingWrite(page: 3, data: hex("e1101200")) }
    }

    @Test("NTAG213 8.5.3: dynamic lock bytes are OR-ed; block-lock bits freeze; locked pages refuse WRITE")
    func dynamicLockPage() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let locked = try memory.applyingWrite(page: 0x28, data: hex("01 00 00 00"))
        #expect(locked.isPageLocked(16) && locked.isPageLocked(17) && !locked.isPageLocked(18))
        #expect(throws: TagMemoryError(.notWritable, "")) { try locked.applyingWrite(page: 17, data: hex("01020304")) }
        #expect(try locked.applyingWrite(page: 18, data: hex("01020304")).page(18) == hex("01 02 03 04"))
        // Byte 2 bit 1 freezes lock bits 2-3 (pages 20-23): setting bit 2 afterwards does nothing.
        let frozen = try memory.applyingWrite(page: 0x28, data: hex("00 00 02 00"))
        #expect(try frozen.applyingWrite(page: 0x28, data: hex("04 00 00 00")).page(0x28) == hex("00 00 02 00"))
        // Byte 3 is not a lock byte: a WRITE leaves it.
        #expect(try memory.applyingWrite(page: 0x28, data: hex("00 00 00 55")).page(0x28) == hex("00 00 00 00"))
    }

    @Test("Refusals: UID pages, pages past the chip, CFGLCK, AUTH0 without authentication, wrong sizes")
    func refusals() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        for page in [0, 1] {
            #expect(throws: TagMemoryError(.notWritable, "")) {
                try memory.applyingWrite(page: page, data: [0, 0, 0, 0])
            }
        }
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try memory.applyingWrite(page: 45, data: [0, 0, 0, 0])
        }
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try memory.applyingWrite(page: -1, data: [0, 0, 0, 0])
        }
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try memory.applyingWrite(page: 4, data: [0, 0, 0]) }
        let configurationLocked = try memory.applyingWrite(page: 0x2A, data: hex("40 00 00 00"))
        #expect(throws: TagMemoryError(.notWritable, "")) {
            try configurationLocked.applyingWrite(page: 0x29, data: hex("04 00 00 04"))
        }
        #expect(
            try configurationLocked.applyingWrite(page: 0x2B, data: hex("01 02 03 04")).page(0x2B) == hex("01020304"))
        let protected = try TagFixtures.memory("ntag213-password-protected.hex")
        #expect(throws: TagMemoryError(.notWritable, "")) { try protected.applyingWrite(page: 4, data: [0, 0, 0, 0]) }
        #expect(try protected.applyingWrite(page: 4, data: [0, 0, 0, 0], authenticated: true).page(4) == [0, 0, 0, 0])
        #expect(try protected.applyingWrite(page: 3, data: [0, 0, 0, 0]).page(3) == hex("e1 10 12 00"))
        let type4 = TagWritePlan(steps: [PlanStep(file: 0xE104, address: 0, data: [0, 0], reason: "")])
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try memory.applying(type4) }
        let partial = Type2Memory(bytes: Array(memory.bytes.prefix(40)), chip: .ntag213)
        #expect(throws: TagMemoryError(.truncatedImage, "")) {
            try partial.applyingWrite(page: 12, data: [0, 0, 0, 0])
        }
    }

    @Test("MF0ICU2 7.5.8: Ultralight C pages from AUTH0 (page 2Ah) need authentication")
    func ultralightCAuth0() throws {
        var memory = try Type2PlanSupport.formatted(.mifareUltralightC)
        #expect(memory.firstWriteProtectedPage == nil)
        memory = try memory.applyingWrite(page: 0x2A, data: hex("10 00 00 00"))
        #expect(memory.firstWriteProtectedPage == 16)
        #expect(try memory.writePlan(for: textMessage(count: 60)).requiresAuthentication)
        #expect(try !memory.writePlan(for: textMessage(count: 3)).requiresAuthentication)
    }

    @Test("Chip not in the catalogue: the Lock Control TLV's lock bytes are OR-ed, the rest of the page written")
    func unknownChip() throws {
        let memory = Type2Memory(bytes: try TagFixtures.load("ntag213-factory.hex"))
        let written = try memory.applyingWrite(page: 40, data: hex("01 00 aa bb"))
        #expect(written.page(40) == hex("01 00 aa bb") && written.isPageLocked(16))
        #expect(try written.applyingWrite(page: 40, data: hex("00 00 00 00")).page(40) == hex("01 00 00 00"))
    }

    @Test("Plans and steps as JSON: isSecret and requiresAuthentication round-trip, and default to false")
    func coding() throws {
        let plan = TagWritePlan(
            steps: [PlanStep(address: 43, data: [1, 2, 3, 4], reason: "PWD", isSecret: true)],
            requiresAuthentication: true)
        let data = try JSONEncoder().encode(plan)
        #expect(try JSONDecoder().decode(TagWritePlan.self, from: data) == plan)
        let old = Data(#"{"steps":[{"address":4,"data":[3,0,254,0],"reason":"empty"}]}"#.utf8)
        let decoded = try JSONDecoder().decode(TagWritePlan.self, from: old)
        #expect(!decoded.requiresAuthentication && decoded.steps.first?.isSecret == false)
        #expect(plan.description == "authenticate first (password-protected pages)\npage 43: ** ** ** **  (PWD)")
    }

    /// The memory after applying `plan` one step at a time, or the first step's error.
    static func stepwise(_ memory: Type2Memory, _ plan: TagWritePlan) -> Result<Type2Memory, TagMemoryError> {
        var current = memory
        for step in plan.steps {
            do {
                current = try current.applyingWrite(
                    page: step.address, data: step.data, authenticated: plan.requiresAuthentication)
            } catch {
                return .failure(error)
            }
        }
        return .success(current)
    }

    @Test(
        "applying(_:) of a whole plan equals applying its steps one by one, refusals included",
        arguments: [
            "ntag213-factory.hex", "ntag215-short-message.hex", "ntag215-dynamic-lock-bit.hex",
            "ntag213-static-lock-bit.hex", "ntag215-password-protected.hex",
        ])
    func wholePlanEqualsSteps(fixture: String) throws {
        let memory = try TagFixtures.memory(fixture)
        let chipless = Type2Memory(bytes: memory.bytes)
        var plans: [TagWritePlan] = []
        for length in [10, 60, 200] {
            let text = [UInt8](repeating: 0x61, count: length)
            let message = NFCNDEFMessage(records: [
                NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [4] + text)
            ])
            if let plan = try? memory.writePlan(for: message) { plans.append(plan) }
        }
        if let plan = try? memory.lockPlan() { plans.append(plan) }
        // User pages around lock writes: page 16 before and after the dynamic lock bits that
        // cover it (NTAG213/215/216 8.5.3), page 5 after the static lock bits (8.5.2).
        let dynamic = memory.chip?.dynamicLock?.page ?? 0x28
        plans.append(
            TagWritePlan(steps: [
                PlanStep(address: 16, data: hex("01 02 03 04"), reason: ""),
                PlanStep(address: dynamic, data: hex("FF 00 00 00"), reason: ""),
                PlanStep(address: 17, data: hex("05 06 07 08"), reason: ""),
            ]))
        plans.append(
            TagWritePlan(steps: [
                PlanStep(address: 6, data: hex("01 02 03 04"), reason: ""),
                PlanStep(address: 2, data: hex("00 00 F0 00"), reason: ""),
                PlanStep(address: 5, data: hex("05 06 07 08"), reason: ""),
            ]))
        for plan in plans {
            for start in [memory, chipless] {
                let whole = Result { () throws(TagMemoryError) in try start.applying(plan) }
                switch (whole, Self.stepwise(start, plan)) {
                case (.success(let left), .success(let right)): #expect(left == right)
                case (.failure(let left), .failure(let right)): #expect(left.code == right.code)
                default: Issue.record("\(fixture): applying(_:) and the steps disagree on \(plan.steps.map(\.address))")
                }
            }
        }
    }
}
