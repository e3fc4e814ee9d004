import NDEF
import TagMemory
import Testing

/// Partial images: every prefix of every valid fixture must parse to a defined answer.
@Suite("MIFARE Classic truncated images")
struct ClassicTruncationTests {
    /// The fixtures that describe whole, valid cards.
    static let validFixtures = ClassicFixtures.names.filter { !$0.contains("hostile") }

    @Test(
        "Every prefix, with the card type known, never reports more than the whole image (AN10787, AN1304)",
        arguments: validFixtures)
    func everyPrefix(_ name: String) throws {
        let bytes = try ClassicFixtures.load(name)
        let whole = MifareClassicMemory(bytes: bytes)
        let type = try #require(whole.type)
        for count in 0...bytes.count {
            let memory = MifareClassicMemory(bytes: Array(bytes.prefix(count)), type: type)
            let status = memory.ndefStatus
            if count < 64 {
                // AN10787: the MAD and its GPB are in sector 0.
                #expect(status == NDEFTagStatus(status: .notSupported, capacity: 0))
                #expect(memory.problem?.code == .truncatedImage && memory.directory == nil)
                continue
            }
            if status.status != .notSupported {
                // The NFC sectors come from the MAD: the capacity is known once the TLV is found.
                #expect(status.capacity == whole.ndefStatus.capacity, "prefix \(count)")
                // Trailers past the end restrict nothing, so a read-only card may read as read/write.
                #expect(status.status == whole.ndefStatus.status || status.status == .readWrite)
            }
            if let message = memory.message {
                #expect(message == whole.message)
            } else if whole.message != nil {
                #expect(memory.problem?.code == .truncatedImage, "prefix \(count)")
            }
            #expect(memory.tlvs.allSatisfy { $0.endAddress <= count })
            #expect(memory.sectors.allSatisfy { $0.bytes.upperBound <= count })
            if count % 16 == 0 { _ = memory.ndefStatusReason }
        }
    }

    @Test("A 4K image cut inside MAD2 reports truncation, not a card without NDEF (AN10787)")
    func cutInsideMAD2() throws {
        let bytes = try ClassicFixtures.load("classic-4k-mad2-long-message.hex")
        for count in [64, 1000, 1024, 1071] {
            let memory = MifareClassicMemory(bytes: Array(bytes.prefix(count)), type: .classic4K)
            #expect(memory.problem?.code == .truncatedImage && memory.directory?.isMAD2Missing == true)
            #expect(memory.ndefStatus.status == .notSupported)
        }
        // Without the type, a 1024-byte cut still cannot pass for a whole 1K: its GPB asks for MAD2.
        let guessed = MifareClassicMemory(bytes: Array(bytes.prefix(1024)))
        #expect(guessed.type == nil && guessed.problem?.code == .truncatedImage)
        let whole1K = MifareClassicMemory(bytes: Array(bytes.prefix(1072)))
        #expect(whole1K.directory?.mad2 != nil && whole1K.problem?.code == .truncatedImage)
    }

    @Test("Prefixes without a known type, and every hostile fixture's prefixes, parse without trapping")
    func unknownType() throws {
        for name in ClassicFixtures.names {
            let bytes = try ClassicFixtures.load(name)
            for count in stride(from: 0, through: bytes.count, by: 7) {
                let memory = MifareClassicMemory(bytes: Array(bytes.prefix(count)))
                #expect(memory.tlvs.allSatisfy { $0.endAddress <= count })
                _ = memory.ndefStatus
                _ = memory.ndefStatusReason
            }
        }
    }
}
