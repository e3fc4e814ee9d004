import NDEF
import TagMemory
import Testing

/// Partial images: every prefix of every valid fixture must parse to a defined answer.
@Suite("Type 2 truncated images")
struct Type2TruncationTests {
    /// The fixtures that describe whole, valid tags.
    static let validFixtures = TagFixtures.names.filter { !$0.contains("hostile") }

    @Test("Every prefix parses without trapping, and never reports more than the whole image", arguments: validFixtures)
    func everyPrefix(_ name: String) throws {
        let bytes = try TagFixtures.load(name)
        let chip = TagFixtures.chip(for: name)
        let whole = Type2Memory(bytes: bytes, chip: chip)
        for count in 0...bytes.count {
            let memory = Type2Memory(bytes: Array(bytes.prefix(count)), chip: chip)
            let status = memory.ndefStatus
            if count < 16 {
                // T2T 6.1: without the CC there is no NDEF.
                #expect(status == NDEFTagStatus(status: .notSupported, capacity: 0))
                #expect(memory.problem?.code == .truncatedImage)
                continue
            }
            // The CC is there: the status comes from it and the NDEF TLV, once the TLV is read.
            if memory.ndefTLVAddress != nil {
                #expect(status.capacity == whole.ndefStatus.capacity)
            }
            if let message = memory.message {
                #expect(message == whole.message)
            } else if whole.message != nil {
                #expect(memory.problem?.code == .truncatedImage)
            }
            // Nothing read lies outside the prefix.
            #expect(memory.tlvs.allSatisfy { $0.endAddress <= count })
            // The page-level views, at every page boundary (they are slow in debug builds).
            if count % 4 == 0 {
                #expect(memory.lockedPages.allSatisfy { $0 < count / 4 || memory.chip != nil })
                _ = memory.configuration
                _ = memory.ndefStatusReason
            }
        }
    }

    @Test("Prefixes ending inside the NDEF TLV report truncation at the TLV, not a malformed tag")
    func truncationCode() throws {
        let bytes = try TagFixtures.load("ntag216-long-message.hex")
        for count in 17..<(16 + 4 + 310) {
            let memory = Type2Memory(bytes: Array(bytes.prefix(count)), chip: .ntag216)
            #expect(memory.problem?.code == .truncatedImage)
            #expect(memory.tlvScan?.error?.offset == 16)
        }
    }
}
