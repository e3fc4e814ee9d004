import NFCSession
import NFCWireFormat

/// The storage-card commands a PC/SC contactless reader offers (PC/SC Workgroup specification
/// part 3, supplemental document for contactless ICCs, 3.2.2.1): GET DATA for the UID and the
/// historical bytes, READ BINARY and UPDATE BINARY on the pages of a Type 2 tag.
///
/// This is all a reader without a pass-through (the `generic` profile) can do: READ 30h and
/// WRITE A2h are carried as READ BINARY and UPDATE BINARY, every other Type 2 command is refused.
/// The reader talks to the tag itself and reports only a status word, never the tag's 4-bit
/// ACK or NAK.
enum Part3Storage {
    /// The APDU for a Type 2 frame: READ 30h pp and WRITE A2h pp d0-d3 only.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/unsupportedFeature`` naming the command and the
    ///   reader for anything else (GET_VERSION, PWD_AUTH, FAST_READ, READ_SIG, …): PC/SC part 3
    ///   has no storage command for them; ``NFCSession/NFCReaderError/Code/invalidParameter``
    ///   for a READ or WRITE of the wrong length.
    static func command(for frame: [UInt8], readerName: String) throws(NFCReaderError) -> [UInt8] {
        guard let opcode = frame.first else {
            throw NFCReaderError(.invalidParameter, "an empty Type 2 frame cannot be sent")
        }
        switch opcode {
        case 0x30:
            guard frame.count == 2 else {
                throw NFCReaderError(.invalidParameter, "READ takes one page number, not \(frame.count - 1) bytes")
            }
            return StorageCardAPDU.readBinary(page: frame[1])
        case 0xA2:
            guard frame.count == 6 else {
                throw NFCReaderError(.invalidParameter, "WRITE takes a page number and 4 bytes, not \(frame.count - 1)")
            }
            return StorageCardAPDU.updateBinary(page: frame[1], data: Array(frame[2...]))
        default:
            throw NFCReaderError(
                .unsupportedFeature,
                "\(Type2CommandName.of(frame)) cannot be sent through the reader \"\(readerName)\": it only "
                    + "offers PC/SC part 3 storage commands (READ and WRITE); choose a reader with a pass-through "
                    + "(ACR122U, ACR1252U) or force one with ?profile=acr122u or ?profile=pcsc-transparent")
        }
    }

    /// The answer to the APDU of `frame` (see ``command(for:readerName:)``).
    ///
    /// 90 00 is the data of a READ (16 bytes) or the ACK of a WRITE. A reader only reports that the
    /// command failed, not the tag's NAK value: 63 00 (failed), 69 81/69 82/69 86 (not allowed),
    /// 6A 82 (page out of range) and 6B 00 (wrong P1 P2) are reported as NAK 0h, the value a Type 2
    /// tag gives for a locked, protected or missing page; 65 81 (memory failure) as NAK 5h (EEPROM
    /// write error).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer shorter than
    ///   the status word; ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for 6A 81, 6D 00
    ///   and 6E 00 (the reader lacks the command); ``NFCSession/NFCReaderError/Code/tagResponseError``
    ///   for any other status.
    static func response(_ bytes: [UInt8], to frame: [UInt8], readerName: String) throws(NFCReaderError)
        -> NFCRawResponse
    {
        let command = Type2CommandName.of(frame)
        let apdu = try ResponseAPDU(received: bytes, command: command)
        if apdu.isSuccess {
            return frame.first == 0xA2 ? .ack : .data(apdu.data)
        }
        switch apdu.statusWord.rawValue {
        case 0x6300, 0x6981, 0x6982, 0x6986, 0x6A82, 0x6B00:
            return .nak(0x0)
        case 0x6581:
            return .nak(0x5)
        default:
            if apdu.statusWord.isUnsupportedCommand {
                throw NFCReaderError(
                    .unsupportedFeature, "the reader \"\(readerName)\" refused \(command) (\(apdu.statusWord))")
            }
            throw NFCReaderError(.tagResponseError, "\(command) failed with \(apdu.statusWord)")
        }
    }

    /// The UID from the answer to GET DATA; nil when the reader refused it.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` for an answer shorter than
    ///   the status word.
    static func getDataValue(_ bytes: [UInt8]) throws(NFCReaderError) -> [UInt8]? {
        let apdu = try ResponseAPDU(received: bytes, command: "GET DATA")
        return apdu.isSuccess ? apdu.data : nil
    }
}
