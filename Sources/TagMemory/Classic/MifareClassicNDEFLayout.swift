/// The NFC Forum layout of a MIFARE Classic card: what a card formatted for NDEF holds in its
/// MAD sectors and its NFC sectors (NXP AN1304 and AN1305, NFC Type MIFARE Classic; AN10787,
/// MIFARE Application Directory).
///
/// - Sector 0 (and sector 16 of a 4K card) is the MAD: blocks 1 and 2 (64-66) hold the CRC,
///   the info byte 01h and the NDEF AID E103h (stored 03 E1) for every other sector; its
///   trailer is the MAD key A A0A1A2A3A4A5, access bits 78 77 88 (data written with key B
///   only), GPB C1h (MAD1) or C2h (MAD2 on a card of more than 16 sectors), and key B.
/// - Every other sector is an NFC sector: its trailer is the NFC Forum key A D3F7D3F7D3F7,
///   access bits 7F 07 88 (data read and written with either key, the trailer with key B), GPB
///   40h (NDEF 1.0, read and write access granted), and key B; read-only (AN1305), access bits
///   07 8F 0F (data read with either key, no write) and GPB 43h.
/// - The first NFC sector's first block starts with an empty NDEF Message TLV, 03 00 FE.
///
/// The info byte and the CRCs match NXP's own formatter (Android rw_mfc.cc writes MAD1 with
/// CRC 14h and MAD2 with CRC E8h), so cards formatted here and there are alike.
public struct MifareClassicNDEFLayout: Sendable, Hashable {
    /// The product.
    public let type: MifareClassicType

    /// The layout of `type`.
    public init(type: MifareClassicType) {
        self.type = type
    }

    /// The MAD info byte written: 01h.
    public static let infoByte: UInt8 = 0x01
    /// The content of the first NFC sector's first block: an empty NDEF Message TLV, then a
    /// Terminator TLV (AN1304, INITIALIZED state).
    public static let emptyMessageBlock: [UInt8] = [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13)

    /// The MAD sectors: 0, and 16 on a card with more than 16 sectors.
    public var directorySectors: [MifareClassicSector] {
        type.sectors.filter(\.isDirectorySector)
    }

    /// The NFC sectors: every sector but the MAD sectors, in order.
    public var ndefSectors: [MifareClassicSector] {
        type.sectors.filter { !$0.isDirectorySector }
    }

    /// The general purpose byte of the MAD sectors: C1h (MAD1), C2h on a card with MAD2.
    public var directoryGeneralPurposeByte: MifareClassicGeneralPurposeByte {
        type.hasMAD2Sector ? .mad2 : .mad1
    }

    /// The data blocks of the MAD, by block number: blocks 1 and 2 (MAD1) and, on a card with
    /// more than 16 sectors, 64, 65 and 66 (MAD2), each directory with its CRC (``MADCRC``).
    public var directoryBlocks: [(block: Int, data: [UInt8])] {
        var blocks: [(Int, [UInt8])] = []
        let mad1 = Self.directory(aidCount: 15)
        blocks.append((1, Array(mad1[0..<16])))
        blocks.append((2, Array(mad1[16..<32])))
        if type.hasMAD2Sector {
            let aidCount = type.sectorCount - MifareClassicSector.mad2SectorNumber - 1
            let mad2 = Self.directory(aidCount: aidCount) + [UInt8](repeating: 0, count: max(0, 48 - 2 - aidCount * 2))
            for index in 0..<3 { blocks.append((64 + index, Array(mad2[(index * 16)..<(index * 16 + 16)]))) }
        }
        return blocks
    }

    /// A directory: CRC, info byte, `aidCount` NDEF AIDs (AN10787).
    static func directory(aidCount: Int) -> [UInt8] {
        let body =
            [infoByte]
            + Array([[UInt8]](repeating: MADApplicationIdentifier.ndef.storedBytes, count: aidCount).joined())
        return [MADCRC.compute(body)] + body
    }

    /// The trailer of a MAD sector with `keyB`.
    public func directoryTrailer(keyB: MifareClassicKey) -> [UInt8] {
        MifareClassicKey.directoryKeyA.bytes + MifareClassicAccessBits.directory.bytes
            + [directoryGeneralPurposeByte.rawValue] + keyB.bytes
    }

    /// The trailer of an NFC sector with `keyB`: read/write, or read-only (AN1305).
    public func ndefTrailer(keyB: MifareClassicKey, readOnly: Bool = false) -> [UInt8] {
        let bits: MifareClassicAccessBits = readOnly ? .ndefReadOnly : .ndefReadWrite
        let purpose: MifareClassicGeneralPurposeByte = readOnly ? .ndefReadOnly : .ndefReadWrite
        return MifareClassicKey.ndefKeyA.bytes + bits.bytes + [purpose.rawValue] + keyB.bytes
    }

    /// The whole image of a card formatted for NDEF and empty: `manufacturerBlock` (block 0 as
    /// the card has it), the MAD, the NFC sectors with `03 00 FE` at the start, every trailer
    /// with `keyB`.
    public func formattedImage(manufacturerBlock: [UInt8], keyB: MifareClassicKey) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: type.byteCount)
        let size = MifareClassicSector.blockSize
        image.replaceSubrange(0..<size, with: (manufacturerBlock + [UInt8](repeating: 0, count: size)).prefix(size))
        for (block, data) in directoryBlocks {
            image.replaceSubrange((block * size)..<(block * size + size), with: data)
        }
        for sector in directorySectors {
            image.replaceSubrange(sector.trailerBytes, with: directoryTrailer(keyB: keyB))
        }
        for sector in ndefSectors { image.replaceSubrange(sector.trailerBytes, with: ndefTrailer(keyB: keyB)) }
        if let first = ndefSectors.first {
            image.replaceSubrange(
                first.firstBlock * size..<(first.firstBlock * size + size), with: Self.emptyMessageBlock)
        }
        return image
    }
}
