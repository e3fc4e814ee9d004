/// The MIFARE Application Directory (MAD): which application owns which sector.
///
/// NXP AN10787. Sector 0's trailer GPB says whether a MAD is there (DA, bit 7) and its version
/// (ADV, bits 1-0; ``MifareClassicGeneralPurposeByte``). MAD1 fills blocks 1 and 2: byte 0 the
/// CRC, byte 1 the info byte, then 15 AIDs for sectors 1-15, two bytes each. MAD2, on cards
/// with more than 16 sectors, fills blocks 64-66 of sector 16 the same way with 23 AIDs for
/// sectors 17-39. Sector 0 and sector 16 belong to the directory itself.
///
/// The info byte's bits 5-0 point to the card publisher sector (0: none); bits 7-6 are
/// reserved (libfreefare `mad_get_card_publisher_sector` masks 3Fh).
///
/// The CRC (``MADCRC``) is checked but a mismatch does not stop parsing: ``isCRCValid`` says,
/// and ``CRCPolicy`` lets a reader decide what it means.
public struct MifareApplicationDirectory: Sendable, Hashable {
    /// What a reader does with a MAD whose CRC does not match.
    ///
    /// - ``strict``: the directory is not trusted, so the card holds no NDEF. libfreefare
    ///   (`mad_read` fails on a CRC mismatch, so `mifare-classic-read-ndef` finds nothing) and
    ///   proxmark3 (`MADDecode` refuses unless told to override) behave so.
    /// - ``tolerant``: the AIDs are used anyway. neard (plugins/mifare.c: "On reading, CRC is
    ///   ignored") and Android (rw_mfc.cc reads the NFC sectors from sector 1 without reading
    ///   the MAD at all) behave so.
    public enum CRCPolicy: String, Sendable, Hashable, Codable, CaseIterable {
        /// A CRC mismatch means no usable directory.
        case strict
        /// A CRC mismatch is reported but the AIDs are used.
        case tolerant
    }

    /// One directory: MAD1 (sector 0) or MAD2 (sector 16).
    public struct Directory: Sendable, Hashable {
        /// Byte 0: the CRC the card stores.
        public let storedCRC: UInt8
        /// The CRC computed over the info byte and the AIDs.
        public let computedCRC: UInt8
        /// Byte 1: the info byte.
        public let infoByte: UInt8
        /// The AIDs, for sectors `firstSector`, `firstSector + 1`, ...
        public let applicationIdentifiers: [MADApplicationIdentifier]
        /// The sector the first AID describes: 1 for MAD1, 17 for MAD2.
        public let firstSector: Int

        /// Reads a directory from its bytes: CRC, info byte, then two bytes per AID.
        public init(bytes: some Collection<UInt8>, firstSector: Int) {
            let all = Array(bytes)
            self.storedCRC = all.first ?? 0
            self.infoByte = all.count > 1 ? all[1] : 0
            self.computedCRC = MADCRC.compute(all.dropFirst())
            var aids: [MADApplicationIdentifier] = []
            var index = 2
            while index + 1 < all.count {
                aids.append(MADApplicationIdentifier(storedBytes: all[index], all[index + 1]))
                index += 2
            }
            self.applicationIdentifiers = aids
            self.firstSector = firstSector
        }

        /// Whether the stored CRC matches.
        public var isCRCValid: Bool { storedCRC == computedCRC }

        /// The card publisher sector named by the info byte (bits 5-0), nil for 0.
        public var publisherSector: Int? {
            let sector = Int(infoByte & 0x3F)
            return sector == 0 ? nil : sector
        }

        /// The AID of `sector`, nil for a sector this directory does not describe.
        public func applicationIdentifier(forSector sector: Int) -> MADApplicationIdentifier? {
            let index = sector - firstSector
            guard index >= 0, index < applicationIdentifiers.count else { return nil }
            return applicationIdentifiers[index]
        }
    }

    /// The byte addresses of MAD1: blocks 1 and 2 (AN10787).
    public static let mad1Bytes = 16..<48
    /// The byte addresses of MAD2: blocks 64, 65 and 66 (AN10787).
    public static let mad2Bytes = 1024..<1072
    /// The byte address of sector 0's general purpose byte (block 3, byte 9).
    public static let generalPurposeByteAddress = 3 * 16 + 9

    /// Sector 0's general purpose byte.
    public let generalPurposeByte: MifareClassicGeneralPurposeByte
    /// The MAD version, 1 or 2, from the GPB's ADV bits.
    public let version: Int
    /// MAD1, in sector 0.
    public let mad1: Directory
    /// MAD2, in sector 16: for version 2 on a card with more than 16 sectors, when the image
    /// holds blocks 64-66.
    public let mad2: Directory?
    /// Whether the GPB announces MAD2 on a card that can hold it but the image ends before it.
    public let isMAD2Missing: Bool

