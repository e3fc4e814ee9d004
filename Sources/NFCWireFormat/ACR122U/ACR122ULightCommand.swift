import HexText

/// The ACR122U's "Bi-Color LED and Buzzer Control" pseudo-APDU (ACS ACR122U Application
/// Programming Interface 2.04, section 6.2; the same layout in the ACR122T API 2.02 and, as an
/// "ACR122U compatible command", the ACM1252U-Y3 Reference Manual 1.03, 5.6.1):
/// `FF 00 40 P2 04 T1 T2 Rep Link`, answered `90 xx` with the LED state after the command
/// (bit 0 red, bit 1 green) or `63 00` on failure.
///
/// P2, the LED state control: bit 0 final red state, bit 1 final green state, bit 2 red state
/// mask (1: update), bit 3 green state mask, bit 4 initial red blinking state, bit 5 initial
/// green blinking state, bit 6 red blinking mask (1: blink), bit 7 green blinking mask. T1 and
/// T2 are the initial and toggle blinking durations in 100 ms units; Rep the number of
/// repetitions (the buzzer sounds only when it is above zero); Link the buzzer: 00 off, 01 during
/// T1, 02 during T2, 03 during both. The final state is applied after the blinking.
public struct ACR122ULightCommand: Sendable, Hashable, CustomStringConvertible {
    /// P2, the LED state control byte.
    public var control: UInt8
    /// T1, the initial blinking state's duration, in 100 ms.
    public var t1: UInt8
    /// T2, the toggle blinking state's duration, in 100 ms.
    public var t2: UInt8
    /// How many times the T1-T2 cycle runs.
    public var repetitions: UInt8
    /// When the buzzer sounds: 00 never, 01 during T1, 02 during T2, 03 during both.
    public var buzzer: UInt8

    /// Creates a command from its fields.
    public init(control: UInt8, t1: UInt8, t2: UInt8, repetitions: UInt8, buzzer: UInt8) {
        self.control = control
        self.t1 = t1
        self.t2 = t2
        self.repetitions = repetitions
        self.buzzer = buzzer
    }

    /// The command in `apdu`, when it is one: `FF 00 40 P2 04` and four data bytes (an Le after
    /// them is allowed).
    public init?(apdu: [UInt8]) {
        guard apdu.count == 9 || apdu.count == 10, apdu[0] == 0xFF, apdu[1] == 0x00, apdu[2] == 0x40,
            apdu[4] == 0x04
        else { return nil }
        self.init(control: apdu[3], t1: apdu[5], t2: apdu[6], repetitions: apdu[7], buzzer: apdu[8])
    }

    /// The command APDU, `FF 00 40 P2 04 T1 T2 Rep Link`.
    public var apdu: [UInt8] { [0xFF, 0x00, 0x40, control, 0x04, t1, t2, repetitions, buzzer] }

    /// Success: P2 0Eh, green on and red off at the end (bits 1, 2 and 3), no blinking; the buzzer
    /// during T1 of one 100 ms cycle (T1 01, T2 01, Rep 01, Link 01): `FF 00 40 0E 04 01 01 01 01`.
    public static let success = ACR122ULightCommand(control: 0x0E, t1: 0x01, t2: 0x01, repetitions: 0x01, buzzer: 0x01)

    /// Failure: P2 0Dh, red on and green off at the end (bits 0, 2 and 3), no blinking; the buzzer
    /// during T1 of one 500 ms cycle (T1 05, T2 01, Rep 01, Link 01): `FF 00 40 0D 04 05 01 01 01`.
    public static let failure = ACR122ULightCommand(control: 0x0D, t1: 0x05, t2: 0x01, repetitions: 0x01, buzzer: 0x01)

    /// Identify: P2 E0h, red and green blink (masks, bits 6 and 7) starting green on, red off
    /// (bit 5), so they alternate; final states unchanged (no state mask); five cycles of 200 ms
    /// each way, silent (T1 02, T2 02, Rep 05, Link 00): `FF 00 40 E0 04 02 02 05 00`.
    public static let identify = ACR122ULightCommand(
        control: 0xE0, t1: 0x02, t2: 0x02, repetitions: 0x05, buzzer: 0x00)

    /// The LED state (bit 0 red, bit 1 green) after the command, from `state` before it: only
    /// the LEDs whose state mask is set take their final state.
    public func ledState(after state: UInt8) -> UInt8 {
        var next = state
        if control & 0x04 != 0 { next = (next & ~0x01) | (control & 0x01) }
        if control & 0x08 != 0 { next = (next & ~0x02) | (control & 0x02) }
        return next
    }

    /// The APDU in hex, bytes separated by spaces.
    public var description: String {
        Hex.bytes(apdu)
    }
}
