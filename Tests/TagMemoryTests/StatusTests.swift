import TagMemory
import Testing

@Suite("Common tag memory types")
struct StatusTests {
    @Test("Plan steps describe themselves for --dry-run")
    func planStepDescription() {
        let page = PlanStep(address: 4, data: [0x03, 0x00, 0xFE, 0x00], reason: "empty NDEF TLV")
        #expect(page.description == "page 4: 03 00 FE 00  (empty NDEF TLV)")
        let file = PlanStep(file: 0xE104, address: 0, data: [0x00, 0x00], reason: "NLEN 0 first")
        #expect(file.description == "file E104 offset 0: 00 00  (NLEN 0 first)")
    }

    @Test("Errors compare by code")
    func errorEquality() {
        #expect(TagMemoryError(.notFormatted, at: 12, "x") == TagMemoryError(.notFormatted, "y"))
        #expect(TagMemoryError(.notFormatted, "x") != TagMemoryError(.malformedTLV, "x"))
    }
}
