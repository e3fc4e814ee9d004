import HexText
import TagMemory

/// Every page (Type 2) or block (MIFARE Classic) of a dump as hex, as `ndeftool inspect -v`
/// adds to its text: `page  4 (04h): 03 0C D1 01`.
///
/// Secrets are never shown: the PWD and PACK pages of NTAG21x and MIFARE Ultralight EV1
/// (NTAG213/215/216 8.8, MF0ULX1 8.6), the 3DES key pages of MIFARE Ultralight C (MF0ICU2 7.5.7),
/// and the keys A and B of MIFARE Classic sector trailers (bytes 0-5 and 10-15, MF1S50YYX 8.7.1)
/// read `**`.
package enum InspectMemoryLines {
    /// The lines for `dump`, read as `chip` when it is a Type 2 dump; `unitCount` pages or blocks.
    package static func lines(_ dump: TagDump, chip: Type2Chip?, unitCount: Int) -> [String] {
        let size = dump.layout.unitSize
        let type2 = dump.layout == .type2
        let secretPages: Set<Int> =
            type2
            ? Set(
                (chip?.configurationPages.map { [$0.password, $0.passwordAcknowledge] } ?? [])
                    + (chip?.tripleDESPages.map { Array($0.key) } ?? []))
            : []
        let digits = String(max(0, unitCount - 1)).count
        var heading = "memory (keys A and B shown as **):"
        if type2 {
            heading =
                chip?.configurationPages != nil
                ? "memory (PWD and PACK shown as **):"
                : chip?.tripleDESPages != nil ? "memory (the 3DES key shown as **):" : "memory:"
        }
        var lines = [heading]
        for unit in 0..<unitCount {
            let start = unit * size
            guard start + size <= dump.memory.count else { break }
            let bytes = dump.memory[start..<(start + size)]
            var shown = bytes.map { Hex.bytes([$0]) }
            if secretPages.contains(unit) {
                shown = shown.map { _ in "**" }
            } else if !type2, isSectorTrailer(unit) {
                for index in Array(0..<6) + Array(10..<16) { shown[index] = "**" }
            }
            let number = String(unit)
            let padding = String(repeating: " ", count: digits - number.count)
            lines.append(
                "  \(type2 ? "page" : "block") \(padding)\(number) (\(Hex.number(unit, minimumDigits: 2))h): "
                    + shown.joined(separator: " "))
        }
        return lines
    }

    /// Whether MIFARE Classic block `block` is a sector trailer: the last of each 4-block sector
    /// (sectors 0-31), then of each 16-block sector (sectors 32-39 of a 4K card).
    package static func isSectorTrailer(_ block: Int) -> Bool {
        block < 128 ? block % 4 == 3 : (block - 128) % 16 == 15
    }
}
