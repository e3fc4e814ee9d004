/// One message of the `vpcd` wire protocol (vsmartcard 3.3, `vpcd.c`), from the reader driver
/// inside pcscd to the card.
///
/// Every message in either direction is a 2-byte big-endian length and that many bytes. A
/// 1-byte message is a control message: 00 power off, 01 power on, 02 reset, 04 get ATR;
/// a longer one is a command APDU. The card answers get ATR with its ATR and a command APDU
/// with the response APDU, and nothing else. A message of length 0 ends the card's
/// connection on the driver's side, so a card never sends one.
enum VirtualPCDMessage: Sendable, Hashable {
    case powerOff
    case powerOn
    case reset
    case getATR
    /// A control message this protocol does not define: ignored.
    case unknownControl(UInt8)
    case apdu([UInt8])

    /// The message a payload carries.
    init(payload: [UInt8]) {
        guard payload.count == 1, let code = payload.first else {
            self = .apdu(payload)
            return
        }
        switch code {
        case 0x00: self = .powerOff
        case 0x01: self = .powerOn
        case 0x02: self = .reset
        case 0x04: self = .getATR
        default: self = .unknownControl(code)
        }
    }

    /// The largest payload a length prefix can announce.
    static let maximumPayload = 0xFFFF

    /// `payload` with its length prefix; nil when it is empty or longer than ``maximumPayload``.
    static func framed(_ payload: [UInt8]) -> [UInt8]? {
        guard !payload.isEmpty, payload.count <= maximumPayload else { return nil }
        return [UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)] + payload
    }
}
