import NFCWireFormat

/// Names of Type 2 commands for messages (NTAG213/215/216 datasheet section 10, MF0ULX1
/// section 8, T2TOP 1.1 section 5).
enum Type2CommandName {
    /// `READ of page 4`, `GET_VERSION`, `command 51h`.
    static func of(_ frame: [UInt8]) -> String {
        guard let opcode = frame.first else { return "an empty frame" }
        let page = frame.count > 1 ? " of page \(frame[1])" : ""
        switch opcode {
        case 0x30: return "READ" + page
        case 0xA2: return "WRITE" + page
        case 0xA0: return "COMPATIBILITY_WRITE" + page
        case 0x3A: return "FAST_READ"
        case 0x60: return "GET_VERSION"
        case 0x1B: return "PWD_AUTH"
        case 0x3C: return "READ_SIG"
        case 0x39: return "READ_CNT"
        case 0xA5: return "INCR_CNT"
        case 0x3E: return "CHECK_TEARING_EVENT"
        case 0x4B: return "VCSL"
        case 0x1A: return "AUTHENTICATE (3DES)"
        case 0x50: return "HLTA"
        default: return "command \(WireHex.byte(opcode))h"
        }
    }
}
