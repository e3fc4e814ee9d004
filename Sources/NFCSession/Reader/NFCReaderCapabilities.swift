/// What a reader can do, as it reports it: the session plans its commands from this.
public struct NFCReaderCapabilities: Sendable, Hashable {
    /// The largest response frame the reader passes on, in bytes without CRC (PN532: 262 minus
    /// framing; a PC/SC reader: its maximum APDU response). FAST_READ ranges are sized to it.
    public var maximumFrameSize: Int
    /// Whether raw Type 2 commands beyond READ and WRITE pass through (GET_VERSION, PWD_AUTH,
    /// READ_SIG, READ_CNT): needed for identification by version and for passwords.
    public var supportsRawCommands: Bool
    /// Whether FAST_READ (3Ah) passes through.
    public var supportsFastRead: Bool
    /// Whether ISO-DEP (ISO/IEC 14443-4) APDUs can be exchanged, for Type 4 tags.
    public var supportsISODEP: Bool
    /// Whether the reader can report every target in the field (so two tags are detected).
    public var detectsMultipleTargets: Bool

    /// Creates a capability set.
    public init(
        maximumFrameSize: Int,
        supportsRawCommands: Bool,
        supportsFastRead: Bool,
        supportsISODEP: Bool,
        detectsMultipleTargets: Bool
    ) {
        self.maximumFrameSize = maximumFrameSize
        self.supportsRawCommands = supportsRawCommands
        self.supportsFastRead = supportsFastRead
        self.supportsISODEP = supportsISODEP
        self.detectsMultipleTargets = detectsMultipleTargets
    }
}
