import NDEF

/// The encoded bytes of a message to write, or why it cannot be written (NDEF 1.0, 3.2: a message
/// has at least one record; an empty tag is made with an erase).
func encodedForWriting(_ message: NFCNDEFMessage) throws(NFCReaderError) -> [UInt8] {
    guard !message.records.isEmpty else {
        throw NFCReaderError(.zeroLengthMessage, "an NDEF message has at least one record; use erase to empty the tag")
    }
    do {
        return try message.encoded()
    } catch {
        throw NFCReaderError(.invalidMessage, "the message cannot be encoded: \(error.reason)")
    }
}
