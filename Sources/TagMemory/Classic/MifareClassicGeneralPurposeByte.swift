import HexText

/// The general purpose byte (GPB, byte 9) of a sector trailer, read two ways.
///
/// The chip gives byte 9 no meaning of its own: it has the access rights of the access bits
/// (MF1S50yyX 8.6.3). Two NXP mappings define it:
///
/// - In the MAD sector 0 (AN10787, "General purpose byte"): bit 7 DA (a MAD is available),
///   bit 6 MA (1: multi-application card, 0: mono-application), bits 5-2 reserved, bits 1-0
///   ADV (MAD version: 01b MAD1, 10b MAD2). C1h is MAD1 on a multi-application card, C2h MAD2.
///   libfreefare (mad.c: `gpb & 0x80`, `gpb & 0x03`) and proxmark3 (mad.c `MADCheck`) read
///   it so.
/// - In an NFC sector (AN1304, NFC sector trailer): bits 7-6 the major and bits 5-4 the minor
///   version of the mapping, bits 3-2 the read access and bits 1-0 the write access condition
///   (00b granted without security, 11b no access, 01b and 10b reserved). 40h is version 1.0,
///   read and write granted; 43h is read-only. NXP's reference reader (phFriNfc_MifareStdMap.c:
///   `PH_FRINFC_MIFARESTD_MASK_GPB_WR` 03h, `_GPB_RD` 0Ch, value 00h for granted; a write value
///   other than 00b with read 00b is READ-ONLY, any other read value INVALID; it writes 11b to
///   make a sector read-only) and libfreefare (mifare-classic-write-ndef.c writes 40h) agree.
public struct MifareClassicGeneralPurposeByte: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// A two-bit access condition of an NFC sector GPB (AN1304).
    public enum Access: Sendable, Hashable {
        /// 00b: access granted without any security.
        case granted
        /// 01b or 10b: reserved; treated as no access.
        case reserved(UInt8)
        /// 11b: no access (for write: the sector is read-only).
        case denied

        /// The condition of the two low bits of `bits`.
        public init(bits: UInt8) {
            switch bits & 0b11 {
            case 0b00: self = .granted
            case 0b11: self = .denied
            default: self = .reserved(bits & 0b11)
            }
        }

        /// The two-bit value.
        public var bits: UInt8 {
            switch self {
            case .granted: 0b00
            case .reserved(let value): value & 0b11
            case .denied: 0b11
            }
        }
    }

    /// The byte.
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    // MARK: MAD sector (AN10787)

    /// DA, bit 7: a MIFARE Application Directory is available.
    public var isMADAvailable: Bool { rawValue & 0x80 != 0 }
    /// MA, bit 6: the card is a multi-application card.
    public var isMultiApplicationCard: Bool { rawValue & 0x40 != 0 }
    /// ADV, bits 1-0: the MAD version, 1 or 2, or nil for 00b and 11b.
    public var madVersion: Int? {
        switch rawValue & 0x03 {
        case 0x01: 1
        case 0x02: 2
        default: nil
        }
    }

    // MARK: NFC sector (AN1304)

    /// The major version of the NDEF mapping, bits 7-6 (1 for version 1.x).
    public var ndefMajorVersion: UInt8 { rawValue >> 6 }
    /// The minor version of the NDEF mapping, bits 5-4.
    public var ndefMinorVersion: UInt8 { rawValue >> 4 & 0b11 }
    /// The read access condition, bits 3-2.
    public var ndefReadAccess: Access { Access(bits: rawValue >> 2) }
    /// The write access condition, bits 1-0.
    public var ndefWriteAccess: Access { Access(bits: rawValue) }

    /// The GPB of a MAD1 sector 0 on a multi-application card: C1h (AN10787).
    public static let mad1 = MifareClassicGeneralPurposeByte(rawValue: 0xC1)
    /// The GPB of sector 0 with a MAD2 in sector 16: C2h (AN10787).
    public static let mad2 = MifareClassicGeneralPurposeByte(rawValue: 0xC2)
    /// The GPB of a read/write NFC sector: 40h, mapping version 1.0 (AN1304).
    public static let ndefReadWrite = MifareClassicGeneralPurposeByte(rawValue: 0x40)
    /// The GPB of a read-only NFC sector: 43h, write access 11b (AN1304).
    public static let ndefReadOnly = MifareClassicGeneralPurposeByte(rawValue: 0x43)

    public var description: String { Hex.byte(rawValue) + "h" }
}
