import NFCSession
import NFCWireFormat
import TagSimulator

extension ContactlessReaderEmulator {
    /// The ACR122U's pseudo-APDUs of instruction `00` (ACR122U API 2.04, sections 6 and 7):
    /// - `FF 00 00 00 Lc D4 ...` Direct Transmit: the PN532 command's response frame
    ///   (`D5 ...`) followed by `90 00` (``PN532Emulation``); `63 00` for a payload the PN532
    ///   does not take.
    /// - `FF 00 48 00 00` firmware version: the ASCII version alone, without status word
    ///   (`ACR122U207`).
    /// - `FF 00 40 P2 04 T1 T2 N L` Bi-Color LED and Buzzer Control (6.2): `90` and the LED state
    ///   after the command; each command is recorded in ``lightCommands``.
    /// - `FF 00 51 P2 00` PICC operating parameter: `90 P2`; `FF 00 52 P2 00` buzzer on card
    ///   detection: `90 00`.
    /// Any other P1, or a profile without these commands: `6A 81`.
    mutating func vendorCommand(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        if command.p1 == 0x00, command.p2 == 0x00 {
            guard profile.supportsDirectTransmit else { return .response(StatusWord.functionNotSupported.bytes) }
            guard command.hasCommandData else { return .response(StatusWord.failed.bytes) }
            var activated = activeUID
            let result = pn532.execute(Array(command.data), field: &field, activeUID: &activated)
            activeUID = activated
            switch result {
            case .response(let frame): return .response(frame + StatusWord.success.bytes)
            case .notSupported: return .response(StatusWord.failed.bytes)
            case .tagLeft: return .tagLeft
            }
        }
        guard let firmwareVersion = profile.firmwareVersion else {
            return .response(StatusWord.functionNotSupported.bytes)
        }
        switch command.p1 {
        case 0x48: return .response(Array(firmwareVersion.utf8))
        case 0x40:
            guard command.data.count == 4 else { return .response(StatusWord.failed.bytes) }
            let data = Array(command.data)
            let light = ACR122ULightCommand(
                control: command.p2, t1: data[0], t2: data[1], repetitions: data[2], buzzer: data[3])
            lightCommands.append(light)
            ledState = light.ledState(after: ledState)
            return .response([0x90, ledState])
        case 0x51: return .response([0x90, command.p2])
        case 0x52: return .response(StatusWord.success.bytes)
        default: return .response(StatusWord.functionNotSupported.bytes)
        }
    }

    /// The LED state after an LED control byte (ACR122U API 2.04, 6.2): bit 0 final red state,
    /// bit 1 final green state, bit 2 red state mask, bit 3 green state mask (only masked LEDs
    /// change).
    static func ledState(after control: UInt8, from state: UInt8) -> UInt8 {
        ACR122ULightCommand(control: control, t1: 0, t2: 0, repetitions: 0, buzzer: 0).ledState(after: state)
    }
}

extension ContactlessReaderEmulator {
    /// `FF C2`: the PC/SC 2.02 transparent session (``TransparentSession``).
    mutating func transparentCommand(_ command: CommandAPDU, _ field: inout SimulatedField) -> Outcome {
        var activated = activeUID
        let outcome = transparent.run(command, &field, &activated)
        activeUID = activated
        return outcome
    }
}
