import NDEF
import TagMemory
import Testing

/// The Swift example of the TagMemory DocC catalog, as printed there, then checks of its values.
@Suite struct TagMemoryDocumentationExampleTests {
    @Test("TagMemory.md: format a blank Ultralight, plan and apply a write")
    func overview() throws {
        // Example begin
        let chip = Type2Chip.mifareUltralight
        let blank = Type2Memory(bytes: [UInt8](repeating: 0, count: chip.pageCount * Type2Page.size), chip: chip)
        let formatted = try blank.applying(blank.formatPlan())
        print(formatted.ndefStatus.status, formatted.ndefStatus.capacity)  // readWrite 46

        let record = try URIRecord(uri: "https://example.com").makeRecord()
        let plan = try formatted.writePlan(for: NFCNDEFMessage(records: [record]))
        for step in plan.steps { print(step) }
        let written = try formatted.applying(plan)
        print(written.message?.records.count ?? 0)  // 1
        // Example end
        #expect(formatted.ndefStatus.status == .readWrite)
        #expect(formatted.ndefStatus.capacity == 46)
        #expect(written.message == NFCNDEFMessage(records: [record]))
    }
}
