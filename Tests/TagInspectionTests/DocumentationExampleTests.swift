import Foundation
import NDEF
import TagInspection
import TagMemory
import TestSupport
import Testing

/// The Swift example of the TagInspection DocC catalog, as printed there, run on a Flipper file.
@Suite struct TagInspectionDocumentationExampleTests {
    @Test("TagInspection.md: the report of a dump file")
    func overview() throws {
        // Example begin
        /// Prints the report of the dump at `path` ("tag.nfc").
        func describeDump(at path: String) throws -> TagInspectionReport {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let format = try TagDump.detect(bytes, fileName: path)
            let report = TagInspectionReport(dump: try TagDump(decoding: bytes, format: format), format: format)
            print(report.text)
            print(report.status.status, report.message?.records.count ?? 0)
            return report
        }
        // Example end
        let report = try describeDump(at: PackagePaths.fixture("examples/tag.nfc"))
        #expect(report.message?.records.count == 2)
        #expect(report.text.contains("NTAG215"))
    }
}
