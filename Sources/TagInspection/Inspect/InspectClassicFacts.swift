import TagMemory

/// What `inspect` says about a MIFARE Classic image: card type, MAD and NDEF sectors
/// (NXP AN10787 for the MAD, AN1304 for the NDEF mapping).
package struct InspectClassicFacts: Encodable {
    /// `"MIFARE Classic 1K"` and so on, from the image size.
    package var card: String
    package var sectorCount: Int
    /// The MAD version (1 or 2), when sector 0's general purpose byte announces one.
    package var madVersion: Int?
    /// Whether every MAD block's CRC-8 matches.
    package var madCRCValid: Bool?
    /// The sectors holding NDEF data (AID E103), in order.
    package var ndefSectors: [Int]

    package init(memory: MifareClassicMemory) {
        card = memory.type.map(Self.name) ?? "MIFARE Classic (size not recognised)"
        sectorCount = memory.sectors.count
        madVersion = memory.directory?.version
        madCRCValid = memory.directory?.isCRCValid
        ndefSectors = memory.ndefSectors.map(\.number)
    }

    private static func name(_ type: MifareClassicType) -> String {
        switch type {
        case .mini: "MIFARE Classic Mini"
        case .classic1K: "MIFARE Classic 1K"
        case .classic2K: "MIFARE Classic 2K"
        case .classic4K: "MIFARE Classic 4K"
        }
    }

    package var lines: [String] {
        var lines = ["card: \(card), \(MessageDescription.count(sectorCount, "sector"))"]
        if let madVersion {
            lines.append("MAD: version \(madVersion), CRC " + (madCRCValid == true ? "correct" : "WRONG"))
        } else {
            lines.append("MAD: none (sector 0 does not announce a MIFARE Application Directory)")
        }
        lines.append(
            ndefSectors.isEmpty
                ? "NDEF sectors: none"
                : "NDEF sectors: " + ndefSectors.map(String.init).joined(separator: ", "))
        return lines
    }
}
