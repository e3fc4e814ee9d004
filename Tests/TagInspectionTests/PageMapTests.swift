import Foundation
import TagMemory
import TestSupport
import Testing

@testable import TagInspection

/// The page map of `info` and `inspect`: a row per page with its role and lock state, empty runs
/// collapsed, secrets never shown (NFC Forum Type 2 Tag 1.1 2.1; NTAG213/215/216 8.5 and 8.8).
@Suite struct PageMapTests {
    /// The NTAG215 of the examples (`Fixtures/examples/tag.nfc`): a URI and a text record.
    static func ntag215() throws -> Type2Memory {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: PackagePaths.fixture("examples/tag.nfc"))))
        let dump = try TagDump(decoding: bytes, format: .flipper)
        return Type2Memory(bytes: dump.memory, chip: .ntag215)
    }

    @Test("Roles of an NTAG215's pages: UID, static lock, CC, NDEF TLV, data, dynamic lock, configuration")
    func roles() throws {
        let map = PageMap(memory: try Self.ntag215(), pageCount: 135)
        let byPage = Dictionary(uniqueKeysWithValues: map.rows.map { ($0.pages.lowerBound, $0) })
        #expect(byPage[0]?.role == "UID" && byPage[0]?.lock == "locked")
        #expect(byPage[2]?.role == "static lock" && byPage[3]?.role == "CC")
        #expect((4...11).allSatisfy { byPage[$0]?.role == "NDEF TLV" })
        #expect(byPage[4]?.hex == ["03", "1C", "91", "01"])
        // Pages 12-127 are empty data: one row; then the two pages of user memory past the CC's area.
        #expect(byPage[12]?.pages == 12...127 && byPage[12]?.role == "data")
        #expect(byPage[128]?.pages == 128...129 && byPage[128]?.role == "user memory")
        #expect(byPage[130]?.role == "dynamic lock")
        #expect(byPage[131]?.role == "CFG0" && byPage[132]?.role == "CFG1")
        #expect(map.rows.count == 19)
    }

    @Test("PWD and PACK are never shown, whatever they hold")
    func secrets() throws {
        let memory = try Self.ntag215().applyingWrite(page: 133, data: [0x12, 0x34, 0x56, 0x78], authenticated: true)
        let map = PageMap(memory: memory, pageCount: 135)
        let pwd = try #require(map.rows.first { $0.pages.lowerBound == 133 })
        #expect(pwd.hex == ["**", "**", "**", "**"] && pwd.ascii.isEmpty && pwd.role == "PWD")
        let text = map.lines().joined(separator: "\n")
        #expect(!text.contains("12 34 56 78") && text.hasPrefix("page map (secrets shown as **):"))
    }

    @Test("After a lock every user page reads locked; with AUTH0 4 the pages from 4 need the password")
    func lockState() throws {
        let memory = try Self.ntag215()
        let locked = try memory.applying(try memory.lockPlan())
        let map = PageMap(memory: locked, pageCount: 135)
        for row in map.rows where (3...129).contains(row.pages.lowerBound) {
            #expect(row.lock == "locked", "page \(row.pages)")
        }
        var protected = memory
        protected = try protected.applyingWrite(page: 131, data: [0x04, 0x00, 0x00, 0x04], authenticated: true)
        let passwordMap = PageMap(memory: protected, pageCount: 135)
        #expect(passwordMap.rows.first { $0.pages.lowerBound == 3 }?.lock == "")
        #expect(passwordMap.rows.first { $0.pages.lowerBound == 4 }?.lock == "pwd")
        #expect(passwordMap.rows.first { $0.pages.lowerBound == 12 }?.pages == 12...127)
    }

    @Test("Lines: aligned columns, the collapsed run counted, colour only where asked")
    func lines() throws {
        let map = PageMap(memory: try Self.ntag215(), pageCount: 135)
        let lines = map.lines()
        #expect(lines[1] == "     page   hex          ascii  role           lock")
        #expect(lines.contains("        6   78 61 6D 70  xamp   NDEF TLV"))
        #expect(lines.contains("   12-127   00 00 00 00  ....   data (116 pages, all 00)"))
        let marked = map.lines { text, kind in kind == .lock ? "<\(text)>" : text }
        #expect(marked.contains("        0   04 51 7C A1  .Q|.   UID            <locked>"))
    }
}