    /// Reads the directory of a memory image (indexed from byte 0 of block 0).
    ///
    /// - Parameters:
    ///   - image: the memory image; MAD1 needs the first 64 bytes, MAD2 bytes 1024-1071.
    ///   - sectorCount: the card's sector count when known; MAD2 is read only when it exceeds 16.
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` when the image ends before the end of
    ///   sector 0; ``TagMemoryError/Code/notFormatted`` when the GPB's DA bit is 0 or its ADV
    ///   bits name no MAD version (00b, 11b).
    public init(image: some Collection<UInt8>, sectorCount: Int? = nil) throws(TagMemoryError) {
        let bytes = Array(image.prefix(Self.mad2Bytes.upperBound))
        guard bytes.count >= 64 else {
            throw TagMemoryError(
                .truncatedImage, at: bytes.count, "the image ends before the end of sector 0, where the MAD is")
        }
        let gpb = MifareClassicGeneralPurposeByte(rawValue: bytes[Self.generalPurposeByteAddress])
        guard gpb.isMADAvailable else {
            throw TagMemoryError(
                .notFormatted, at: Self.generalPurposeByteAddress,
                "sector 0's general purpose byte is \(gpb): its DA bit is 0, so there is no MAD (AN10787)")
        }
        guard let version = gpb.madVersion else {
            throw TagMemoryError(
                .notFormatted, at: Self.generalPurposeByteAddress,
                "sector 0's general purpose byte is \(gpb): its ADV bits name no MAD version (AN10787)")
        }
        self.generalPurposeByte = gpb
        self.version = version
        self.mad1 = Directory(bytes: bytes[Self.mad1Bytes], firstSector: 1)
        let hasSector16 = (sectorCount ?? MifareClassicSector.maximumCount) > MifareClassicSector.mad2SectorNumber
        if version == 2, hasSector16 {
            if bytes.count >= Self.mad2Bytes.upperBound {
                self.mad2 = Directory(bytes: bytes[Self.mad2Bytes], firstSector: 17)
                self.isMAD2Missing = false
            } else {
                self.mad2 = nil
                self.isMAD2Missing = true
            }
        } else {
            self.mad2 = nil
            self.isMAD2Missing = false
        }
    }

    /// Whether every directory read has a matching CRC.
    public var isCRCValid: Bool { mad1.isCRCValid && (mad2?.isCRCValid ?? true) }

    /// The card publisher sector named by MAD1's info byte, nil for none.
    public var publisherSector: Int? { mad1.publisherSector }

    /// The AID of `sector`: sectors 1-15 from MAD1, 17-39 from MAD2; nil for sectors 0 and 16
    /// and for sectors no directory read describes.
    public func applicationIdentifier(forSector sector: Int) -> MADApplicationIdentifier? {
        if sector < MifareClassicSector.mad2SectorNumber { return mad1.applicationIdentifier(forSector: sector) }
        return mad2?.applicationIdentifier(forSector: sector)
    }

    /// Every sector described, with its AID, in sector order.
    public var entries: [(sector: Int, applicationIdentifier: MADApplicationIdentifier)] {
        var result: [(sector: Int, applicationIdentifier: MADApplicationIdentifier)] = []
        for directory in [mad1] + (mad2.map { [$0] } ?? []) {
            for (offset, aid) in directory.applicationIdentifiers.enumerated() {
                result.append((directory.firstSector + offset, aid))
            }
        }
        return result
    }

    /// The sectors whose AID is `aid`, in order, below `sectorCount`.
    public func sectors(for aid: MADApplicationIdentifier, sectorCount: Int = MifareClassicSector.maximumCount)
        -> [MifareClassicSector]
    {
        entries.filter { $0.applicationIdentifier == aid && $0.sector < sectorCount }
            .compactMap { MifareClassicSector($0.sector) }
    }

    /// The NFC sectors that hold the NDEF data area, below `sectorCount`.
    ///
    /// AN1304 (NDEF management): the NFC sectors "SHALL be contiguous" and the NDEF data starts
    /// in the one with the smallest sector number; a run through the MAD sector 16 counts as
    /// contiguous. So the area is the run of sectors with the NDEF AID that starts at the first
    /// one and stops at the first sector (other than 16) with another AID; NFC sectors after a
    /// gap are not part of it. neard (plugins/mifare.c) reads the same run.
    public func ndefSectors(sectorCount: Int = MifareClassicSector.maximumCount) -> [MifareClassicSector] {
        let limit = min(sectorCount, MifareClassicSector.maximumCount)
        var run: [MifareClassicSector] = []
        for number in 1..<max(1, limit) where number != MifareClassicSector.mad2SectorNumber {
            let isNDEF = applicationIdentifier(forSector: number) == .ndef
            if isNDEF, let sector = MifareClassicSector(number) {
                run.append(sector)
            } else if !run.isEmpty {
                break
            }
        }
        return run
    }
}
