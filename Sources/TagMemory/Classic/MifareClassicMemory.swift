import HexText
import NDEF

/// The memory image of a MIFARE Classic card, read as far as it goes, with its NDEF data.
///
/// Any image is accepted: a libnfc `.mfd` image (320, 1024, 2048 or 4096 bytes), a shorter
/// one, one cut mid-block, or a hostile one. Byte addresses count from byte 0 of block 0. The
/// NDEF mapping is NXP's "NFC Type MIFARE Classic Tag" (AN1304, with AN1305):
/// - sector 0's trailer GPB and blocks 1-2 (and blocks 64-66 for MAD2) hold the MIFARE
///   Application Directory (AN10787, ``MifareApplicationDirectory``);
/// - the sectors whose AID is E103h form, in sector order, one NDEF data area made of their
///   data blocks only: sector trailers and the MAD2 sector 16 are skipped
///   (``MifareApplicationDirectory/ndefSectors(sectorCount:)``, the contiguous run AN1304
///   asks for; a message that runs on into NFC sectors after a gap, as libfreefare lays out a
///   4K card, is read across the gap, ``MifareApplicationDirectory/ndefSectorsAcrossGaps(sectorCount:)``);
/// - that area holds TLV blocks as on a Type 2 tag: NULL, NDEF Message (1- or 3-byte length),
///   Proprietary and Terminator, read by ``TagTLVScanner`` with the skipped bytes reserved.
///   The mapping defines no Lock or Memory Control TLV, so such T values are skipped by their
///   length like any other unknown block.
///
/// Nothing here throws: what could not be read is nil or empty and ``problem`` says why. The
/// status a phone would report is ``ndefStatus``.
public struct MifareClassicMemory: Sendable, Hashable {
    /// The image, indexed by byte address.
    public let bytes: [UInt8]
    /// The card type: given, or guessed from the size of a full image; nil otherwise.
    ///
    /// A 320- or 1024-byte image whose sector 0 GPB announces a MAD2 cannot be a whole Mini or
    /// 1K (they have no sector 16): it is taken for a cut image of a larger card, type nil.
    public let type: MifareClassicType?
    /// How a MAD CRC mismatch was treated.
    public let crcPolicy: MifareApplicationDirectory.CRCPolicy
    /// The MIFARE Application Directory, if sector 0 holds one.
    public let directory: MifareApplicationDirectory?
    /// The NFC sectors forming the NDEF data area, in order (empty without a usable MAD).
    public let ndefSectors: [MifareClassicSector]
    /// The TLV blocks of the NDEF data area, when the sectors could be read.
    public let tlvScan: TagTLVScan?
    /// The address of the first NDEF Message TLV's T byte, also when its length is malformed.
    public let ndefTLVAddress: Int?
    /// The bytes of the NDEF message (the NDEF TLV's value, around the skipped bytes).
    public let ndefMessageBytes: [UInt8]?
    /// The NDEF message, strictly decoded; nil for an empty NDEF TLV (a freshly formatted card).
    public let message: NFCNDEFMessage?
    /// The first problem that keeps the NDEF message from being read, if any.
    public let problem: TagMemoryError?
    /// The sectors a reader read into the image, nil when the image holds every sector it is
    /// long enough for (a dump). The trailers of other sectors are not held; a message running
    /// into an unread NFC sector is a truncated image.
    public let readSectors: Set<Int>?

