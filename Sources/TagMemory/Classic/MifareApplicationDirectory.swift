import HexText

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

    /// Every NFC sector below `sectorCount` in sector order, gaps included (sector 16 aside).
    ///
    /// libfreefare's allocator (mifare_application.c) gives a 4K card's 15-block sectors 32-39
    /// to an application first and then sectors from 1 on, so a long message it writes lies in,
    /// say, sectors 1-2 and 32-37, and libfreefare reads every sector with the NDEF AID
    /// in sector order. AN1304 asks for contiguous sectors (``ndefSectors(sectorCount:)``):
    /// readers use this list only for a message that runs past that run.
    public func ndefSectorsAcrossGaps(sectorCount: Int = MifareClassicSector.maximumCount) -> [MifareClassicSector] {
        sectors(for: .ndef, sectorCount: min(sectorCount, MifareClassicSector.maximumCount))
            .filter { $0.number != 0 && $0.number != MifareClassicSector.mad2SectorNumber }
    }
}

/// The CRC-8 of a MIFARE Application Directory.
///
/// AN10787 (MIFARE Application Directory): the first byte of MAD1 (block 1, byte 0) and of MAD2
/// (block 64, byte 0) is a CRC-8 over the bytes after it: the info byte and the 15 (MAD1) or
/// 23 (MAD2) application identifiers, 31 or 47 bytes in the order they are stored.
///
/// Parameters: generator polynomial x⁸ + x⁴ + x³ + x² + 1 (1Dh), preset C7h, bits processed
/// most significant first (no reflection), no final XOR. This is CRC-8/MIFARE-MAD of the CRC
/// catalogue (check value 99h for the ASCII bytes "123456789"). AN10787 states the preset as
/// E3h, which is C7h with its bit order mirrored; libfreefare (mad.c: "the bits have to be
/// mirrored") and proxmark3 (crc.c: "0xe3 - WRONG! but it mentioned in MAD datasheet") both
/// use C7h. Android's formatter (rw_mfc.cc) writes the precomputed values 14h for MAD1 with
/// info byte 01h and 15 × NDEF AIDs (03 E1), and E8h for MAD2 with info byte 01h and 23 ×
/// NDEF AIDs; this function reproduces both.
public enum MADCRC {
    /// The generator polynomial without its x⁸ term.
    public static let polynomial: UInt8 = 0x1D
    /// The register's starting value.
    public static let preset: UInt8 = 0xC7

    /// The CRC of `bytes`.
    public static func compute(_ bytes: some Sequence<UInt8>) -> UInt8 {
        var crc = preset
        for byte in bytes {
            crc ^= byte
            for _ in 0..<8 {
                crc = crc & 0x80 != 0 ? (crc << 1) ^ polynomial : crc << 1
            }
        }
        return crc
    }
}

/// A MIFARE Application Directory entry: the application identifier (AID) of one sector.
///
/// AN10787: an AID is 16 bits, the function cluster code in the high byte and the application
/// code in the low byte; the directory stores it low byte first, so the NFC Forum NDEF AID
/// E103h (function cluster E1h "NFC Forum", application code 03h "NDEF", AN1304) appears as
/// the bytes 03 E1. libfreefare (`struct mad_aid { application_code; function_cluster_code }`),
/// proxmark3 (`ndef_aid = 0xE103` read little-endian) and neard (`NFC_AID_TAG 0xE103`) read
/// it so.
///
/// Function cluster 00h holds the administration codes: 0000h free, 0001h defect (keys
/// destroyed or unknown), 0002h reserved, 0003h additional directory information, 0004h card
/// holder information, 0005h not applicable (above the memory size); 0006h-00FFh are reserved.
public struct MADApplicationIdentifier: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The AID, function cluster code in the high byte.
    public let rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// The AID with these two codes.
    public init(functionCluster: UInt8, applicationCode: UInt8) {
        self.rawValue = UInt16(functionCluster) << 8 | UInt16(applicationCode)
    }

    /// The AID stored as `first`, `second` in the directory (application code first).
    public init(storedBytes first: UInt8, _ second: UInt8) {
        self.init(functionCluster: second, applicationCode: first)
    }

    /// The function cluster code, the high byte.
    public var functionCluster: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
    /// The application code, the low byte.
    public var applicationCode: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
    /// The two bytes as the directory stores them: application code, then function cluster.
    public var storedBytes: [UInt8] { [applicationCode, functionCluster] }

    /// 0000h: the sector is free.
    public static let free = MADApplicationIdentifier(rawValue: 0x0000)
    /// 0001h: the sector is defect (its keys are destroyed or unknown).
    public static let defect = MADApplicationIdentifier(rawValue: 0x0001)
    /// 0002h: the sector is reserved.
    public static let reserved = MADApplicationIdentifier(rawValue: 0x0002)
    /// 0003h: the sector holds additional directory information.
    public static let additionalDirectoryInformation = MADApplicationIdentifier(rawValue: 0x0003)
    /// 0004h: the sector holds card holder information.
    public static let cardHolderInformation = MADApplicationIdentifier(rawValue: 0x0004)
    /// 0005h: the sector is not applicable (above the card's memory size).
    public static let notApplicable = MADApplicationIdentifier(rawValue: 0x0005)
    /// E103h: the sector is an NFC sector holding NDEF data (AN1304).
    public static let ndef = MADApplicationIdentifier(rawValue: 0xE103)

    /// Whether this is an administration code (function cluster 00h).
    public var isAdministrationCode: Bool { functionCluster == 0 }

    /// A short name for administration codes and the NDEF AID, nil for other AIDs.
    public var name: String? {
        switch self {
        case .free: "free"
        case .defect: "defect"
        case .reserved: "reserved"
        case .additionalDirectoryInformation: "additional directory information"
        case .cardHolderInformation: "card holder information"
        case .notApplicable: "not applicable"
        case .ndef: "NFC Forum NDEF"
        default: isAdministrationCode ? "reserved administration code" : nil
        }
    }

    public var description: String {
        Hex.word(rawValue) + "h" + (name.map { " (\($0))" } ?? "")
    }
}
