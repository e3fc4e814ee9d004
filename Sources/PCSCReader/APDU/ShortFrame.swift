import NFCSession

/// The 4-bit answers of a Type 2 tag and the CRC that guards full frames.
enum ShortFrame {
    /// The ACK or NAK a 4-bit answer stands for: Ah is ACK, any other value a NAK with that code
    /// (NTAG213/215/216 datasheet 9.3, table 23). Only the low four bits are valid; the rest of the
    /// byte is whatever the receiver left there.
    static func answer(_ byte: UInt8) -> NFCRawResponse {
        let value = byte & 0x0F
        return value == 0x0A ? .ack : .nak(value)
    }

    /// CRC_A of ISO/IEC 14443-3 (annex B): CRC-16 with polynomial 1021h processed least significant
    /// bit first (8408h), preset 6363h, no final inversion; sent low byte first. READ of page 0,
    /// `30 00`, carries `02 A8`.
    static func crcA(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for byte in bytes {
            var value = byte ^ UInt8(truncatingIfNeeded: crc)
            value ^= value << 4
            crc = (crc >> 8) ^ (UInt16(value) << 8) ^ (UInt16(value) << 3) ^ (UInt16(value) >> 4)
        }
        return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
    }

    /// The data of a frame that still carries its CRC_A, checked and stripped.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagResponseError`` when the frame is too short
    ///   to hold a CRC and data, or the CRC does not match (a transmission error).
    static func strippingCRC(_ frame: [UInt8], command: String) throws(NFCReaderError) -> [UInt8] {
        guard frame.count >= 3 else {
            throw NFCReaderError(
                .tagResponseError, "the answer to \(command) has \(frame.count) bytes: too short for data and CRC")
        }
        let data = Array(frame.dropLast(2))
        guard crcA(data) == Array(frame.suffix(2)) else {
            throw NFCReaderError(
                .tagResponseError, "the answer to \(command) failed the CRC_A check (a transmission error)")
        }
        return data
    }
}
