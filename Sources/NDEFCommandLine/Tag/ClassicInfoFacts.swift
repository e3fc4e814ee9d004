import HexText
import NFCSession
import TagMemory

/// What `ndeftool info` adds for a MIFARE Classic card: the product, the MAD, and for every
/// sector the key that opened it (a public key by name; a keys file's key, never shown) and its
/// access conditions in words (NXP MF1S50yyX 8.7, Tables 7 and 8; AN10787; AN1304).
struct ClassicInfoFacts: Encodable {
    /// One sector as read.
    struct Sector: Encodable {
        var number: Int
        /// `transport key`, `MAD key A`, `NFC Forum key A`, `key of the keys file`, or nil:
        /// none opened it.
        var openedWith: String?
        /// The access bits as hex, when the trailer was read.
        var accessBits: String?
        /// The general purpose byte as hex.
        var generalPurposeByte: String?
        /// The access of the data blocks and the trailer, in words.
        var access: [String]
    }

    /// The product.
    var type: MifareClassicType
    /// The MAD version (1 or 2), nil without a MAD.
    var madVersion: Int?
    /// Whether the MAD's CRCs match.
    var madCRCValid: Bool?
    /// The NFC sectors the MAD names.
    var ndefSectors: [Int]
    /// The sectors, in order.
    var sectors: [Sector]
    /// Whether the card answers the Gen1a backdoor of magic clones (its block 0 is writable);
    /// nil when the reader cannot send 7-bit frames.
    var gen1aBackdoor: Bool?
    /// What the blocks hold, in words: the manufacturer block, the MAD, the NDEF Message TLV,
    /// the trailers (MF1S50yyX 8.6; AN10787; AN1304).
    var blockMap: [String]

    /// The facts of a card of `type` from its sector readings and the NDEF area read.
    init(type: MifareClassicType, readings: [NFCMiFareClassicTag.SectorReading], memory: MifareClassicMemory) {
        self.type = type
        self.madVersion = memory.directory?.version
        self.madCRCValid = memory.directory?.isCRCValid
        self.ndefSectors = memory.ndefSectors.map(\.number)
        self.blockMap = Self.blockMap(type: type, memory: memory)
        self.sectors = readings.map { reading in
            var facts = Sector(number: reading.sector, openedWith: reading.key.map(Self.name), access: [])
            guard let trailer = reading.trailer, trailer.count == 16 else { return facts }
            let bits = MifareClassicAccessBits(byte6: trailer[6], byte7: trailer[7], byte8: trailer[8])
            facts.accessBits = bits.hexText
            facts.generalPurposeByte = Hex.byte(trailer[9])
            facts.access = Self.words(bits)
            return facts
        }
    }

    /// The block map of a card of `type` whose NDEF area reads as `memory`.
    static func blockMap(type: MifareClassicType, memory: MifareClassicMemory) -> [String] {
        var map = ["block 0: manufacturer block (UID, SAK, ATQA), write-protected"]
        if let directory = memory.directory {
            map.append("blocks 1-2: MAD1" + (directory.version == 2 ? "; blocks 64-66: MAD2 (sector 16)" : ""))
        }
        if let tlv = memory.ndefTLV, let last = tlv.valueRanges.last {
            let end = max(last.upperBound, tlv.typeAddress + 1) - 1
            let first = tlv.typeAddress / 16
            let skipped = first <= 64 && end / 16 >= 64 ? "trailers and the MAD2 sector 16 skipped" : "trailers skipped"
            map.append(
                "blocks \(first)-\(end / 16): NDEF Message TLV (\(tlv.length)-byte message, bytes "
                    + "\(tlv.typeAddress)-\(end), \(skipped))")
        }
        let trailers = type.sectors.map(\.trailerBlock)
        map.append(
            "sector trailers (keys, access bits, GPB): blocks "
                + (trailers.count > 4
                    ? "\(trailers[0]), \(trailers[1]), \(trailers[2]), ... \(trailers[trailers.count - 1])"
                    : trailers.map(String.init).joined(separator: ", ")))
        return map
    }

