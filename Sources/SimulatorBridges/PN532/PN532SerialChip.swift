import NFCWireFormat
import TagSimulator

/// The PN532 as a host sees it on its High Speed UART (PN532 User Manual UM0701, 6.2): the
/// host's frames in, the chip's frames out, with the commands of ``PN532Emulation`` behind
/// them. A pure state machine over a ``TagSimulator/SimulatedField``; ``PN532SerialSimulator``
/// drives it from a pseudo-terminal.
///
/// The dialogue (UM0701 6.2.2): the PN532 answers every information frame it takes with an
/// ACK frame, then carries the command out and sends its response frame. A NACK from the host
/// asks for the last response frame again; an ACK from the host aborts the command in
/// progress (here every command has finished by the time it could arrive, so it changes
/// nothing) or confirms SetSerialBaudRate. A frame whose TFI is not D4, an unknown command or
/// one with wrong parameters is answered, after its ACK, with the error frame
/// (UM0701 6.2.1.5); libnfc reports it as "Application level error detected".
///
/// Commands added to those of ``PN532Emulation`` on this link:
/// - SetSerialBaudRate (10, UM0701 7.2.14): the answer `D5 11` (the host then sends an ACK and
///   both sides switch speed; a pseudo-terminal has no speed, so nothing changes).
/// - PowerDown (16, UM0701 7.2.11): the answer `D5 17 00`; the chip sleeps with its field off
///   (the tags power down to IDLE and the listed targets are forgotten) until the next bytes
///   from the host wake it (UM0701 7.2.11: any HSU activity; the host's `55 55 00 00 00 ...`
///   preamble is skipped as noise).
///
/// A command during which the tags leave the field (the `remove-after` fault of
/// ``TagSimulator/SimulatedField/Faults``) is answered as a PN532 answers a target that no
/// longer replies: status 01, time-out (UM0701 table 15).
struct PN532SerialChip: Sendable {
    /// What a host frame brought.
    struct Reaction: Sendable, Hashable {
        /// The bytes to send back, in order: an ACK frame, the response frame.
        var frames: [[UInt8]] = []
        /// The command code carried out, if the frame was a command.
        var command: UInt8?
        /// The tags left the field during the command.
        var tagsLeft = false
        /// The frame was answered with the error frame.
        var refused = false
    }

    /// The command set behind the link.
    var emulation = PN532Emulation()
    /// The UID of the target the PN532 activated last.
    var activeUID: [UInt8]?
    /// The last response frame, as sent, for a NACK.
    private(set) var lastResponse: [UInt8]?
    /// Whether the chip sleeps after PowerDown.
    private(set) var isPoweredDown = false

    /// Bytes arrived from the host: a sleeping chip wakes up.
    mutating func wake() {
        isPoweredDown = false
    }

    /// Answers one frame from the host: for an information frame, its ACK and response
    /// frame; for a NACK, the last response again; for an ACK, nothing.
    mutating func receive(_ frame: PN532Frame, field: inout SimulatedField) -> Reaction {
        wake()
        switch frame {
        case .ack:
            return Reaction()
        case .nack:
            return Reaction(frames: lastResponse.map { [$0] } ?? [])
        case .information(let information):
            var reaction = execute(information, field: &field)
            reaction.frames.insert(PN532Frame.ackBytes, at: 0)
            return reaction
        }
    }

    /// Carries out the command in `information` (TFI D4 and the command code first) and
    /// returns its response frame (no ACK).
    mutating func execute(_ information: [UInt8], field: inout SimulatedField) -> Reaction {
        guard information.count >= 2, information[0] == PN532Frame.hostToChip else { return refuse(nil) }
        let command = information[1]
        let arguments = information.dropFirst(2)
        var answer: [UInt8]
        var tagsLeft = false
        switch command {
        case 0x10:
            guard arguments.count == 1, let rate = arguments.first, rate <= 0x08 else { return refuse(command) }
            answer = [PN532Frame.chipToHost, 0x11]
        case 0x16:
            guard (1...2).contains(arguments.count) else { return refuse(command) }
            answer = [PN532Frame.chipToHost, 0x17, 0x00]
            field.fieldOff()
            emulation.targets = []
            activeUID = nil
            isPoweredDown = true
        default:
            switch emulation.execute(information, field: &field, activeUID: &activeUID) {
            case .response(let response): answer = response
            case .notSupported: return refuse(command)
            case .tagLeft:
                answer = [PN532Frame.chipToHost, command &+ 1, 0x01]
                tagsLeft = true
            }
        }
        guard let encoded = PN532Frame.information(answer).encoded else { return refuse(command) }
        lastResponse = encoded
        return Reaction(frames: [encoded], command: command, tagsLeft: tagsLeft)
    }

    /// The error frame for a frame the chip does not take.
    private mutating func refuse(_ command: UInt8?) -> Reaction {
        lastResponse = PN532Frame.errorBytes
        return Reaction(frames: [PN532Frame.errorBytes], command: command, refused: true)
    }
}
