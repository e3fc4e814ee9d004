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
    /// The largest data field of an APDU exchanged with an ISO-DEP tag, in either direction (Nc
    /// and Ne, ISO/IEC 7816-4:2020 5.1): 256 or less for a reader limited to short APDUs; above
    /// 256 the reader passes extended-length APDUs, up to 65,536 data bytes, and Type 4 reads and
    /// writes use them when the tag's MLe and MLc allow (NFC Forum Type 4 Tag 3.0, 5.1.2).
    public var maximumAPDUDataSize: Int

    /// Whether extended-length APDUs pass through (``maximumAPDUDataSize`` above 256).
    public var supportsExtendedLengthAPDUs: Bool { maximumAPDUDataSize > 256 }

    /// Creates a capability set. Without `maximumAPDUDataSize` the reader exchanges short APDUs
    /// that fit its frame: the frame less SW1 SW2, at most 256 bytes.
    public init(
        maximumFrameSize: Int,
        supportsRawCommands: Bool,
        supportsFastRead: Bool,
        supportsISODEP: Bool,
        detectsMultipleTargets: Bool,
        maximumAPDUDataSize: Int? = nil
    ) {
        self.maximumFrameSize = maximumFrameSize
        self.supportsRawCommands = supportsRawCommands
        self.supportsFastRead = supportsFastRead
        self.supportsISODEP = supportsISODEP
        self.detectsMultipleTargets = detectsMultipleTargets
        self.maximumAPDUDataSize = max(1, min(1 << 16, maximumAPDUDataSize ?? min(256, maximumFrameSize - 2)))
    }
}
