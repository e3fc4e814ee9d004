/// The command kinds a simulated Type 4 tag tells apart (ISO/IEC 7816-4 instructions used by
/// NFC Forum Type 4 Tag 3.0, section 5.4).
public enum SimulatedType4Command: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SELECT by name (INS A4h, P1 04h): the NDEF Tag Application (T4T 3.0, 5.4.2).
    case selectApplication = "SELECT_APPLICATION"
    /// SELECT by file identifier (INS A4h, any other P1): the CC or the NDEF file (5.4.3).
    case selectFile = "SELECT_FILE"
    /// READ BINARY (INS B0h, or B1h with an offset data object) (5.4.4).
    case readBinary = "READ_BINARY"
    /// UPDATE BINARY (INS D6h, or D7h with an offset data object) (5.4.5).
    case updateBinary = "UPDATE_BINARY"
    /// Anything else: an APDU shorter than its four header bytes, a CLA other than 00h, or
    /// another instruction.
    case unknown = "UNKNOWN"

    /// The kind of `apdu` from its CLA, INS and P1.
    public init(apdu: [UInt8]) {
        guard apdu.count >= 4, apdu[0] == 0x00 else {
            self = .unknown
            return
        }
        switch apdu[1] {
        case 0xA4: self = apdu[2] == 0x04 ? .selectApplication : .selectFile
        case 0xB0, 0xB1: self = .readBinary
        case 0xD6, 0xD7: self = .updateBinary
        default: self = .unknown
        }
    }

    /// The command name.
    public var description: String { rawValue }
}