    /// The name a key is shown by: public keys by name, any other as from the keys file.
    static func name(_ key: MifareClassicKey) -> String {
        switch key {
        case .transport: "transport key"
        case .directoryKeyA: "MAD key A"
        case .ndefKeyA: "NFC Forum key A"
        default: "key of the keys file"
        }
    }

    /// The access bits in words: the data groups, then the trailer.
    static func words(_ bits: MifareClassicAccessBits) -> [String] {
        guard let trailer = bits.trailerAccess else { return ["access bits inconsistent: the card blocks the sector"] }
        let keyBReadable = trailer.isKeyBReadable
        var words = bits.dataBlockAccess.enumerated().map { group, access in
            let permissions = access.effective(keyBReadable: keyBReadable)
            return "data \(group): read \(permissions.read), write \(permissions.write)"
        }
        words.append(
            "trailer: key A written by \(trailer.keyAWrite), access bits by \(trailer.accessBitsWrite), "
                + "key B by \(trailer.keyBWrite)" + (keyBReadable ? " (key B readable: it opens nothing)" : ""))
        return words
    }

    /// The lines after the NDEF line.
    var lines: [String] {
        var lines: [String] = []
        if let madVersion {
            lines.append(
                "MAD: version \(madVersion), CRC \(madCRCValid == true ? "valid" : "NOT VALID"), NFC sectors "
                    + (ndefSectors.isEmpty ? "none" : Self.ranges(ndefSectors)))
        } else {
            lines.append("MAD: none (sector 0 holds no directory the MAD key A reads)")
        }
        switch gen1aBackdoor {
        case true?:
            lines.append(
                "magic card: it answers the Gen1a backdoor (40h in 7 bits, then 43h): block 0, the UID and "
                    + "manufacturer data, is writable on it")
        case false?: lines.append("Gen1a backdoor: no answer (block 0 is read-only, as on a genuine card)")
        case nil: lines.append("Gen1a backdoor: not checked (the reader cannot send 7-bit frames)")
        }
        lines.append("block map:")
        lines += blockMap.map { "  \($0)" }
        lines.append("sectors:")
        // Runs of sectors that read alike are shown once: a factory card is one line.
        var index = sectors.startIndex
        while index < sectors.endIndex {
            let first = sectors[index]
            var end = index + 1
            while end < sectors.endIndex, Self.readAlike(sectors[end], first) { end += 1 }
            let numbers = Self.ranges(sectors[index..<end].map(\.number))
            let label = end - index == 1 ? "  sector \(numbers)" : "  sectors \(numbers)"
            if let opened = first.openedWith {
                let bits = first.accessBits.map { ", access bits \($0)" } ?? ""
                let gpb = first.generalPurposeByte.map { ", GPB \($0)h" } ?? ""
                lines.append("\(label): opened with the \(opened)\(bits)\(gpb)")
                lines += first.access.map { "      \($0)" }
            } else {
                lines.append("\(label): open with none of the keys tried")
            }
            index = end
        }
        return lines
    }

    /// Whether two sectors show the same: the same key, access bits, GPB.
    static func readAlike(_ left: Sector, _ right: Sector) -> Bool {
        left.openedWith == right.openedWith && left.accessBits == right.accessBits
            && left.generalPurposeByte == right.generalPurposeByte
    }

    /// `1-15, 17-39`.
    static func ranges(_ numbers: [Int]) -> String {
        var parts: [String] = []
        var start = numbers.first ?? 0
        var previous = start
        for number in numbers.dropFirst() + [Int.min] {
            if number == previous + 1 {
                previous = number
                continue
            }
            parts.append(start == previous ? "\(start)" : "\(start)-\(previous)")
            start = number
            previous = number
        }
        return numbers.isEmpty ? "" : parts.joined(separator: ", ")
    }
}
