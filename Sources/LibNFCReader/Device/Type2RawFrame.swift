internal import CLibNFC
import HexText
import NFCSession

/// Type 2 frames as they travel in libnfc's raw mode: the host appends CRC_A to each command and
/// checks and strips it from each answer, and a 4-bit ACK or NAK arrives as one byte.
///
/// In raw mode (`NP_EASY_FRAMING` and `NP_HANDLE_CRC` off) `nfc_initiator_transceive_bytes`
/// sends the frame with the PN53x's InCommunicateThru and returns the bytes received, with CRC
/// checking off in the PN53x. An answer of data always ends with its 2-byte CRC_A (ISO/IEC
/// 14443-3 6.2.4), so it has at least 3 bytes; the only shorter answers a Type 2 tag gives are
/// the 4-bit ACK (Ah) and NAKs (0h, 1h, 4h, 5h; NTAG213/215/216 datasheet 9.3, table 23), which
/// the PN53x delivers as one byte with the 4 bits received in its low nibble. So the byte count
/// alone tells them apart, without `nfc_initiator_transceive_bits`, which would cost a
/// ReadRegister of CIU_Control per frame to learn the number of valid bits.
enum Type2RawFrame {
    /// `frame` followed by its CRC_A (libnfc's `iso14443a_crc`: ISO/IEC 14443-3 annex B,
    /// preset 6363h, least significant byte first).
    static func command(_ frame: [UInt8]) -> [UInt8] {
        frame + crc(frame)
    }

    /// The CRC_A of `bytes`, least significant byte first.
    static func crc(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [0x63, 0x63] }
        var data = bytes
        var crc: [UInt8] = [0, 0]
        data.withUnsafeMutableBufferPointer { data in
            crc.withUnsafeMutableBufferPointer { crc in
                guard let base = data.baseAddress, let out = crc.baseAddress else { return }
                iso14443a_crc(base, data.count, out)
            }
        }
        return crc
    }

    /// The tag's answer to `frame` from the bytes received: ACK or NAK for one byte, the data for
    /// three or more bytes whose CRC_A is right.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for no byte at all;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` for two bytes (neither a 4-bit answer
    ///   nor data with CRC) or a CRC_A that does not match (a transmission error).
    static func response(_ received: [UInt8], to frame: [UInt8]) throws(NFCReaderError) -> NFCRawResponse {
        let command = frame.first.map { "command " + Hex.byte($0) + "h" } ?? "the empty frame"
        switch received.count {
        case 0:
            throw NFCReaderError(.tagConnectionLost, "the tag sent nothing back to \(command)")
        case 1:
            let code = received[0] & 0x0F
            return code == 0x0A ? .ack : .nak(code)
        case 2:
            throw NFCReaderError(
                .tagResponseError, "the answer to \(command) has 2 bytes: neither a 4-bit ACK/NAK nor data with CRC_A")
        default:
            let data = Array(received.dropLast(2))
            guard crc(data) == Array(received.suffix(2)) else {
                throw NFCReaderError(
                    .tagResponseError, "the answer to \(command) failed the CRC_A check (a transmission error)")
            }
            return .data(data)
        }
    }
}
