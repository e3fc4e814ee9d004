import HexText
import NDEF
import TagMemory

/// What the dump file itself says: its format, size, and the reader's notes (Flipper and
/// proxmark3 keep ATQA, SAK, how many pages were read, failed authentications).
package struct InspectDumpFacts: Encodable {
    /// The file format, detected or forced.
    package var format: TagDumpFormat
    /// Type 2 pages or MIFARE Classic blocks.
    package var layout: TagDump.Layout
    /// The number of pages (Type 2) or blocks (MIFARE Classic).
    package var unitCount: Int
    /// The size of the memory image in bytes.
    package var byteCount: Int
    /// How many pages the reading tool managed to read, when the file says.
    package var pagesRead: Int?
    /// ATQA, most significant byte first.
    package var atqa: [UInt8]?
    /// SAK.
    package var sak: UInt8?
    /// Failed PWD_AUTH attempts the reading tool counted.
    package var failedAuthenticationAttempts: UInt32?

    package init(dump: TagDump, format: TagDumpFormat) {
        self.format = format
        layout = dump.layout
        unitCount = dump.pageCount
        byteCount = dump.memory.count
        pagesRead = dump.readPageCount
        atqa = dump.atqa
        sak = dump.sak
        failedAuthenticationAttempts = dump.failedAuthenticationAttempts
    }

    /// The pages the memory map is read from: all, or the ones the tool read.
    package var usedUnitCount: Int { min(unitCount, max(0, pagesRead ?? unitCount)) }

    private enum CodingKeys: String, CodingKey {
        case format, layout, pages, blocks, bytes, pagesRead, atqa, sak, failedAuthenticationAttempts
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(layout, forKey: .layout)
        try container.encode(unitCount, forKey: layout == .type2 ? .pages : .blocks)
        try container.encode(byteCount, forKey: .bytes)
        try container.encodeIfPresent(pagesRead, forKey: .pagesRead)
        try container.encodeIfPresent(atqa.map { Hex.encode($0) }, forKey: .atqa)
        try container.encodeIfPresent(sak.map { Hex.encode([$0]) }, forKey: .sak)
        try container.encodeIfPresent(failedAuthenticationAttempts, forKey: .failedAuthenticationAttempts)
    }

    /// `dump: Flipper NFC file, 45 pages (180 bytes), 41 of 45 pages read ...`.
    package var lines: [String] {
        let unit = layout == .type2 ? "page" : "MIFARE Classic block"
        var line =
            "dump: \(format), \(InspectFormatting.count(unitCount, unit)) of \(layout.unitSize) bytes "
            + "(\(byteCount) bytes)"
        if let pagesRead, pagesRead < unitCount {
            line += "; \(pagesRead) of \(unitCount) pages read"
            if let span = AddressSpan(pagesRead..<unitCount) {
                line += " (\(span.text("page")) not used)"
            }
        }
        var lines = [line]
        var notes: [String] = []
        if let atqa { notes.append("ATQA " + Hex.bytes(atqa)) }
        if let sak { notes.append("SAK " + Hex.bytes([sak])) }
        if let failedAuthenticationAttempts {
            notes.append("\(failedAuthenticationAttempts) failed authentication attempts recorded")
        }
        if !notes.isEmpty { lines.append("  " + notes.joined(separator: ", ")) }
        return lines
    }
}
