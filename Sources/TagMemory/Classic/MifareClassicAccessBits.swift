/// The three access-bit bytes of a sector trailer (bytes 6-8).
///
/// NXP MF1S50yyX section 8.7.1, Figure 10: each of C1, C2 and C3 is a nibble whose bit n is
/// the condition of group n (group 3 is the trailer), stored once inverted and once plain:
///
/// | byte | bits 7-4 | bits 3-0 |
/// |------|----------|----------|
/// | 6    | ¬C2      | ¬C1      |
/// | 7    | C1       | ¬C3      |
/// | 8    | C3       | C2       |
///
/// "With each memory access the internal logic verifies the format of the access conditions.
/// If it detects a format violation the whole sector is irreversibly blocked" (8.7.1): a
/// sector whose bytes fail ``isConsistent`` cannot be read or written at all. For example
/// FF 07 80 (transport) gives data blocks 000 and trailer 001; 7F 07 88 (NFC sectors, AN1304)
/// gives data blocks 000 and trailer 011; 78 77 88 (MAD sector, AN10787) data blocks 100 and
/// trailer 011; 07 8F 0F (read-only NFC sector, AN1305) data blocks 010 and trailer 110.
public struct MifareClassicAccessBits: Sendable, Hashable, CustomStringConvertible {
    /// Byte 6.
    public let byte6: UInt8
    /// Byte 7.
    public let byte7: UInt8
    /// Byte 8.
    public let byte8: UInt8

    /// The access bits stored in `byte6`, `byte7`, `byte8`.
    public init(byte6: UInt8, byte7: UInt8, byte8: UInt8) {
        self.byte6 = byte6
        self.byte7 = byte7
        self.byte8 = byte8
    }

    /// The access bits giving condition `conditions[n]` (C1 C2 C3 in bits 2, 1, 0) to group n.
    ///
    /// The inverse of ``condition(ofGroup:)``: the bytes are always consistent. Groups past the
    /// fourth are ignored, missing ones get 000.
    public init(conditions: [UInt8]) {
        var c1: UInt8 = 0
        var c2: UInt8 = 0
        var c3: UInt8 = 0
        for (group, condition) in conditions.prefix(4).enumerated() {
            c1 |= (condition >> 2 & 1) << group
            c2 |= (condition >> 1 & 1) << group
            c3 |= (condition & 1) << group
        }
        self.byte6 = (~c2 & 0x0F) << 4 | (~c1 & 0x0F)
        self.byte7 = c1 << 4 | (~c3 & 0x0F)
        self.byte8 = c3 << 4 | c2
    }

    /// The three bytes, in order.
    public var bytes: [UInt8] { [byte6, byte7, byte8] }

    /// The C1 nibble (byte 7, bits 7-4).
    public var c1: UInt8 { byte7 >> 4 }
    /// The C2 nibble (byte 8, bits 3-0).
    public var c2: UInt8 { byte8 & 0x0F }
    /// The C3 nibble (byte 8, bits 7-4).
    public var c3: UInt8 { byte8 >> 4 }

    /// Whether every inverted copy matches its plain bit (MF1S50yyX 8.7.1). A sector whose
    /// access bits are not consistent is blocked for good.
    public var isConsistent: Bool {
        (~byte6 & 0x0F) == c1 && (~byte6 >> 4) == c2 && (~byte7 & 0x0F) == c3
    }

    /// The condition of group `group` (0-3) as C1 C2 C3 in bits 2, 1, 0, read from the plain
    /// copies; nil for another group.
    public func condition(ofGroup group: Int) -> UInt8? {
        guard (0...3).contains(group) else { return nil }
        return (c1 >> group & 1) << 2 | (c2 >> group & 1) << 1 | (c3 >> group & 1)
    }

    /// The access of data-block group `group` (0-2), nil for another group or inconsistent bits.
    public func dataBlockAccess(group: Int) -> MifareClassicDataBlockAccess? {
        guard isConsistent, group < 3, let condition = condition(ofGroup: group) else { return nil }
        return MifareClassicDataBlockAccess(condition: condition)
    }

    /// The access of data groups 0, 1 and 2; empty when the bits are inconsistent.
    public var dataBlockAccess: [MifareClassicDataBlockAccess] { (0..<3).compactMap { dataBlockAccess(group: $0) } }

    /// The access to the sector trailer (group 3), nil when the bits are inconsistent.
    public var trailerAccess: MifareClassicTrailerAccess? {
        guard isConsistent, let condition = condition(ofGroup: 3) else { return nil }
        return MifareClassicTrailerAccess(condition: condition)
    }

    /// The factory (transport) access bits FF 07 80 (MF1S50yyX 8.6.3).
    public static let transport = MifareClassicAccessBits(byte6: 0xFF, byte7: 0x07, byte8: 0x80)
    /// The access bits of a MAD sector, 78 77 88 (AN10787; libfreefare mad.c, Android rw_mfc.cc).
    public static let directory = MifareClassicAccessBits(byte6: 0x78, byte7: 0x77, byte8: 0x88)
    /// The access bits of a read/write NFC sector, 7F 07 88 (AN1304; Android rw_mfc.cc).
    public static let ndefReadWrite = MifareClassicAccessBits(byte6: 0x7F, byte7: 0x07, byte8: 0x88)
    /// The access bits of a read-only NFC sector, 07 8F 0F (AN1305; NXP phFriNfc_MifareStdMap).
    public static let ndefReadOnly = MifareClassicAccessBits(byte6: 0x07, byte7: 0x8F, byte8: 0x0F)

    /// The three bytes as upper-case hex, for example `7F 07 88`.
    public var hexText: String { TagHex.bytes(bytes) }

    public var description: String {
        isConsistent ? hexText : hexText + " (inconsistent: sector blocked)"
    }
}
