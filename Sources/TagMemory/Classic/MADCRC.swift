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
