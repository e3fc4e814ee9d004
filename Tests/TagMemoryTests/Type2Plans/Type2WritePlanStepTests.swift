import NDEF
import TagMemory
import TestSupport
import Testing

/// Exact step lists of the NDEF write plan (NFC Forum Type 2 Tag 1.1, 6.4.3).
@Suite("Type 2 write plan steps")
struct Type2WritePlanStepTests {
    /// https://example.com/abc as a URI record (URI RTD 1.0, 3.2.2, prefix 04h): 20 bytes.
    static let uri20 = hex("d1 01 10 55 04") + Array("example.com/abc".utf8)

    @Test("6.4.3: a 20-byte URI on a factory NTAG215: pages 5-9 (message, Terminator), then page 4 (length)")
    func uriOnFactoryNTAG215() throws {
        #expect(Self.uri20.count == 20)
        let memory = try TagFixtures.memory("ntag215-factory.hex")
        let plan = try memory.writePlan(messageBytes: Self.uri20)
        #expect(writtenPages(plan) == [5, 6, 7, 8, 9, 4])
        #expect(
            plan.steps.map(\.data) == [
                hex("10 55 04 65"), hex("78 61 6d 70"), hex("6c 65 2e 63"), hex("6f 6d 2f 61"), hex("62 63 fe 00"),
                hex("03 14 d1 01"),
            ])
        #expect(plan.steps[4].reason == "message bytes 18-19 of 20, Terminator TLV")
        #expect(plan.steps[5].reason.hasPrefix("NDEF TLV length 20 last"))
        // The minimum: pages 4 to 9 each hold a byte that changes.
        #expect(plan.steps.count == 6)
        let written = try memory.applying(plan)
        #expect(written.ndefMessageBytes == Self.uri20 && written.tlvScan?.terminatorAddress == 38)
    }

    @Test("6.4.3: a 100-byte URI on a factory NTAG215: pages 5-29, then page 4: 26 writes, the minimum")
    func longURIOnFactoryNTAG215() throws {
        let memory = try TagFixtures.memory("ntag215-factory.hex")
        let message = Type2PlanSupport.uriMessage(length: 100)
        let bytes = try message.encoded()
        #expect(bytes.count == 100 && bytes.prefix(5) == [0xD1, 0x01, 0x60, 0x55, 0x04])
        let plan = try memory.writePlan(for: message)
        #expect(writtenPages(plan) == Array(5...29) + [4])
        // Bytes 16-118 change (T, L, 100 message bytes, FE at 118): pages 4-29, 26 pages.
        #expect(plan.steps.count == 26)
        #expect(plan.steps.last?.data == hex("03 64 d1 01"))
        #expect(plan.steps[24].data == [bytes[98], bytes[99], 0xFE, 0x00])
        #expect(try memory.applying(plan).message == message)
    }

    @Test("6.4.3: over an existing message the length page is written twice: 0 first, the length last")
    func overExistingMessage() throws {
        let memory = try TagFixtures.memory("ntag215-short-message.hex")
        let plan = try memory.writePlan(messageBytes: Self.uri20)
        // "example.com" is already at bytes 23-30 (pages 6-7): those pages are left out.
        #expect(writtenPages(plan) == [4, 5, 8, 9, 4])
        #expect(plan.steps.first?.data == hex("03 00 d1 01"))
        #expect(plan.steps.first?.reason.hasPrefix("NDEF TLV length 0 first") == true)
        #expect(plan.steps.last?.data == hex("03 14 d1 01"))
        // One byte of one page differs: that page alone, no length-0 step.
        let written = try memory.applying(plan)
        var changed = Self.uri20
        changed[19] = 0x64
        #expect(try writtenPages(written.writePlan(messageBytes: changed)) == [9])
        // Two pages differ (the length and the Terminator's page): length 0 first again.
        let shorter = Array(Self.uri20.prefix(18))
        #expect(try writtenPages(written.writePlan(messageBytes: shorter)) == [4, 9, 4])
    }

    @Test("6.4.3: an empty message is a single write of the length page (03 00 FE)")
    func emptyMessage() throws {
        let memory = try TagFixtures.memory("ntag213-short-message.hex")
        let plan = try memory.writePlan(for: NFCNDEFMessage(records: []))
        #expect(writtenPages(plan) == [5])
        #expect(plan.steps.first?.data == hex("34 03 00 fe"))
        #expect(try memory.applying(plan).ndefMessageBytes == [])
    }

    @Test("NTAG213 8.5: the NDEF TLV after the factory Lock Control TLV starts at byte 21 (page 5)")
    func ntag213FactoryLayout() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let plan = try memory.writePlan(messageBytes: Self.uri20)
        // T at 21, L at 22, message 23-42, FE at 43: pages 6-10, then page 5.
        #expect(writtenPages(plan) == [6, 7, 8, 9, 10, 5])
        #expect(plan.steps.last?.data == hex("34 03 14 d1"))
        #expect(plan.steps[4].data == [Self.uri20[17], Self.uri20[18], Self.uri20[19], 0xFE])
        #expect(plan.steps.count == 6)
        // The Terminator lands at 43, the last byte of page 10: written with the message.
        #expect(try memory.applying(plan).tlvScan?.terminatorAddress == 43)
    }

    @Test("T2T 2.3.4: 255 bytes take the three-byte length FF 00 FF; 254 bytes the one-byte FE")
    func lengthForms() throws {
        let memory = try TagFixtures.memory("ntag215-factory.hex")
        let long = try memory.writePlan(messageBytes: [UInt8](repeating: 0x41, count: 255))
        #expect(long.steps.last?.address == 4 && long.steps.last?.data == hex("03 ff 00 ff"))
        let short = try memory.writePlan(messageBytes: [UInt8](repeating: 0x41, count: 254))
        #expect(short.steps.last?.data == hex("03 fe 41 41"))
    }

    /// The factory NTAG215 with `page4` and `page5` in place of pages 4 and 5.
    func ntag215(page4: String, page5: String) throws -> Type2Memory {
        var bytes = try TagFixtures.load("ntag215-factory.hex")
        bytes.replaceSubrange(16..<24, with: hex(page4 + page5))
        return Type2Memory(bytes: bytes, chip: .ntag215)
    }

    @Test("2.3.4, 6.4.3: a three-byte length across pages 4-5: the size bytes with the data, FFh last")
    func straddlingLength() throws {
        // NULL TLVs, then the NDEF TLV at 18: FFh at 19 (page 4), the size bytes at 20-21 (page 5).
        let memory = try ntag215(page4: "00 00 03 00", page5: "fe 00 00 00")
        #expect(memory.ndefTLVAddress == 18 && memory.ndefStatus.capacity == 490)
        let message = try #require(Type2PlanSupport.message(length: 300))
        let bytes = try message.encoded()
        let plan = try memory.writePlan(messageBytes: bytes)
        #expect(plan.steps.first?.address == 5 && plan.steps.first?.data == [0x01, 0x2C, bytes[0], bytes[1]])
        #expect(plan.steps.first?.reason == "message bytes 0-1 of 300, length bytes 2-3")
        #expect(plan.steps.last?.address == 4 && plan.steps.last?.data == hex("00 00 03 ff"))
        #expect(writtenPages(plan).filter { $0 == 4 }.count == 1)
        let written = try memory.applying(plan)
        #expect(written.message == message)
        // Over it, a shorter three-byte message: page 4 to 00 first, page 4 to FF last.
        let next = try #require(Type2PlanSupport.message(length: 280, seed: 9))
        let again = try written.writePlan(for: next)
        #expect(again.steps.first?.address == 4 && again.steps.first?.data == hex("00 00 03 00"))
        #expect(again.steps[1].address == 5 && again.steps[1].data.prefix(2) == [0x01, 0x18])
        #expect(again.steps.last?.data == hex("00 00 03 ff"))
        let states = try Type2PlanSupport.states(of: written, applying: again)
        let nextBytes = try next.encoded()
        for state in states {
            let seen = state.ndefMessageBytes
            #expect(seen == bytes || seen == [] || seen == nextBytes)
        }
        // FFh at 18 and the first size byte at 19 in page 4, the second size byte in page 5.
        let other = try ntag215(page4: "00 03 00 fe", page5: "00 00 00 00")
        let split = try other.writePlan(messageBytes: bytes)
        #expect(split.steps.first?.data == [0x2C, bytes[0], bytes[1], bytes[2]])
        #expect(split.steps.last?.data == hex("00 03 ff 01"))
        #expect(try other.applying(split).message == message)
    }

    @Test("T2T 2.2.1, 2.3.3: the message flows around reserved bytes; their pages are not written")
    func reservedBytes() throws {
        let memory = try TagFixtures.memory("ntag213-memory-control.hex")
        let message = try #require(Type2PlanSupport.message(length: 100, seed: 3))
        let plan = try memory.writePlan(for: message)
        #expect(!writtenPages(plan).contains(10))
        let written = try memory.applying(plan)
        #expect(written.message == message && written.bytes[40..<44] == [0xEE, 0xEE, 0xEE, 0xEE])
        // Two reserved bytes sharing page 10 with message bytes (Memory Control TLV 02 03 2A 02 04:
        // bytes 42-43): the page is written with their current value.
        var bytes = try TagFixtures.load("ntag213-factory.hex")
        bytes.replaceSubrange(16..<32, with: hex("01 03 a0 0c 34 02 03 2a 02 04 03 00 fe 00 00 00"))
        bytes[42] = 0xAA
        bytes[43] = 0xBB
        let shared = Type2Memory(bytes: bytes, chip: .ntag213)
        #expect(shared.reservedRanges(before: 26).ranges == [42..<44, 160..<162])
        let sharedPlan = try shared.writePlan(for: message)
        let page10 = try #require(sharedPlan.steps.first { $0.address == 10 })
        #expect(page10.data[2...] == [0xAA, 0xBB])
        let result = try shared.applying(sharedPlan)
        #expect(result.message == message && result.bytes[42...43] == [0xAA, 0xBB])
        #expect(result.ndefTLV?.valueRanges == [28..<42, 44..<130])
    }
}
