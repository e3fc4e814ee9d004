import NFCSession
import NFCWireFormat

/// The 4-bit answers of a Type 2 tag, and full frames checked against their CRC_A (``NFCWireFormat/CRCA``).
enum ShortFrame {
    /// The ACK or NAK a 4-bit answer stands for: Ah is ACK, any other value a NAK with that code
    /// (NTAG213/215/216 datasheet 9.3, table 23). Only the low four bits are valid; the rest of the
    /// byte is whatever the receiver left there.
    static func answer(_ byte: UInt8) -> NFCRawResponse {
        let value = byte & 0x0F
        return value == 0x0A ? .ack : .nak(value)
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
        guard let data = CRCA.stripping(frame) else {
            throw NFCReaderError(
                .tagResponseError, "the answer to \(command) failed the CRC_A check (a transmission error)")
        }
        return data
    }
}

/// Names of Type 2 commands for messages (NTAG213/215/216 datasheet section 10, MF0ULX1
/// section 8, T2TOP 1.1 section 5).
enum Type2CommandName {
    /// `READ of page 4`, `GET_VERSION`, `command 51h`.
    static func of(_ frame: [UInt8]) -> String {
        guard let opcode = frame.first else { return "an empty frame" }
        let addressed: Set<Type2Command> = [.read, .write, .compatibilityWrite]
        guard let command = Type2Command(opcode: opcode) else { return Type2Command.name(of: opcode) }
        return addressed.contains(command) && frame.count > 1 ? "\(command) of page \(frame[1])" : command.name
    }
}

extension ResponseAPDU {
    /// Splits the answer `bytes` to `command`; fewer than two bytes means the card's answer
    /// never came.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer without
    ///   SW1 SW2 (pcscd returns an empty answer when the card vanishes mid-command).
    init(received bytes: [UInt8], command: String) throws(NFCReaderError) {
        guard let response = ResponseAPDU(bytes) else {
            throw NFCReaderError(
                .tagConnectionLost,
                "the answer to \(command) has \(bytes.count) byte(s), not even a status word: the tag left")
        }
        self = response
    }
}
