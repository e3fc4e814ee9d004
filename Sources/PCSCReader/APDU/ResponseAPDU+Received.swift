import NFCSession
import NFCWireFormat

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
