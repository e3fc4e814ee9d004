import NFCSession
import NFCWireFormat

/// MIFARE Classic through a PC/SC reader's storage-card commands (PC/SC Part 3 v2.02,
/// 3.2.2.1): an authentication is LOAD KEYS into volatile slot 00 and GENERAL AUTHENTICATE,
/// READ is READ BINARY of 16 bytes, WRITE is UPDATE BINARY of 16 bytes. The reader runs
/// Crypto-1 and reports only status words. The key travels in the LOAD KEYS APDU alone, which
/// nothing logs.
enum Part3Classic {
    /// The volatile key slot used (the ACR122U has 00 and 01).
    static let keySlot: UInt8 = 0x00

    /// The APDUs for a MIFARE Classic frame, in order.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a frame of the wrong
    ///   length; ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for the value operations
    ///   and anything else, which PC/SC Part 3 has no storage command for.
    static func commands(for frame: [UInt8], readerName: String) throws(NFCReaderError) -> [[UInt8]] {
        let name = MifareClassicCommand.name(of: frame.first)
        guard let command = frame.first.flatMap(MifareClassicCommand.init(opcode:)) else {
            throw NFCReaderError(.invalidParameter, "\(name) is no MIFARE Classic command")
        }
        switch command {
        case .authenticateA, .authenticateB:
            guard frame.count == MifareClassicCommand.authenticationFrameLength else {
                throw NFCReaderError(.invalidParameter, "\(name) takes a block, a 6-byte key and 4 UID bytes")
            }
            return [
                StorageCardAPDU.loadKeys(slot: keySlot, key: Array(frame[2..<8])),
                StorageCardAPDU.generalAuthenticate(block: frame[1], keyB: command == .authenticateB, slot: keySlot),
            ]
        case .read:
            guard frame.count == 2 else { throw NFCReaderError(.invalidParameter, "READ takes one block number") }
            return [StorageCardAPDU.readBinary(page: frame[1])]
        case .write:
            guard frame.count == MifareClassicCommand.writeFrameLength else {
                throw NFCReaderError(.invalidParameter, "WRITE takes a block number and 16 bytes")
            }
            return [StorageCardAPDU.updateBinary(block: frame[1], data: Array(frame[2...]))]
        default:
            throw NFCReaderError(
                .unsupportedFeature,
                "\(name) cannot be sent through the reader \"\(readerName)\": PC/SC part 3 has no storage command for it"
            )
        }
    }

    /// The answer to the last APDU of `frame` (``commands(for:readerName:)``): 90 00 is the ACK
    /// of an authentication or WRITE, or the 16 bytes of a READ.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/authenticationFailed`` when GENERAL
    ///   AUTHENTICATE fails (63 00, 69 82, 69 83); ``NFCSession/NFCReaderError/Code/unsupportedFeature``
    ///   for a reader without the command; ``NFCSession/NFCReaderError/Code/tagConnectionLost``
    ///   for an answer shorter than its status word.
    static func response(_ bytes: [UInt8], to frame: [UInt8], readerName: String) throws(NFCReaderError)
        -> NFCRawResponse
    {
        let name = MifareClassicCommand.name(of: frame.first)
        let apdu = try ResponseAPDU(received: bytes, command: name)
        let isAuthentication = frame.first.flatMap(MifareClassicCommand.init(opcode:))?.isAuthentication == true
        if apdu.isSuccess {
            return frame.first == MifareClassicCommand.read.opcode ? .data(apdu.data) : .ack
        }
        if apdu.statusWord.isUnsupportedCommand {
            throw NFCReaderError(
                .unsupportedFeature, "the reader \"\(readerName)\" refused \(name) (\(apdu.statusWord))")
        }
        if isAuthentication {
            throw NFCReaderError(
                .authenticationFailed,
                "the card refused the authentication of block \(frame.count > 1 ? Int(frame[1]) : 0) "
                    + "(\(apdu.statusWord)): wrong key")
        }
        // The reader reports only that the card refused: the NAK of an operation not allowed.
        return .nak(0x4)
    }

    /// Whether the answer to LOAD KEYS accepted the key.
    ///
    /// - Throws: as ``response(_:to:readerName:)`` for an answer shorter than its status word.
    static func keyLoaded(_ bytes: [UInt8], readerName: String) throws(NFCReaderError) {
        let apdu = try ResponseAPDU(received: bytes, command: "LOAD KEYS")
        guard apdu.isSuccess else {
            throw NFCReaderError(
                .unsupportedFeature,
                "the reader \"\(readerName)\" refused LOAD KEYS (\(apdu.statusWord)): it cannot keep a MIFARE "
                    + "Classic key in volatile slot 00")
        }
    }
}