    /// Parses `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the memory image from block 0 on.
    ///   - type: the card type, when known (from ATQA/SAK or the dump file); otherwise guessed
    ///     from the image size (see ``type``). It bounds the sectors the MAD may name and says
    ///     whether sector 16 can hold MAD2.
    ///   - crcPolicy: what a MAD CRC mismatch means (``MifareApplicationDirectory/CRCPolicy``).
    ///   - readSectors: the sectors read into the image when a reader read only some (the MAD
    ///     sectors and the NFC sectors it needed); nil for an image of the whole card.
    ///   - options: limits for decoding the NDEF message.
    public init(
        bytes: [UInt8],
        type: MifareClassicType? = nil,
        crcPolicy: MifareApplicationDirectory.CRCPolicy = .strict,
        readSectors: Set<Int>? = nil,
        options: NDEFDecodingOptions = NDEFDecodingOptions()
    ) {
        self.bytes = bytes
        let type = type ?? Self.guessType(bytes)
        self.type = type
        self.crcPolicy = crcPolicy
        self.readSectors = readSectors
        var reading = Self.locateNDEFSectors(bytes: bytes, type: type, crcPolicy: crcPolicy, readSectors: readSectors)
        self.directory = reading.directory
        if let problem = reading.problem {
            self.ndefSectors = reading.sectors
            (tlvScan, ndefTLVAddress, ndefMessageBytes, message) = (nil, nil, nil, nil)
            self.problem = problem
            return
        }
        var parsed = Self.parseNDEF(bytes: bytes, sectors: reading.sectors, readSectors: readSectors, options: options)
        // A TLV that runs past the contiguous NFC sectors into NFC sectors after a gap: the
        // layout libfreefare's allocator gives a 4K card (the 15-block sectors 32-39 first,
        // then sectors from 1 on). AN1304 wants the NFC sectors contiguous; libfreefare reads
        // every NFC sector in sector order (mifare_application_read), and so does this reading
        // then.
        if parsed.problem?.code == .malformedTLV, parsed.scan.failedType == 0x03,
            let directory = reading.directory
        {
            let sectorCount = type?.sectorCount ?? MifareClassicSector.maximumCount
            let everyNFCSector = directory.ndefSectorsAcrossGaps(sectorCount: sectorCount)
            if everyNFCSector.count > reading.sectors.count {
                let retry = Self.parseNDEF(
                    bytes: bytes, sectors: everyNFCSector, readSectors: readSectors, options: options)
                let trailerProblem = Self.trailerProblem(
                    everyNFCSector.dropFirst(reading.sectors.count), bytes: bytes, readSectors: readSectors)
                if trailerProblem == nil, retry.problem == nil || retry.problem?.code == .truncatedImage {
                    (reading.sectors, parsed) = (everyNFCSector, retry)
                }
            }
        }
        self.ndefSectors = reading.sectors
        (tlvScan, ndefTLVAddress, ndefMessageBytes, message, problem) =
            (parsed.scan, parsed.address, parsed.value, parsed.message, parsed.problem)
    }

    /// The NDEF Message TLV of the data area the NFC `sectors` form, read from the sectors
    /// held (up to the first one not read).
    private static func parseNDEF(
        bytes: [UInt8], sectors: [MifareClassicSector], readSectors: Set<Int>?, options: NDEFDecodingOptions
    ) -> (
        scan: TagTLVScan, address: Int?, value: [UInt8]?, message: NFCNDEFMessage?, problem: TagMemoryError?
    ) {
        let heldSectors = Array(sectors.prefix { readSectors?.contains($0.number) ?? true })
        let heldImage = heldSectors.last.map { Array(bytes.prefix($0.dataBytes.upperBound)) } ?? []
        let area = dataArea(of: sectors) ?? 0..<0
        let scan = TagTLVScanner.scan(
            heldImage[...], area: area, reserved: skippedBytes(of: sectors), interpretsControlTLVs: false)
        let ndef = scan.firstNDEFMessage
        let address = ndef?.typeAddress ?? (scan.failedType == 0x03 ? scan.failedTypeAddress : nil)
        guard let ndef else {
            let problem =
                scan.error
                ?? TagMemoryError(.notFormatted, at: area.lowerBound, "the NDEF data area holds no NDEF Message TLV")
            return (scan, address, nil, nil, problem)
        }
        let value = ndef.value(in: bytes[...])
        let (message, problem) = ndef.decodedMessage(value, options: options)
        return (scan, address, value, message, problem)
    }

    /// The first access problem of the trailers of `sectors` the image holds.
    private static func trailerProblem(
        _ sectors: some Sequence<MifareClassicSector>, bytes: [UInt8], readSectors: Set<Int>?
    ) -> TagMemoryError? {
        for sector in sectors where readSectors?.contains(sector.number) ?? true {
            guard let trailer = trailer(of: sector, in: bytes) else { continue }
            if let problem = readProblem(sector: sector, trailer: trailer) { return problem }
        }
        return nil
    }

