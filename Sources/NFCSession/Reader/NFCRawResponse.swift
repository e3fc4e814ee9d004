import HexText

/// The answer of a Type 2 tag (NTAG21x, MIFARE Ultralight) to one raw command frame.
///
/// Frames are exchanged without CRC: the reader appends CRC_A to each command and checks and
/// strips it from each answer (ISO/IEC 14443-3 6.2.4). A 4-bit answer is an ACK or a NAK
/// (NTAG213/215/216 datasheet 9.3, table 23); a silent tag is reported by the reader as
/// ``NFCReaderError/Code/tagConnectionLost``, never as a response.
public enum NFCRawResponse: Sendable, Hashable, CustomStringConvertible {
    /// Data bytes (for example the 16 bytes of a READ, the 2-byte PACK of a PWD_AUTH).
    case data([UInt8])
    /// The 4-bit ACK (Ah): a WRITE or COMPATIBILITY_WRITE step was accepted.
    case ack
    /// A 4-bit NAK: 0h invalid argument, 1h parity or CRC error, 4h authentication counter
    /// overflow, 5h EEPROM write error (NTAG213/215/216 table 23).
    case nak(UInt8)

    public var description: String {
        switch self {
        case .data(let bytes): bytes.map { byte in Hex.byte(byte) }.joined(separator: " ")
        case .ack: "ACK"
        case .nak(let code): "NAK \(Hex.number(code))h"
        }
    }
}
