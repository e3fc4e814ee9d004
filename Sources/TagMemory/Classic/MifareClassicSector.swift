/// One sector of a MIFARE Classic card: its blocks, its sector trailer and their byte addresses.
///
/// NXP MF1S50yyX section 8.6 and MF1S70yyX section 8.6: sectors 0-31 have 4 blocks of
/// 16 bytes, sectors 32-39 (4K only) have 16 blocks. The last block of every sector is the
/// sector trailer (8.6.3): key A, the access bits, the general purpose byte and key B. The
/// other blocks are data blocks; block 0 of sector 0 is the read-only manufacturer block
/// (8.6.1). Byte addresses count from byte 0 of block 0, as in a libnfc `.mfd` image.
///
/// The access bits of a 4-block sector govern each block; in a 16-block sector they govern
/// groups of 5 data blocks (0-4, 5-9, 10-14) and the trailer (MF1S70yyX 8.7.1).
public struct MifareClassicSector: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The bytes in a block.
    public static let blockSize = 16
    /// The largest number of sectors a card has (MIFARE Classic 4K).
    public static let maximumCount = 40
    /// The sector holding MAD1 (AN10787): sector 0.
    public static let mad1SectorNumber = 0
    /// The sector holding MAD2 on cards with more than 16 sectors (AN10787): sector 16.
    public static let mad2SectorNumber = 16
    /// The first sector with 16 blocks (MF1S70yyX 8.6).
    public static let firstLargeSectorNumber = 32

    /// The sector number, 0 to 39.
    public let number: Int

    /// The sector with number `number`, or nil outside 0...39.
    public init?(_ number: Int) {
        guard (0..<Self.maximumCount).contains(number) else { return nil }
        self.number = number
    }

    /// The sector holding block `block`, or nil for a block outside 0...255.
    public static func containing(block: Int) -> MifareClassicSector? {
        let smallBlocks = firstLargeSectorNumber * 4
        if block < 0 { return nil }
        if block < smallBlocks { return MifareClassicSector(block / 4) }
        return MifareClassicSector(firstLargeSectorNumber + (block - smallBlocks) / 16)
    }

    /// The sector holding byte `address` of an image, or nil outside 0...4095.
    public static func containing(byte address: Int) -> MifareClassicSector? {
        address < 0 ? nil : containing(block: address / blockSize)
    }

    /// The number of blocks: 4, or 16 from sector 32 on.
    public var blockCount: Int { number < Self.firstLargeSectorNumber ? 4 : 16 }

    /// The address of the first block.
    public var firstBlock: Int {
        if number < Self.firstLargeSectorNumber { return number * 4 }
        return Self.firstLargeSectorNumber * 4 + (number - Self.firstLargeSectorNumber) * 16
    }

    /// The address of the sector trailer, the last block.
    public var trailerBlock: Int { firstBlock + blockCount - 1 }

    /// The block addresses of the data blocks (every block but the trailer).
    public var dataBlocks: Range<Int> { firstBlock..<trailerBlock }

    /// The byte addresses of the whole sector.
    public var bytes: Range<Int> { (firstBlock * Self.blockSize)..<((trailerBlock + 1) * Self.blockSize) }

    /// The byte addresses of the data blocks.
    public var dataBytes: Range<Int> { (firstBlock * Self.blockSize)..<(trailerBlock * Self.blockSize) }

    /// The byte addresses of the sector trailer.
    public var trailerBytes: Range<Int> { (trailerBlock * Self.blockSize)..<((trailerBlock + 1) * Self.blockSize) }

    /// The number of data bytes: 48, or 240 in a 16-block sector.
    public var dataByteCount: Int { (blockCount - 1) * Self.blockSize }

    /// Whether this sector holds a MIFARE Application Directory (sector 0 or 16, AN10787).
    public var isDirectorySector: Bool { number == Self.mad1SectorNumber || number == Self.mad2SectorNumber }

    /// Whether `block` is this sector's trailer.
    public func isTrailer(_ block: Int) -> Bool { block == trailerBlock }

    /// The access-bit group (0-3) that governs `block`, or nil for a block of another sector.
    ///
    /// Group 3 is the trailer. In a 4-block sector group n is block n; in a 16-block sector
    /// groups 0, 1 and 2 are data blocks 0-4, 5-9 and 10-14 (MF1S70yyX 8.7.1).
    public func accessGroup(ofBlock block: Int) -> Int? {
        guard (firstBlock...trailerBlock).contains(block) else { return nil }
        let offset = block - firstBlock
        if block == trailerBlock { return 3 }
        return blockCount == 4 ? offset : offset / 5
    }

    /// Whether `block` is a sector trailer.
    public static func isTrailer(block: Int) -> Bool {
        containing(block: block)?.trailerBlock == block
    }

    public static func < (lhs: MifareClassicSector, rhs: MifareClassicSector) -> Bool { lhs.number < rhs.number }

    public var description: String { "sector \(number)" }
}
