/// The pseudo-APDUs of the ACS ACR122U (ACR122U Application Programming Interface 2.04,
/// sections 5 to 7; class `FF`, instruction `00` and `48`) and the PN532 commands a host sends
/// through its Direct Transmit (NXP PN532 User Manual UM0701, 7.2.4 ReadRegister, 7.2.5
/// WriteRegister, 7.3.9 InCommunicateThru).
///
/// A Type 2 frame travels in InCommunicateThru (`FF 00 00 00 Lc D4 42 frame`); the PN532
/// answers `D5 43 status data`, followed by the reader's `90 00`.
public enum ACR122UPseudoAPDU {
    /// The P1 of Direct Transmit (with P2 00).
    public static let directTransmitP1: UInt8 = 0x00
    /// The P1 of the LED and buzzer control (6.2).
    public static let lightControlP1: UInt8 = 0x40
    /// The P1 of the firmware version request (5.3).
    public static let firmwareVersionP1: UInt8 = 0x48
    /// The P1 of the PICC operating parameter (6.4).
    public static let operatingParameterP1: UInt8 = 0x51
    /// The P1 of the buzzer on card detection setting (6.7).
    public static let buzzerOnDetectionP1: UInt8 = 0x52

    /// The longest frame one InCommunicateThru can carry: Lc is one byte and holds `D4 42` too.
    public static let maximumFrameLength = 253

    /// The firmware version request `FF 00 48 00 00`, answered with ASCII text such as
    /// `ACR122U207`, without a status word on most firmware.
    public static let getFirmwareVersion: [UInt8] = [0xFF, 0x00, firmwareVersionP1, 0x00, 0x00]

    /// GET RESPONSE `FF C0 00 00 length`: firmware 1.x answers a Direct Transmit with 61 xx and
    /// hands out the answer only on request (ACR122U API 1.0, section 6).
    public static func getResponse(length: UInt8) -> [UInt8] {
        [0xFF, 0xC0, 0x00, 0x00, length]
    }

    /// `FF 00 00 00 Lc` around a PN532 command (`D4 code parameters`).
    public static func directTransmit(_ pn532Command: [UInt8]) -> [UInt8] {
        [0xFF, 0x00, directTransmitP1, 0x00, UInt8(truncatingIfNeeded: pn532Command.count)] + pn532Command
    }

    /// InCommunicateThru with `frame`, `FF 00 00 00 Lc D4 42 frame`; nil for an empty frame or
    /// one longer than ``maximumFrameLength``.
    public static func inCommunicateThru(_ frame: [UInt8]) -> [UInt8]? {
        guard !frame.isEmpty, frame.count <= maximumFrameLength else { return nil }
        return directTransmit([PN532Frame.hostToChip, PN532Command.inCommunicateThru] + frame)
    }

    /// ReadRegister of one register: `D4 06 hi lo`.
    public static func readRegister(_ address: UInt16) -> [UInt8] {
        directTransmit([
            PN532Frame.hostToChip, PN532Command.readRegister, UInt8(truncatingIfNeeded: address >> 8),
            UInt8(truncatingIfNeeded: address),
        ])
    }

    /// WriteRegister of one register: `D4 08 hi lo value`.
    public static func writeRegister(_ address: UInt16, _ value: UInt8) -> [UInt8] {
        directTransmit([
            PN532Frame.hostToChip, PN532Command.writeRegister, UInt8(truncatingIfNeeded: address >> 8),
            UInt8(truncatingIfNeeded: address), value,
        ])
    }

    /// The register value from the answer to ReadRegister (`D5 07 value 90 00`); nil for any
    /// other answer (a reader without the command).
    public static func registerValue(_ bytes: [UInt8]) -> UInt8? {
        guard bytes.count == 5, bytes[0] == PN532Frame.chipToHost, bytes[1] == PN532Command.readRegister + 1,
            bytes[3] == 0x90, bytes[4] == 0x00
        else { return nil }
        return bytes[2]
    }

    /// Whether `bytes` is the answer of a successful WriteRegister (`D5 09 90 00`).
    public static func isRegisterWritten(_ bytes: [UInt8]) -> Bool {
        bytes == [PN532Frame.chipToHost, PN532Command.writeRegister + 1, 0x90, 0x00]
    }

    /// The text of the firmware version answer (printable ASCII, a trailing `90 00` dropped);
    /// nil when the answer is not text.
    public static func firmwareVersion(_ bytes: [UInt8]) -> String? {
        var text = bytes
        if text.count >= 2, text.suffix(2) == [0x90, 0x00] { text.removeLast(2) }
        guard !text.isEmpty, text.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The PN532 command codes a host sends (PN532 User Manual UM0701, section 7); the answer's
/// code is one more.
public enum PN532Command {
    /// ReadRegister (7.2.4).
    public static let readRegister: UInt8 = 0x06
    /// WriteRegister (7.2.5).
    public static let writeRegister: UInt8 = 0x08
    /// InCommunicateThru (7.3.9).
    public static let inCommunicateThru: UInt8 = 0x42

    /// The names of the error codes in the low six bits of a PN532 status byte (UM0701, 7.1).
    public static let errorNames: [UInt8: String] = [
        0x01: "timeout", 0x02: "CRC error", 0x03: "parity error", 0x04: "erroneous bit count",
        0x05: "framing error", 0x06: "bit collision", 0x07: "buffer too small", 0x09: "RF buffer overflow",
        0x0A: "RF field not switched on in time", 0x0B: "RF protocol error", 0x0D: "overheating",
        0x0E: "internal buffer overflow", 0x10: "invalid parameter", 0x12: "DEP: unknown command",
        0x13: "invalid received frame", 0x14: "MIFARE authentication error", 0x23: "wrong UID check byte",
        0x25: "invalid device state", 0x26: "operation not allowed", 0x27: "command not acceptable now",
        0x29: "target released", 0x2A: "card ID mismatch", 0x2B: "card disappeared", 0x2C: "NFCID3 mismatch",
        0x2D: "over-current", 0x2E: "NAD missing",
    ]
}
