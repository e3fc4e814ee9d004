import NDEF
import TagMemory
import Testing

@Suite("Type 4 write and lock plans (T4T 3.0, 5.5.7 and 5.5.8)")
struct Type4WritePlanTests {
    static let uri = NFCNDEFMessage(records: [
        NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("proxmark.com".utf8))
    ])

    /// A message of exactly `length` encoded bytes: one unknown-type record (3 header bytes).
    static func message(length: Int) -> [UInt8] {
        [0xD5, 0x00, UInt8(length - 3)] + (0..<(length - 3)).map { UInt8(truncatingIfNeeded: $0 &+ 0x41) }
    }

    @Test("NLEN 0 first, the message in MLc-sized pieces, NLEN last; every step on file E104 (5.5.7)")
    func threeSteps() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-small-32.hex")  // MLc 13
        let message = Self.message(length: 20)
        let plan = try cc.writePlan(messageBytes: message)
        #expect(plan.steps.map(\.address) == [0, 2, 15, 0])
        #expect(plan.steps.map(\.data) == [[0, 0], Array(message[0..<13]), Array(message[13..<20]), [0, 20]])
        #expect(plan.steps.allSatisfy { $0.file == 0xE104 })
        #expect(plan.steps[0].reason.contains("NLEN = 0 first"))
        #expect(plan.steps[1].reason == "message bytes 0-12 of 20")
        #expect(plan.steps[3].reason.contains("NLEN = 20 last"))
    }

    @Test("NLEN and a message that fit one UPDATE BINARY go in one step, or three on request (5.5.7)")
    func singleUpdate() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")  // MLc 52
        let bytes = try Self.uri.encoded()
        let plan = try cc.writePlan(for: Self.uri)
        #expect(plan.steps.count == 1)
        #expect(plan.steps[0].address == 0)
        #expect(plan.steps[0].data == [0x00, 0x11] + bytes)
        #expect(plan.steps[0].reason.contains("one UPDATE BINARY"))
        #expect(try cc.writePlan(for: Self.uri, singleUpdateWhenPossible: false).steps.count == 3)
        // The reader's limit applies as well as MLc.
        let limited = try cc.writePlan(messageBytes: bytes, maximumCommandData: 8)
        #expect(limited.steps.map(\.data.count) == [2, 8, 8, 1, 2])
    }

    @Test("A message larger than the capacity is refused with both sizes named (5.5.7)")
    func capacity() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-small-32.hex")
        #expect(try cc.writePlan(messageBytes: Self.message(length: 30)).steps.count == 5)
        do {
            _ = try cc.writePlan(messageBytes: Self.message(length: 31))
            Issue.record("expected insufficient capacity")
        } catch {
            #expect(error.code == .insufficientCapacity)
            #expect(error.reason.contains("31") && error.reason.contains("30"))
        }
    }

    @Test("Read-only, proprietary and unreadable CCs refuse to plan a write (5.1.2)")
    func notWritable() throws {
        let readOnly = try Type4Fixture.capabilityContainer("cc-v2-read-only.hex")
        #expect(throws: TagMemoryError(.notWritable, "")) { try readOnly.writePlan(for: Self.uri) }
        let proprietary = try Type4Fixture.capabilityContainer("cc-v2-proprietary-access.hex")
        #expect(throws: TagMemoryError(.notWritable, "")) { try proprietary.writePlan(for: Self.uri) }
        var unreadable = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        unreadable.ndefFile.readAccess = .none
        #expect(throws: TagMemoryError(.notFormatted, "")) { try unreadable.writePlan(for: Self.uri) }
    }

    @Test("An MLc or reader limit too small for NLEN in one command is refused (5.5.7)")
    func tooSmallBudget() throws {
        let tiny = try Type4Fixture.capabilityContainer("cc-v2-mlc-1.hex")
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try tiny.writePlan(for: Self.uri) }
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try cc.writePlan(for: Self.uri, maximumCommandData: 0) }
        let v3 = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try v3.writePlan(for: Self.uri, maximumCommandData: 3) }
    }

    @Test("An empty message erases the file with NLEN 0 (5.2)")
    func erase() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        let plan = try cc.writePlan(for: NFCNDEFMessage(records: []))
        #expect(plan.steps.map(\.data) == [[0, 0]])
        #expect(try cc.writePlan(messageBytes: [], currentFile: [0, 0, 0xD1]).steps.isEmpty)
    }

    @Test("The current image proves what need not be written (5.5.7)")
    func currentImage() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-small-32.hex")  // MLc 13
        let message = Self.message(length: 20)
        let full = [0, 20] + message
        #expect(try cc.writePlan(messageBytes: message, currentFile: full).steps.isEmpty)
        // The message is in place but NLEN is 0: only NLEN is written.
        let onlyLength = try cc.writePlan(messageBytes: message, currentFile: [0, 0] + message)
        #expect(onlyLength.steps.map(\.data) == [[0, 20]])
        #expect(onlyLength.steps[0].reason.contains("already in the file"))
        // One byte differs: NLEN 0, that byte, NLEN.
        var changed = full
        changed[9] ^= 0xFF
        let oneByte = try cc.writePlan(messageBytes: message, currentFile: changed)
        #expect(oneByte.steps.map(\.address) == [0, 9, 0])
        #expect(oneByte.steps[1].data == [full[9]])
        // NLEN already 0: no NLEN = 0 step.
        var empty = changed
        empty[1] = 0
        #expect(try cc.writePlan(messageBytes: message, currentFile: empty).steps.map(\.address) == [9, 0])
        // Bytes past the image are unknown and written.
        let short = try cc.writePlan(messageBytes: message, currentFile: Array(full.prefix(12)))
        #expect(short.steps.map(\.address) == [0, 12, 0])
        #expect(short.steps[1].data == Array(full[12..<22]))
    }

    @Test("Past offset 7FFF a version 3.0 write uses D7 pieces within MLc (5.5.7)")
    func offsetDataObjectPieces() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")  // MLc 255, ENLEN
        let message = [0xC5, 0x00, 0x00, 0x00, 0x90, 0x00] + Array(repeating: UInt8(0x5A), count: 0x9000)
        var files = try Type4FileImages(capabilityContainer: cc)
        let plan = try cc.writePlan(messageBytes: message)
        let data = plan.steps.dropFirst().dropLast()
        #expect(data.allSatisfy { commandDataCount($0) <= 255 })
        let crossing = try #require(data.first { $0.address + $0.data.count == 0x8000 })
        #expect(!crossing.reason.contains("D7"))
        let first = try #require(data.first { $0.address == 0x8000 })
        #expect(first.reason.contains("D7"))
        #expect(first.data.count == 255 - 6 - 2)  // 54 03 o o o, 53 81 L
        #expect(try Type4Command.updateBinary(first).bytes.count == 5 + 255)
        try files.apply(plan)
        let file = try files.ndefFile()
        #expect(Array(file.messageBytes) == message)
    }

    @Test("A version 2 CC with an Extended TLV cannot be written past 7FFF (no offset data objects)")
    func noODOOnVersion2() throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        cc.mappingVersion = 0x20
        let message = [0xC5, 0x00, 0x00, 0x00, 0x90, 0x00] + Array(repeating: UInt8(0x5A), count: 0x9000)
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try cc.writePlan(messageBytes: message) }
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try cc.readPlan(messageLength: message.count) }
    }

    @Test("Lock: one UPDATE BINARY of FF at the CC's write access byte, 0E or 10, with the caveat (5.5.8)")
    func lock() throws {
        let v2 = try Type4Fixture.capabilityContainer("cc-v2-example.hex")
        let plan = try v2.lockPlan()
        #expect(plan.steps == [PlanStep(file: 0xE103, address: 0x0E, data: [0xFF], reason: plan.steps[0].reason)])
        #expect(plan.steps[0].reason.contains("NTAG 424 DNA"))
        #expect(plan.steps[0].reason.contains(Type4CapabilityContainer.lockCaveat))
        let v3 = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        #expect(try v3.lockPlan().steps.map(\.address) == [0x10])
        #expect(try Type4Fixture.capabilityContainer("cc-v2-read-only.hex").lockPlan().steps.isEmpty)
        // Applied to the files, the CC reads back read-only and refuses writes.
        for cc in [v2, v3] {
            let files = try Type4FileImages(capabilityContainer: cc).applying(cc.lockPlan())
            let locked = try files.capabilityContainer()
            #expect(locked.ndefFile.writeAccess == .none)
            #expect(locked.ndefStatus.status == .readOnly)
            #expect(throws: TagMemoryError(.notWritable, "")) { try locked.writePlan(for: Self.uri) }
            // Only the write access byte changed.
            let before = try cc.encoded()
            let after = try #require(files[0xE103])
            #expect(
                zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset) == [
                    cc.writeAccessOffset
                ])
        }
    }

    @Test("Applying refuses steps outside the files (a tag answers 6A82 or 6B00)")
    func applyBounds() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-small-32.hex")
        var files = try Type4FileImages(capabilityContainer: cc)
        let outside = TagWritePlan(steps: [PlanStep(file: 0xE104, address: 31, data: [1, 2], reason: "")])
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try files.apply(outside) }
        let missing = TagWritePlan(steps: [PlanStep(file: 0xE105, address: 0, data: [1], reason: "")])
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try files.apply(missing) }
        let page = TagWritePlan(steps: [PlanStep(address: 4, data: [1, 2, 3, 4], reason: "")])
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try files.apply(page) }
        // A failing step leaves the earlier ones applied, as on a tag.
        let partial = TagWritePlan(
            steps: [PlanStep(file: 0xE104, address: 0, data: [0, 1], reason: "")] + outside.steps)
        #expect(throws: TagMemoryError(.invalidArgument, "")) { try files.apply(partial) }
        #expect(files[0xE104]?.prefix(2) == [0, 1])
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try Type4FileImages(
                capabilityContainer: Type4Fixture.capabilityContainer("cc-v3-extended.hex"),
                maximumSimulatedSize: 1000)
        }
    }
}
