extension MifareClassicMemory {
    /// The sectors the image holds whole, in order (up to the card type's sector count).
    public var sectors: [MifareClassicSector] {
        let limit = type?.sectorCount ?? MifareClassicSector.maximumCount
        return (0..<limit).compactMap(MifareClassicSector.init).filter { $0.bytes.upperBound <= bytes.count }
    }

    /// The trailer of `sector`, if the image holds its 16 bytes.
    public func trailer(of sector: MifareClassicSector) -> MifareClassicSectorTrailer? {
        Self.trailer(of: sector, in: bytes)
    }

    /// The trailers of ``sectors``, in order.
    public var trailers: [MifareClassicSectorTrailer] { sectors.compactMap { trailer(of: $0) } }

    /// The 16 bytes of block `block`, or nil if the image does not hold all of them.
    public func block(_ block: Int) -> [UInt8]? {
        let size = MifareClassicSector.blockSize
        guard block >= 0, block < bytes.count / size else { return nil }
        return Array(bytes[(block * size)..<(block * size + size)])
    }

    /// Block 0, the manufacturer block (MF1S50yyX 8.6.1), if the image holds it.
    public var manufacturerBlock: [UInt8]? { block(0) }

    /// For a card with a 4-byte UID (NUID): whether byte 4 of block 0 is the BCC, UID0 ⊕ UID1 ⊕
    /// UID2 ⊕ UID3 (ISO/IEC 14443-3; MF1S50yyX 8.6.1). Cards with a 7-byte UID have no BCC
    /// there, so false does not mean a damaged image. Nil if the image is shorter than 5 bytes.
    public var isFourByteUIDCheckValid: Bool? {
        guard bytes.count >= 5 else { return nil }
        return bytes[4] == bytes[0] ^ bytes[1] ^ bytes[2] ^ bytes[3]
    }

    /// The NDEF data area: from the first NFC sector's first data byte to the last one's last,
    /// trailers and sector 16 inside it being ``skippedBytes``; nil without NFC sectors.
    public var dataArea: Range<Int>? { Self.dataArea(of: ndefSectors) }

    /// The bytes of ``dataArea`` that hold no NDEF data: the trailers of the NFC sectors before
    /// the last and, when the run passes it, the MAD2 sector 16 (AN1304).
    public var skippedBytes: ReservedByteRanges { Self.skippedBytes(of: ndefSectors) }

    /// The byte ranges of the data area that hold TLV data, in order: the NFC sectors' data
    /// blocks.
    public var dataRanges: [Range<Int>] {
        guard let area = dataArea else { return [] }
        return skippedBytes.freeRanges(in: area)
    }

    /// The TLV blocks read from the data area (empty when none could be).
    public var tlvs: [TagTLV] { tlvScan?.tlvs ?? [] }

    /// The first NDEF Message TLV, if one was read whole.
    public var ndefTLV: TagTLV? { tlvScan?.firstNDEFMessage }
}
