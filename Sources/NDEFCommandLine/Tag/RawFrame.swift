import HexText
import NDEF
import TagMemory

/// What `ndeftool raw` knows of the commands it sends: their names (NTAG213/215/216 section 10,
/// MF0ULX1 section 8, MF0ICU2 section 9; ISO/IEC 7816-4 5.1 for APDUs) and which ones it
/// refuses or sends only with `--force`.
enum RawFrame {
    /// The name of an APDU by its instruction byte (ISO/IEC 7816-4 5.1; T4T 3.0, 5.4).
    static func apduName(_ apdu: [UInt8]) -> String? {
        guard apdu.count >= 4 else { return nil }
        return switch apdu[1] {
        case 0xA4: apdu[2] == 0x04 ? "SELECT by name" : "SELECT"
        case 0xB0, 0xB1: "READ BINARY"
        case 0xD6, 0xD7: "UPDATE BINARY"
        case 0xC0: "GET RESPONSE"
        default: nil
        }
    }

    /// The 4-bit answer of a Type 2 tag, named (NTAG213/215/216 9.3): `ACK`, `NAK 0h (invalid
    /// argument)`.
    static func fourBitName(_ value: UInt8) -> String {
        switch value {
        case 0x0A: return "ACK"
        case 0x00: return "NAK 0h (invalid argument: page address or command)"
        case 0x01: return "NAK 1h (CRC or parity error)"
        case 0x04: return "NAK 4h (authentication counter overflow)"
        case 0x05: return "NAK 5h (EEPROM write error)"
        default: return "NAK \(Hex.number(value))h"
        }
    }

    /// Why a Type 2 `frame` needs `--force`, or nil: WRITE (A2h) to any page, COMPATIBILITY_WRITE
    /// (A0h) to pages 0-3 (UID, lock bytes, capability container), the dynamic lock page and the
    /// configuration pages, or to any page when the chip is not known; INCR_CNT (A5h).
    static func type2ForceReason(_ frame: [UInt8], chip: Type2Chip?) -> String? {
        guard let opcode = frame.first else { return nil }
        switch opcode {
        case 0xA2:
            return "WRITE changes page \(frame.count > 1 ? String(frame[1]) : "?") as given"
        case 0xA0:
            guard frame.count > 1 else { return "COMPATIBILITY_WRITE without a page" }
            let page = Int(frame[1])
            if page <= 3 { return "COMPATIBILITY_WRITE to page \(page) (UID, lock bytes or capability container)" }
            guard let chip else { return "COMPATIBILITY_WRITE to page \(page) of an unidentified chip" }
            if let lock = chip.dynamicLock, (lock.page...(lock.page + (lock.byteCount - 1) / 4)).contains(page) {
                return "COMPATIBILITY_WRITE to page \(page), the dynamic lock bytes"
            }
            if let pages = chip.configurationPages?.pages, pages.contains(page) {
                return "COMPATIBILITY_WRITE to page \(page), a configuration page"
            }
            return nil
        case 0xA5:
            return "INCR_CNT changes a one-way counter"
        default:
            return nil
        }
    }

    /// Why an APDU needs `--force`, or nil: UPDATE BINARY (D6h, D7h) writes a file as given.
    static func apduForceReason(_ apdu: [UInt8]) -> String? {
        guard apdu.count >= 2, apdu[1] == 0xD6 || apdu[1] == 0xD7 else { return nil }
        return "UPDATE BINARY changes the selected file as given"
    }

    /// The bytes of one command argument: hex digits, with spaces or colons between bytes allowed.
    static func bytes(_ argument: String) -> [UInt8]? {
        let digits = argument.filter { $0 != " " && $0 != ":" }
        guard !digits.isEmpty, let bytes = try? Hex.decode(digits) else { return nil }
        return bytes
    }

    /// `3A 04 10`.
    static func hex(_ bytes: [UInt8]) -> String {
        Hex.encode(bytes, uppercase: true, separator: " ")
    }
}