    /// The directory, the NFC sectors and the first problem met finding them.
    private static func locateNDEFSectors(
        bytes: [UInt8], type: MifareClassicType?, crcPolicy: MifareApplicationDirectory.CRCPolicy,
        readSectors: Set<Int>?
    ) -> (directory: MifareApplicationDirectory?, sectors: [MifareClassicSector], problem: TagMemoryError?) {
        let sectorCount = type?.sectorCount ?? MifareClassicSector.maximumCount
        let directory: MifareApplicationDirectory
        do {
            directory = try MifareApplicationDirectory(image: bytes, sectorCount: sectorCount)
        } catch {
            return (nil, [], error)
        }
        if directory.isMAD2Missing {
            let problem = TagMemoryError(
                .truncatedImage, at: bytes.count,
                "sector 0's GPB announces a MAD2 but the image ends before blocks 64-66 (AN10787)")
            return (directory, [], problem)
        }
        if crcPolicy == .strict, let problem = Self.crcProblem(directory) {
            return (directory, [], problem)
        }
        let sectors = directory.ndefSectors(sectorCount: sectorCount)
        guard !sectors.isEmpty else {
            let problem = TagMemoryError(
                .notFormatted, at: MifareApplicationDirectory.mad1Bytes.lowerBound,
                "the MAD names no NFC sector (AID E103h, AN1304)")
            return (directory, [], problem)
        }
        return (directory, sectors, trailerProblem(sectors, bytes: bytes, readSectors: readSectors))
    }

    /// The type of a full image of `bytes.count` bytes, unless the GPB contradicts it.
    static func guessType(_ bytes: [UInt8]) -> MifareClassicType? {
        guard let type = MifareClassicType(imageSize: bytes.count) else { return nil }
        let address = MifareApplicationDirectory.generalPurposeByteAddress
        let gpb = MifareClassicGeneralPurposeByte(rawValue: bytes.count > address ? bytes[address] : 0)
        if !type.hasMAD2Sector, gpb.isMADAvailable, gpb.madVersion == 2 { return nil }
        return type
    }

    /// The CRC mismatch of `directory`, if any, as an error.
    static func crcProblem(_ directory: MifareApplicationDirectory) -> TagMemoryError? {
        for (name, mad, address) in [
            ("MAD1", directory.mad1, MifareApplicationDirectory.mad1Bytes.lowerBound),
            ("MAD2", directory.mad2, MifareApplicationDirectory.mad2Bytes.lowerBound),
        ] {
            guard let mad, !mad.isCRCValid else { continue }
            return TagMemoryError(
                .notFormatted, at: address,
                "the \(name) CRC is \(Hex.byte(mad.storedCRC))h but its bytes give \(Hex.byte(mad.computedCRC))h (AN10787)"
            )
        }
        return nil
    }

    /// The NDEF data area: from the first NFC sector's first data byte to the last one's last.
    static func dataArea(of sectors: [MifareClassicSector]) -> Range<Int>? {
        guard let first = sectors.first, let last = sectors.last else { return nil }
        return first.dataBytes.lowerBound..<last.dataBytes.upperBound
    }

    /// The bytes inside the data area that are not data bytes of an NFC sector: the trailers,
    /// and sector 16 when the run passes through it.
    static func skippedBytes(of sectors: [MifareClassicSector]) -> ReservedByteRanges {
        var reserved = ReservedByteRanges()
        for (current, next) in zip(sectors, sectors.dropFirst()) {
            reserved.insert(current.dataBytes.upperBound..<next.dataBytes.lowerBound)
        }
        return reserved
    }

    /// The trailer of `sector` in `bytes`, if the image holds all 16 bytes of it.
    static func trailer(of sector: MifareClassicSector, in bytes: [UInt8]) -> MifareClassicSectorTrailer? {
        let range = sector.trailerBytes
        guard range.upperBound <= bytes.count else { return nil }
        return try? MifareClassicSectorTrailer(bytes: bytes[range])
    }
}

extension MifareClassicMemory {
    /// Parses the memory image of a dump (a libnfc `.mfd` file, a Flipper or proxmark3 dump).
    ///
    /// The card type comes from the image size (``MifareClassicType/init(imageSize:)``); the
    /// dump's layout is not checked, so a Type 2 image simply finds no MAD.
    public init(
        dump: TagDump,
        crcPolicy: MifareApplicationDirectory.CRCPolicy = .strict,
        options: NDEFDecodingOptions = NDEFDecodingOptions()
    ) {
        self.init(bytes: dump.memory, crcPolicy: crcPolicy, options: options)
    }
}

extension MifareClassicMemory {
    /// The sectors the image holds whole, in order (up to the card type's sector count).
    public var sectors: [MifareClassicSector] {
        let limit = type?.sectorCount ?? MifareClassicSector.maximumCount
        return (0..<limit).compactMap(MifareClassicSector.init).filter { $0.bytes.upperBound <= bytes.count }
    }

    /// The trailer of `sector`, if the image holds its 16 bytes (and the sector was read).
    public func trailer(of sector: MifareClassicSector) -> MifareClassicSectorTrailer? {
        guard readSectors?.contains(sector.number) ?? true else { return nil }
        return Self.trailer(of: sector, in: bytes)
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
