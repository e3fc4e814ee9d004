import HexText
import NFCSession
import NFCWireFormat
import TagMemory

/// What the command tracer (``TracingReader``) knows between frames, as one value changed only
/// by the frames and answers it sees: the commands counted by name, the pages whose writes are
/// secret, and whether the next frame is the data of a COMPATIBILITY_WRITE.
///
/// No locks and no I/O: the tracer keeps it under one lock, and tests drive it frame by frame.
struct CommandTrace: Sendable, Hashable {
    /// The PWD and PACK pages of every chip with PWD_AUTH, for a chip not identified (yet).
    static let allPasswordPages = Set(
        Type2ChipCatalogue.all.compactMap(\.configurationPages).flatMap { [$0.password, $0.passwordAcknowledge] })

    /// What the tracer does with one frame.
    struct Frame: Sendable, Hashable {
        /// The command's name (`READ`, `command 51h`), or `COMPATIBILITY_WRITE data` for the
        /// second frame of that command.
        let name: String
        /// Whether the frame changes the tag (for the interrupt guard).
        let isWrite: Bool
        /// How many leading bytes the trace shows before `**` for the rest: 1 for PWD_AUTH, 2 for
        /// a write to a PWD or PACK page, 0 for the data frame of such a COMPATIBILITY_WRITE;
        /// nil: all of them.
        let shownBytes: Int?
        /// Whether the answer is secret too (PWD_AUTH's PACK).
        let answerIsSecret: Bool
        /// Whether the frame is a GET_VERSION command, whose answer names the chip.
        let asksVersion: Bool
    }

    /// The frames and APDUs sent, by command name; a COMPATIBILITY_WRITE counts once.
    private(set) var counts: [String: Int] = [:]
    /// The PWD and PACK pages whose writes are hidden: those of the chip GET_VERSION named,
    /// else those of every chip in the catalogue.
    private(set) var secretPages: Set<Int> = allPasswordPages
    /// After a COMPATIBILITY_WRITE: its data frame comes next, and whether that is secret.
    private var dataFrameSecret: Bool?

    /// A frame goes to the tag.
    mutating func send(_ frame: [UInt8]) -> Frame {
        if let secret = dataFrameSecret {
            dataFrameSecret = nil
            return Frame(
                name: "COMPATIBILITY_WRITE data", isWrite: true, shownBytes: secret ? 0 : nil, answerIsSecret: false,
                asksVersion: false)
        }
        let opcode = frame.first
        let name = Type2Command.name(of: opcode)
        counts[name, default: 0] += 1
        var shown: Int?
        if opcode == Type2Command.passwordAuthentication.opcode {
            shown = 1
        } else if opcode == Type2Command.write.opcode || opcode == Type2Command.compatibilityWrite.opcode,
            frame.count > 1, secretPages.contains(Int(frame[1]))
        {
            shown = 2
        }
        if opcode == Type2Command.compatibilityWrite.opcode { dataFrameSecret = shown != nil }
        return Frame(
            name: name, isWrite: InterruptGuard.isWrite(frame: frame),
            shownBytes: shown, answerIsSecret: opcode == Type2Command.passwordAuthentication.opcode,
            asksVersion: opcode == Type2Command.getVersion.opcode)
    }

    /// The tag answered `frame`: a GET_VERSION answer of a known chip narrows the secret pages
    /// to that chip's PWD and PACK (none for a chip without them).
    mutating func answered(_ frame: Frame, with response: NFCRawResponse) {
        guard frame.asksVersion, case .data(let version) = response,
            let chip = Type2ChipCatalogue.chip(forVersion: version)
        else { return }
        secretPages = chip.configurationPages.map { Set([$0.password, $0.passwordAcknowledge]) } ?? []
    }

    /// An APDU goes to the tag.
    /// Counts one MIFARE Classic command under its name (``NFCWireFormat/MifareClassicCommand``).
    mutating func sendClassic(_ frame: [UInt8]) {
        counts[MifareClassicCommand.name(of: frame.first), default: 0] += 1
    }

    /// A MIFARE Classic frame as a trace shows it: the key of an authentication and both keys
    /// of a WRITE to a sector trailer as `**`.
    static func shownClassic(_ frame: [UInt8]) -> String {
        guard frame.count == MifareClassicCommand.writeFrameLength, frame.first == MifareClassicCommand.write.opcode,
            MifareClassicSector.isTrailer(block: Int(frame[1]))
        else { return MifareClassicCommand.redacted(frame) }
        return Hex.bytes(frame.prefix(2)) + " ** ** ** ** ** ** " + Hex.bytes(frame[8..<12])
            + " ** ** ** ** ** **"
    }

    mutating func sendAPDU() {
        counts["APDU", default: 0] += 1
    }

    /// `frame` as upper-case hex with all but its first `shownBytes` bytes as `**`.
    static func shown(_ frame: [UInt8], shownBytes: Int?) -> String {
        guard let shownBytes, frame.count > shownBytes else {
            return Hex.encode(frame, uppercase: true, separator: " ")
        }
        let masked = Array(repeating: "**", count: frame.count - shownBytes).joined(separator: " ")
        return shownBytes == 0
            ? masked : Hex.encode(frame.prefix(shownBytes), uppercase: true, separator: " ") + " " + masked
    }
}
