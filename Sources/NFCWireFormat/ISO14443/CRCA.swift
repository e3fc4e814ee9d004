/// CRC_A of ISO/IEC 14443-3 (6.2.4 and Annex B): CRC-16/CCITT over the bits least significant
/// first, preset 6363h, no final inversion, sent least significant byte first.
///
/// A reader appends it to every Type A frame and checks and strips it from every answer; hosts
/// that switch the reader's CRC handling off (PN532 registers, PC/SC transparent exchange
/// flags) append and check it themselves.
public enum CRCA {
    /// The two CRC_A bytes of `bytes`, least significant first (`30 00` gives `02 A8`).
    public static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for byte in bytes {
            var value = byte ^ UInt8(truncatingIfNeeded: crc)
            value ^= value << 4
            let wide = UInt16(value)
            crc = (crc >> 8) ^ (wide << 8) ^ (wide << 3) ^ (wide >> 4)
        }
        return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
    }

    /// `bytes` followed by their CRC_A.
    public static func appending(to bytes: [UInt8]) -> [UInt8] {
        bytes + checksum(bytes)
    }

    /// `frame` without its last two bytes when they are the CRC_A of the rest; nil when the
    /// frame is shorter than three bytes or its CRC_A is wrong.
    public static func stripping(_ frame: [UInt8]) -> [UInt8]? {
        guard frame.count >= 3 else { return nil }
        let body = Array(frame.dropLast(2))
        return checksum(body) == Array(frame.suffix(2)) ? body : nil
    }
}
