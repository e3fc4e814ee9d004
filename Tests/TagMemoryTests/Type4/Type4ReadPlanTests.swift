import NDEF
import TagMemory
import TestSupport
import Testing

@Suite("Type 4 read plans (T4T 3.0, 5.5.6)")
struct Type4ReadPlanTests {
    @Test("NLEN first, then MLe-sized reads that stop at the end of the message (5.5.6)")
    func reads() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-example.hex")  // MLe 59
        let plan = try cc.readPlan(messageLength: 120)
        #expect(plan.fileIdentifier == 0xE104)
        #expect(
            Array(plan) == [
                .init(offset: 0, length: 2), .init(offset: 2, length: 59), .init(offset: 61, length: 59),
                .init(offset: 120, length: 2),
            ])
        #expect(plan.lengthRead == .init(offset: 0, length: 2))
        #expect(try plan.command(at: 1).bytes == hex("00B000023B"))
        #expect(try cc.readPlan(messageLength: 120, maximumResponseData: 16).count == 1 + 8)
        #expect(try cc.readPlan(messageLength: 0).count == 1)
        #expect(throws: TagMemoryError(.malformedTLV, "")) { try cc.readPlan(messageLength: 254) }
        #expect(throws: TagMemoryError(.invalidArgument, "")) {
            try cc.readPlan(messageLength: 5, maximumResponseData: 1)
        }
    }

    @Test("An MLe of 256 reads 255 bytes at a time (a short Le of 00 is refused by some tags)")
    func mle256() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v2-ntag424-dna-factory.hex")
        let plan = try cc.readPlan(messageLength: 254)
        #expect(plan.plainReadSize == 255)
        #expect(Array(plan) == [.init(offset: 0, length: 2), .init(offset: 2, length: 254)])
    }

    @Test("Past 7FFF a version 3.0 file is read with B1, whose 53 wrapper costs MLe bytes (5.5.6)")
    func offsetDataObjectReads() throws {
        let cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")  // MLe 255, ENLEN
        let plan = try cc.readPlan(messageLength: 0x9000)
        #expect(plan.extendedReadSize == 252)  // 53 81 L + 252 = 255
        #expect(plan.count == 1 + 129 + 17)
        let lastPlain = plan[129]
        #expect(lastPlain.offset + lastPlain.length == 0x8000 && !lastPlain.usesOffsetDataObject)
        #expect(plan[130] == .init(offset: 0x8000, length: 252))
        #expect(plan[130].usesOffsetDataObject)
        #expect(try plan.command(at: 130).bytes == hex("00B10000 05 5403008000 FF"))
        #expect(plan[plan.count - 1] == .init(offset: 0x8000 + 16 * 252, length: 0x9004 - 0x8000 - 16 * 252))
        // Contiguous and complete.
        var next = 4
        for read in plan.dropFirst() {
            #expect(read.offset == next)
            next += read.length
        }
        #expect(next == 4 + 0x9000)
    }

    @Test("A hostile ENLEN costs no memory: the plan is computed on demand (5.5.6)")
    func hugePlans() throws {
        var cc = try Type4Fixture.capabilityContainer("cc-v3-extended.hex")
        cc.ndefFile.maximumFileSize = 0xFFFF_FFFE
        cc.maximumResponseDataSize = 15
        let plan = try cc.readPlan(messageLength: 0xFF_FFF0)
        #expect(plan.count > 1_000_000)
        let last = plan[plan.count - 1]
        #expect(last.offset + last.length == 4 + 0xFF_FFF0)
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try cc.readPlan(messageLength: 0xFFFF_FFF0) }
    }
}
