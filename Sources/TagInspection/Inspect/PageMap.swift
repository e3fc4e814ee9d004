import HexText
import TagMemory

/// A Type 2 tag's memory drawn one row per page, as `ndeftool info` and `inspect` print it: the
/// page number, its four bytes in hex and as ASCII, what the page holds and whether it is
/// locked. Runs of pages that hold the same thing and only zero bytes collapse into one row.
///
/// Roles come from the memory map (``TagMemory/Type2Memory/regions``: NFC Forum Type 2 Tag 1.1
/// 2.1, the chip's datasheet for dynamic lock, configuration, counter and key pages) and, in the
/// data area, from the TLV blocks found there (2.3): the pages of the NDEF Message TLV read
/// `NDEF TLV`. Lock state is ``TagMemory/Type2Memory/isPageLocked(_:)`` (static and dynamic lock
/// bits, CFGLCK), plus `pwd` where writing needs PWD_AUTH (AUTH0, NTAG213/215/216 8.8).
/// PWD, PACK and a 3DES key are never shown: their bytes read `**`.
package struct PageMap: Sendable {
    /// One row: a page, or a run of empty pages with the same role and lock state.
    package struct Row: Sendable, Hashable {
        /// The pages, one or more.
        package var pages: ClosedRange<Int>
        /// The bytes as shown (`04`, or `**` for a secret).
        package var hex: [String]
        /// The bytes as ASCII, `.` for anything not printable; empty for a secret.
        package var ascii: String
        /// What the page holds: `UID`, `static lock`, `CC`, `NDEF TLV`, `data`, ...
        package var role: String
        /// `locked`, `pwd` (writing needs the password), both, or empty.
        package var lock: String
    }

    /// The rows, in page order.
    package var rows: [Row]

    /// The map of `memory`, with its chip's configuration pages; `pageCount` pages of it.
    package init(memory: Type2Memory, pageCount: Int) {
        let chip = memory.chip
        var secret: Set<Int> = []
        var roles: [Int: String] = [:]
        if let configuration = chip?.configurationPages {
            secret.formUnion([configuration.password, configuration.passwordAcknowledge])
            roles[configuration.cfg0] = "CFG0"
            roles[configuration.cfg1] = "CFG1"
            roles[configuration.password] = "PWD"
            roles[configuration.passwordAcknowledge] = "PACK"
        }
        if let key = chip?.tripleDESPages { secret.formUnion(key.key) }
        var ndefPages: Set<Int> = []
        var tlvPages: Set<Int> = []
        for tlv in memory.tlvs {
            let first = tlv.typeAddress / Type2Page.size
            let last = max(tlv.typeAddress, tlv.endAddress - 1) / Type2Page.size
            if case .ndefMessage = tlv.kind {
                ndefPages.formUnion(first...last)
            } else if case .null = tlv.kind {
                continue
            } else {
                tlvPages.formUnion(first...last)
            }
        }
        let configuration = memory.configuration
        var rows: [Row] = []
        for page in 0..<pageCount {
            let start = page * Type2Page.size
            guard start + Type2Page.size <= memory.bytes.count else { break }
            let bytes = Array(memory.bytes[start..<(start + Type2Page.size)])
            let isSecret = secret.contains(page)
            let role =
                roles[page] ?? (ndefPages.contains(page) ? "NDEF TLV" : tlvPages.contains(page) ? "TLV" : nil)
                ?? Self.role(of: page, in: memory.regions)
            var lock: [String] = []
            if memory.isPageLocked(page) { lock.append("locked") }
            if configuration?.isPageWriteProtected(page) == true { lock.append("pwd") }
            let row = Row(
                pages: page...page,
                hex: isSecret ? Array(repeating: "**", count: bytes.count) : bytes.map { Hex.byte($0) },
                ascii: isSecret ? "" : String(bytes.map(Self.ascii)), role: role,
                lock: lock.joined(separator: ", "))
            let isEmpty = !isSecret && bytes.allSatisfy { $0 == 0 }
            if isEmpty, var last = rows.last, last.hex == row.hex, last.role == row.role, last.lock == row.lock,
                last.pages.upperBound == page - 1
            {
                last.pages = last.pages.lowerBound...page
                rows[rows.count - 1] = last
            } else {
                rows.append(row)
            }
        }
        self.rows = rows
    }

    /// The role of a page from the region that holds its first byte.
    static func role(of page: Int, in regions: [Type2MemoryRegion]) -> String {
        let start = page * Type2Page.size
        guard let region = regions.first(where: { $0.bytes.contains(start) }) else { return "" }
        switch region.kind {
        case .uid: return "UID"
        case .staticLock: return "static lock"
        case .capabilityContainer: return "CC"
        case .dataArea: return "data"
        case .userMemory: return "user memory"
        case .reservedByTLV: return "reserved"
        case .dynamicLock: return "dynamic lock"
        case .configuration: return "configuration"
        case .counter: return "counter"
        case .authentication: return "AUTH0/AUTH1"
        case .key: return "3DES key"
        case .beyondChip: return "past the chip"
        case .unknown: return "unknown"
        }
    }

    /// The map as text: a heading, then one line per row; `style` colours the role and lock.
    package func lines(style: (String, PageMapStyle) -> String = { text, _ in text }) -> [String] {
        let secretNote = rows.contains { $0.hex.first == "**" } ? " (secrets shown as **)" : ""
        var lines = [
            "page map\(secretNote):",
            "     page   " + "hex".padded(to: 11) + "  ascii  " + "role".padded(to: 14) + " lock",
        ]
        for row in rows {
            let number =
                row.pages.count == 1
                ? String(row.pages.lowerBound) : "\(row.pages.lowerBound)-\(row.pages.upperBound)"
            let pages = String(repeating: " ", count: max(0, 7 - number.count)) + number
            let ascii = row.ascii.padded(to: 4)
            var role = row.role
            if row.pages.count > 1 { role += " (\(row.pages.count) pages, all 00)" }
            let kind: PageMapStyle = row.role == "NDEF TLV" ? .message : row.hex.first == "**" ? .secret : .plain
            var line = "  \(pages)   \(row.hex.joined(separator: " "))  \(ascii)   "
            line += style(role.padded(to: 14), kind)
            if !row.lock.isEmpty { line += " " + style(row.lock, .lock) }
            lines.append(line.trimmingTrailingSpaces())
        }
        return lines
    }

    private static func ascii(_ byte: UInt8) -> Character {
        (0x20...0x7E).contains(byte) ? Character(Unicode.Scalar(byte)) : "."
    }
}

/// What a part of a page map line is, for colour.
package enum PageMapStyle: Sendable {
    case plain, message, secret, lock
}

extension String {
    /// The text with spaces after it up to `width` characters.
    fileprivate func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// The text without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
