/// A MIFARE Classic product, by the number of sectors it has.
///
/// NXP MF1S20yyX (Mini: 5 sectors of 4 blocks), MF1S50yyX section 8.6 (1K: 16 sectors of
/// 4 blocks), MF1S70yyX section 8.6 (4K: 32 sectors of 4 blocks, then 8 sectors of 16 blocks).
/// MIFARE Plus 2K in its MIFARE Classic compatible level has 32 sectors of 4 blocks (libnfc
/// `nfc-mfclassic` writes such a card as a 2048-byte image). A block has 16 bytes.
public enum MifareClassicType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// MIFARE Classic Mini: 5 sectors, 20 blocks, 320 bytes.
    case mini
    /// MIFARE Classic 1K: 16 sectors, 64 blocks, 1024 bytes.
    case classic1K = "1k"
    /// MIFARE Plus 2K (MIFARE Classic compatible): 32 sectors, 128 blocks, 2048 bytes.
    case classic2K = "2k"
    /// MIFARE Classic 4K: 40 sectors, 256 blocks, 4096 bytes.
    case classic4K = "4k"

    /// The product whose full image has `imageSize` bytes, or nil for any other size.
    public init?(imageSize: Int) {
        guard let match = Self.allCases.first(where: { $0.byteCount == imageSize }) else { return nil }
        self = match
    }

    /// The number of sectors.
    public var sectorCount: Int {
        switch self {
        case .mini: 5
        case .classic1K: 16
        case .classic2K: 32
        case .classic4K: 40
        }
    }

    /// The number of blocks.
    public var blockCount: Int {
        guard let last = MifareClassicSector(sectorCount - 1) else { return 0 }
        return last.firstBlock + last.blockCount
    }

    /// The size of a full memory image, in bytes.
    public var byteCount: Int { blockCount * MifareClassicSector.blockSize }

    /// The sectors, in order.
    public var sectors: [MifareClassicSector] { (0..<sectorCount).compactMap { MifareClassicSector($0) } }

    /// Whether the card has a sector 16 to hold MAD2 (AN10787: MAD2 is for cards with more
    /// than 16 sectors).
    public var hasMAD2Sector: Bool { sectorCount > MifareClassicSector.mad2SectorNumber }

    public var description: String {
        switch self {
        case .mini: "MIFARE Classic Mini"
        case .classic1K: "MIFARE Classic 1K"
        case .classic2K: "MIFARE Plus 2K"
        case .classic4K: "MIFARE Classic 4K"
        }
    }
}
