import NDEF
import TagMemory
import Testing

/// The NFC Forum layout of a formatted card (AN1304, AN10787) and the cut-safe NDEF write plan.
@Suite("MIFARE Classic NDEF layout and write plan")
struct ClassicLayoutTests {
    static let keyB = MifareClassicKey((0x11, 0x22, 0x33, 0x44, 0x55, 0x66))

    /// A formatted, empty image of `type`.
    static func formatted(_ type: MifareClassicType) -> MifareClassicMemory {
        let layout = MifareClassicNDEFLayout(type: type)
        return MifareClassicMemory(
            bytes: layout.formattedImage(manufacturerBlock: [0xC1, 0x7A, 0x55, 0x0E], keyB: keyB), type: type)
    }

    /// A message of one URI record of `length` encoded bytes: a short record up to 259 bytes,
    /// a long one (7-byte header) above.
    static func message(length: Int) -> NFCNDEFMessage {
        let payloadLength = length - 4 <= 255 ? length - 4 : length - 7
        let text = (0..<(payloadLength - 1)).map { UInt8(0x61 + $0 % 26) }
        return NFCNDEFMessage(records: [NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + text)])
    }

    @Test("A 1K formatted here holds what NXP's formatter writes: every block but block 0 and the key fields")
    func matchesAndroidFormat() throws {
        let android = try ClassicFixtures.load("classic-1k-ndef-empty.hex")
        let ours = Self.formatted(.classic1K).bytes
        #expect(android.count == ours.count)
        for block in 1..<64 {
            let range = (block * 16)..<(block * 16 + 16)
            if MifareClassicSector.isTrailer(block: block) {
                // Key A reads as zeros and key B is ours: the access bits and GPB must agree.
                #expect(android[range].dropFirst(6).prefix(4) == ours[range].dropFirst(6).prefix(4), "block \(block)")
            } else {
                #expect(Array(android[range]) == Array(ours[range]), "block \(block)")
            }
        }
    }

    @Test(
        "Formatted and empty: read/write, 716 bytes on a 1K, 3356 on a 4K (MAD2, GPB C2h), 190 on a Mini",
        arguments: [(MifareClassicType.classic1K, 716), (.classic4K, 3356), (.mini, 190)])
    func formattedStatus(type: MifareClassicType, capacity: Int) throws {
        let memory = Self.formatted(type)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: capacity))
        #expect(memory.ndefMessageBytes == [])
        let directory = try #require(memory.directory)
        #expect(directory.version == (type == .classic4K ? 2 : 1))
        #expect(directory.isCRCValid)
        #expect(directory.mad2?.storedCRC == (type == .classic4K ? 0xE8 : nil))
        #expect(memory.ndefSectors.count == type.sectorCount - (type.hasMAD2Sector ? 2 : 1))
        let trailer = try #require(memory.trailer(of: MifareClassicSector(1)!))
        #expect(trailer.keyB == Self.keyB.bytes && trailer.keyA == MifareClassicKey.ndefKeyA.bytes)
    }

    @Test("On an empty card a write sends each block once, the length block last")
    func writeOnEmptyCard() throws {
        let plan = try Self.formatted(.classic1K).writePlan(for: Self.message(length: 20))
        // 03 14, 20 bytes, FE: 23 bytes in blocks 4 and 5; the length is 0 already.
        #expect(plan.steps.map(\.address) == [5, 4])
        #expect(plan.steps.allSatisfy { $0.data.count == 16 })
        #expect(plan.steps.last?.reason.contains("length 20 last") == true)
        #expect(Array(plan.steps[1].data.prefix(2)) == [0x03, 0x14])
    }

    @Test("Over a message the length block goes to 0 first; the plan skips trailers and crosses into sector 2")
    func writeOverMessage() throws {
        let empty = Self.formatted(.classic1K)
        let first = try empty.applyingForTest(empty.writePlan(for: Self.message(length: 30)))
        let plan = try first.writePlan(for: Self.message(length: 60))
        // Block 5 holds the same bytes in both messages (the same text, further on): left out.
        #expect(plan.steps.map(\.address) == [4, 6, 8, 4])
        #expect(Array(plan.steps[0].data.prefix(2)) == [0x03, 0x00])
        let second = try first.applyingForTest(plan)
        #expect(second.message == Self.message(length: 60))
        // Trailer 7 is left as it was.
        #expect(second.block(7) == first.block(7))
    }

    @Test("A message one byte over the capacity is refused with both sizes; a read-only card is refused")
    func refusals() throws {
        let memory = Self.formatted(.classic1K)
        #expect(throws: TagMemoryError.self) { try memory.writePlan(for: Self.message(length: 717)) }
        #expect((try? memory.writePlan(for: Self.message(length: 716))) != nil)
        var bytes = memory.bytes
        let layout = MifareClassicNDEFLayout(type: .classic1K)
        for sector in layout.ndefSectors {
            bytes.replaceSubrange(sector.trailerBytes, with: layout.ndefTrailer(keyB: Self.keyB, readOnly: true))
        }
        let locked = MifareClassicMemory(bytes: bytes, type: .classic1K)
        #expect(locked.ndefStatus.status == .readOnly)
        do {
            _ = try locked.writePlan(for: Self.message(length: 20))
            Issue.record("a read-only card was planned a write")
        } catch {
            #expect(error.code == .notWritable)
        }
    }

    @Test("Keys never show their bytes unless public; 12 hex digits make a key")
    func keys() throws {
        #expect(Self.keyB.description == "a key (hidden)")
        #expect(MifareClassicKey.ndefKeyA.description.contains("D3F7D3F7D3F7"))
        #expect(try MifareClassicKey(hex: "11:22:33:44:55:66") == Self.keyB)
        #expect(throws: TagMemoryError.self) { try MifareClassicKey(hex: "1122334455") }
        #expect(MifareClassicKey(bytes: [1, 2, 3]) == nil)
    }
}

extension MifareClassicMemory {
    /// The memory after `plan`'s block writes.
    func applyingForTest(_ plan: TagWritePlan) throws -> MifareClassicMemory {
        var bytes = self.bytes
        for step in plan.steps {
            bytes.replaceSubrange((step.address * 16)..<(step.address * 16 + 16), with: step.data)
        }
        return MifareClassicMemory(bytes: bytes, type: type)
    }
}
