/// What a simulated Type 2 tag answers to one command frame (ISO/IEC 14443-3; NTAG213/215/216
/// datasheet section 10 and 9.3 for ACK and NAK).
///
/// Frames carry no CRC: the reader hardware adds and checks it, so ``nak(_:)`` with 1h is never
/// produced by the simulator itself but is listed for readers that model a broken link.
public enum SimulatedType2Response: Sendable, Hashable {
    /// A data answer (READ, FAST_READ, GET_VERSION, READ_CNT, READ_SIG, the PACK of PWD_AUTH).
    case data([UInt8])
    /// The 4-bit ACK, Ah.
    case ack
    /// A 4-bit NAK: 0h invalid argument, 1h CRC or parity error, 4h authentication counter
    /// overflow, 5h EEPROM write error.
    case nak(UInt8)
    /// No answer at all (the tag is not in the ACTIVE state, or ignores the frame).
    case silent

    /// NAK 0h: invalid argument (page address, length, locked or protected page).
    public static let invalidArgument = SimulatedType2Response.nak(0x0)
    /// NAK 1h: CRC or parity error.
    public static let parityOrCRCError = SimulatedType2Response.nak(0x1)
    /// NAK 4h: the PWD_AUTH attempt counter reached AUTHLIM.
    public static let authenticationCounterOverflow = SimulatedType2Response.nak(0x4)
    /// NAK 5h: EEPROM write error.
    public static let writeError = SimulatedType2Response.nak(0x5)

    /// The data bytes of a ``data(_:)`` answer, else nil.
    public var bytes: [UInt8]? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }
}
