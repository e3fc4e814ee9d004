import NDEF
import TagMemory
import TagSimulator
import Testing

/// TagMemory write plans executed as raw commands on a simulated tag.
@Suite("Simulated Type 2 tag: write plans over the air")
struct SimulatedType2PlanTests {
    /// A URI record (NFC Forum URI RTD 1.0, 3.2.2: prefix 04h = "https://") of `length` characters.
    func uriMessage(_ length: Int) -> NFCNDEFMessage {
        let text = (0..<length).map { UInt8(0x61 + $0 % 26) }
        return NFCNDEFMessage(records: [NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + text)])
    }

    /// Reads the whole memory with READ commands (NTAG213/215/216 10.2), 4 pages at a time.
    func readAll(_ tag: inout SimulatedType2Tag) throws -> [UInt8] {
        var image: [UInt8] = []
        for page in stride(from: 0, to: tag.chip.pageCount, by: 4) {
            let answer = try #require(tag.read(page).bytes, "READ \(page)")
            image += answer.prefix((tag.chip.pageCount - page) * 4)
        }
        return image
    }

    @Test(
        "T2T 1.1 6.4.3 and NTAG213/215/216 10.4: a write plan sent as WRITE commands to a factory NTAG215 reads back",
        arguments: [(1, 3), (40, 12), (95, 26), (200, 52), (480, 124)])
    func writePlanOnNTAG215(length: Int, writes: Int) throws {
        var tag = SimulatedType2Tag.selected(.ntag215)
        let message = uriMessage(length)
        let plan = try Type2Memory(bytes: tag.bytes, chip: .ntag215).writePlan(for: message)
        #expect(!plan.requiresAuthentication)
        for step in plan.steps {
            let page = try #require(UInt8(exactly: step.address))
            #expect(tag.transceive([0xA2, page] + step.data) == .ack, "WRITE \(step.address): \(step.reason)")
        }
        #expect(tag.count(of: .write) == plan.steps.count)
        // Over the factory empty NDEF TLV every page of the new TLV (03, length, message, FEh) is
        // written once: 3 + 6 bytes in 3 pages, 2 + 45 + 1 in 12, 2 + 100 + 1 in 26, 2 + 205 + 1
        // in 52, and with a long record (7-byte header) and 3-byte TLV length 4 + 488 + 1 in 124.
        #expect(plan.steps.count == writes)
        let encoded = try message.encoded()
        let image = try readAll(&tag)
        #expect(tag.count(of: .read) == 34)  // 135 pages, 4 per READ
        #expect(tag.totalCommandCount == plan.steps.count + 34)
        let memory = Type2Memory(bytes: image, chip: .ntag215)
        #expect(memory.problem == nil)
        #expect(memory.ndefMessageBytes == encoded)
        #expect(memory.message?.records.count == 1)
        #expect(memory.message?.records.first?.payload == message.records.first?.payload)
        // The simulator's memory and the read-back image agree except for PWD, which reads as zeros.
        #expect(Array(image.prefix(0x85 * 4)) == Array(tag.bytes.prefix(0x85 * 4)))
        // One FAST_READ reads the same image.
        #expect(tag.transceive([0x3A, 0x00, 0x86]) == .data(image))
        #expect(tag.count(of: .fastRead) == 1)
    }

    @Test("NTAG213/215/216 8.8: a plan over password-protected pages needs PWD_AUTH first")
    func protectedPlan() throws {
        var tag = SimulatedType2Tag.selected(.ntag215)
        tag.isRecordingCommands = true
        #expect(tag.write(0x83, "04 00 00 04") == .ack)
        let message = uriMessage(30)
        let plan = try Type2Memory(bytes: tag.bytes, chip: .ntag215).writePlan(for: message)
        #expect(plan.requiresAuthentication)
        let first = try #require(plan.steps.first)
        #expect(tag.transceive([0xA2, UInt8(truncatingIfNeeded: first.address)] + first.data) == .nak(0))
        tag.select()
        #expect(tag.authenticate("FF FF FF FF") == .data([0, 0]))
        for step in plan.steps {
            #expect(tag.transceive([0xA2, UInt8(truncatingIfNeeded: step.address)] + step.data) == .ack)
        }
        #expect(Type2Memory(bytes: try readAll(&tag), chip: .ntag215).ndefMessageBytes == (try message.encoded()))
        let expected: [SimulatedType2Command] =
            [.write, .write, .passwordAuthentication] + plan.steps.map { _ in .write }
            + [SimulatedType2Command](repeating: .read, count: 34)
        #expect(tag.recordedCommands == expected)
    }
}
