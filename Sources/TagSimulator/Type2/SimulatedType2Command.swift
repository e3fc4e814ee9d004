/// The command kinds a simulated Type 2 tag tells apart, by their first byte (NTAG213/215/216
/// datasheet section 10, MF0ULX1 section 8, MF0ICU1 section 9).
public enum SimulatedType2Command: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// GET_VERSION, 60h.
    case getVersion = "GET_VERSION"
    /// READ, 30h.
    case read = "READ"
    /// FAST_READ, 3Ah.
    case fastRead = "FAST_READ"
    /// WRITE, A2h.
    case write = "WRITE"
    /// COMPATIBILITY_WRITE, A0h (the first part, with the page address).
    case compatibilityWrite = "COMPATIBILITY_WRITE"
    /// The 16-byte data frame that completes a COMPATIBILITY_WRITE.
    case compatibilityWriteData = "COMPATIBILITY_WRITE_DATA"
    /// READ_CNT, 39h.
    case readCounter = "READ_CNT"
    /// PWD_AUTH, 1Bh.
    case passwordAuthentication = "PWD_AUTH"
    /// READ_SIG, 3Ch.
    case readSignature = "READ_SIG"
    /// Any other frame, including an empty one.
    case unknown = "UNKNOWN"

    /// The kind of `frame` from its first byte.
    public init(frame: [UInt8]) {
        switch frame.first {
        case 0x60: self = .getVersion
        case 0x30: self = .read
        case 0x3A: self = .fastRead
        case 0xA2: self = .write
        case 0xA0: self = .compatibilityWrite
        case 0x39: self = .readCounter
        case 0x1B: self = .passwordAuthentication
        case 0x3C: self = .readSignature
        default: self = .unknown
        }
    }

    /// The datasheet name.
    public var description: String { rawValue }
}
