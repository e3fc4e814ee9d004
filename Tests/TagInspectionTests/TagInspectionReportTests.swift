import Foundation
import NDEF
import TagInspection
import TagMemory
import TestSupport
import Testing

/// Inspecting a dump with the library products only, as a tool that reads dumps would.
@Suite struct TagInspectionReportTests {
    @Test("A Flipper dump of an NTAG213: its message, status and text, and JSON with the same facts")
    func flipperDump() throws {
        let bytes = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: PackagePaths.fixture("dumps/ntag213-uri-flipper-v4.nfc"))))
        let format = try TagDump.detect(bytes, fileName: "ntag213-uri-flipper-v4.nfc")
        let report = TagInspectionReport(dump: try TagDump(decoding: bytes, format: format), format: format)
        #expect(report.status.status == .readWrite)
        #expect(report.problem == nil)
        let uri = try #require(report.message?.records.first)
        #expect(uri.typeString == "U")
        #expect(report.text.contains("NDEF message: 1 record"))
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["status"] as? String == "readWrite")
        #expect((json?["uid"] as? String)?.count == 14)
    }

    @Test("A hostile image reads to a report, not a crash: no message, and the problem said")
    func hostileImage() throws {
        var bytes = [UInt8](repeating: 0, count: 180)
        bytes[12...15] = [0xE1, 0x10, 0x12, 0x00]  // NDEF CC, 144 bytes
        bytes[16...19] = [0x03, 0xFF, 0xFF, 0xFF]  // an NDEF TLV longer than the tag
        let report = TagInspectionReport(dump: try TagDump(decoding: bytes, format: .raw), format: .raw)
        #expect(report.message == nil)
        #expect(report.problem != nil || report.statusReason != nil)
        #expect(!report.text.isEmpty)
    }
}
