/// What a reader receives from a ``SimulatedField`` for one command.
///
/// `Response` is the tag kind's answer: ``SimulatedType2Response`` for Type 2 frames, the
/// response APDU (`[UInt8]`, data then SW1 SW2) for APDUs to a Type 4 tag.
public enum SimulatedFieldReply<Response: Sendable & Hashable>: Sendable, Hashable {
    /// The answer arrived intact.
    case answer(Response)
    /// The answer arrived with a byte flipped in transit: the reader's CRC_A check fails
    /// (ISO/IEC 14443-3 6.2.4), so it reports a transmission error. The value is the answer as
    /// received (for data, the first byte inverted; a 4-bit ACK or NAK as sent; for a response
    /// APDU, its first byte inverted).
    case corrupted(Response)
    /// No answer: no tag is selected, the selected tag is not ACTIVE, or the tags left the field.
    case silent

    /// The answer, when it arrived intact.
    public var answer: Response? {
        if case .answer(let response) = self { return response }
        return nil
    }
}
