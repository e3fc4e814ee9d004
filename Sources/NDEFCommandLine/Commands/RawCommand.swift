import CommandLineKit
import HexText
import NDEF
import NFCSession
import NFCWireFormat
import TagMemory

/// `ndeftool raw`: sends command frames (Type 2) or APDUs (Type 4) as given, for experts.
enum RawCommand {
    static let force = OptionSpec.flag(
        "force", help: "Send writes (WRITE, COMPATIBILITY_WRITE to protected pages, UPDATE BINARY) as given.")
    static let json = OptionSpec.flag("json", help: "Print the commands and answers as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "raw",
        abstract: "Send raw commands to a tag (for experts).",
        discussion: """
            Each argument is one command, in hex. On a Type 2 tag (NTAG21x, MIFARE \
            Ultralight) it is a command frame without CRC: the reader adds CRC_A and checks \
            the answer's (ISO/IEC 14443-3). On a Type 4 tag (ISO-DEP) it is a command APDU \
            (ISO/IEC 7816-4). Each command and its answer are printed in hex: a 4-bit answer \
            as ACK or NAK with its meaning (a NAK sends the tag back to IDLE; it is selected \
            again before the next command), an APDU's status word SW1 SW2 with its meaning. \
            A NAK or an error status word is an answer: the exit status stays 0.

            Passwords never go on the command line, where other users and the shell history \
            see them: a PWD_AUTH frame (1B) is refused with exit status 64 and nothing is \
            sent; use 'ndeftool password auth'.

            Writes through raw bypass the safety of 'ndeftool write' (tearing-safe order, \
            capacity and lock checks, read-back): WRITE (A2) to any page, \
            COMPATIBILITY_WRITE (A0) to pages 0-3 or the lock and configuration pages, \
            INCR_CNT (A5) and UPDATE BINARY (D6, D7) are refused with exit status 64 unless \
            --force is given. Nothing is sent when one command is refused.

            Examples:
              ndeftool raw 60 --reader sim:ntag215      # GET_VERSION
              ndeftool raw 3000 3A0410 3C00             # READ, FAST_READ, READ_SIG
              ndeftool raw A20F01020304 --force         # WRITE page 15
              ndeftool raw --json 60 3910
              ndeftool raw 00A4040007D276000085010100 00A4000C02E103 00B000000F \\
                --reader sim:type4                      # SELECT NDEF application and CC, READ
            """,
        arguments: [ArgumentSpec("command", help: "A command frame or APDU in hex (60, 3A0410).", repeating: true)],
        options: [force, json],
        groups: [TagOptions.group],
        run: run
    )

    /// One command sent and its answer.
    struct Exchange: Encodable {
        var command: [UInt8]
        var name: String?
        /// The data answered (without status word); nil for a 4-bit answer.
        var response: [UInt8]?
        /// `ACK`, `NAK 0h (...)`, or the status word with its meaning.
        var answer: String
        /// The status word of an APDU.
        var statusWord: [UInt8]?

        private enum CodingKeys: String, CodingKey { case command, name, response, answer, sw }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Hex.encode(command), forKey: .command)
            try container.encode(name, forKey: .name)
            try container.encode(response.map { Hex.encode($0) }, forKey: .response)
            try container.encode(answer, forKey: .answer)
            try container.encodeIfPresent(
                statusWord.map { Hex.encode($0, uppercase: true) }, forKey: .sw)
        }

        var lines: [String] {
            let sent = "> " + RawFrame.hex(command) + (name.map { "  \($0)" } ?? "")
            if let statusWord {
                let data = response.map { $0.isEmpty ? "" : RawFrame.hex($0) + " " } ?? ""
                return [sent, "< " + data + RawFrame.hex(statusWord) + "  (\(answer))"]
            }
            if let response { return [sent, "< " + RawFrame.hex(response)] }
            return [sent, "< " + answer]
        }
    }

    /// What `--json` prints.
    struct Report: Encodable {
        var uid: String
        var tagType: String
        var exchanges: [Exchange]
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        var commands: [[UInt8]] = []
        for (index, argument) in values.arguments("command").enumerated() {
            guard let bytes = RawFrame.bytes(argument) else {
                throw .invalidValue(argument, for: "<command>", reason: "a command is hex digits, as 3A0410")
            }
            if bytes.first == 0x1B {
                throw .usage(
                    "Refused: command \(index + 1) is a PWD_AUTH frame (1B); passwords never go on the command line (other users "
                        + "and the shell history see them). Nothing was sent. Use 'ndeftool password auth'")
            }
            commands.append(bytes)
        }
        guard !commands.isEmpty else {
            throw .missingArgument("<command> ...", help: "<command>  A command frame or APDU in hex, as 60 or 3000.")
        }
        let connection = try TagConnection(invocation, writes: values.flag(force.long))
        return try await connection.runOnTag("sending raw commands") { tag in
            guard let target = tag as? any RawCommandTarget else {
                throw CommandLineError(
                    .unavailable,
                    "tag \(tag.targetInfo.uidDescription) is an \(tag.chipName ?? "unknown tag"): "
                        + "'raw' does not send commands to its kind yet")
            }
            try checkForce(commands, tag: target, forced: values.flag(force.long), console: connection.console)
            var report = Report(uid: tag.targetInfo.uidJSON, tagType: target.rawTagType, exchanges: [])
            for command in commands {
                let exchange = try await target.rawExchange(command)
                report.exchanges.append(exchange)
                if !values.flag(json.long) {
                    try invocation.io.writeOutput(exchange.lines.joined(separator: "\n") + "\n")
                }
            }
            if values.flag(json.long) { try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n") }
            return .success
        }
    }

    /// Refuses (exit status 64) before anything is sent when a command writes and `--force`
    /// was not given; warns when it was.
    private static func checkForce(
        _ commands: [[UInt8]], tag: any RawCommandTarget, forced: Bool, console: TagConsole
    ) throws(CommandLineError) {
        // A WRITE of the PWD page carries a password on the command line, where other users and
        // the shell's history see it: refused like a PWD_AUTH frame, whatever --force says.
        if let type2 = tag as? NFCMiFareTag, let pwd = type2.chip?.configurationPages?.password,
            let index = commands.firstIndex(where: {
                ($0.first == 0xA2 || $0.first == 0xA0) && $0.count > 1 && Int($0[1]) == pwd
            })
        {
            throw .usage(
                "Refused: command \(index + 1) writes the PWD page (\(pwd)) of this \(type2.chip?.name ?? "tag"): a "
                    + "password never goes on the command line (other users and the shell history see it). Nothing "
                    + "was sent. Use 'ndeftool password set'")
        }
        let reasons = commands.compactMap(tag.forceReason)
        guard let first = reasons.first else { return }
        let bypass =
            "raw writes bypass the safety of 'ndeftool write' (tearing-safe order, capacity and lock checks, "
            + "read-back)"
        guard forced else {
            throw .usage("Refused: \(first); \(bypass). Nothing was sent. Add --force to send it as given")
        }
        console.note("Sending \(reasons.count == 1 ? "a write" : "writes") as given (--force): \(bypass).")
    }
}

/// A tag `raw` sends commands to: each kind names its frames, says which of them write, and
/// sends them as they are.
protocol RawCommandTarget: NFCNDEFTag {
    /// The `tagType` of the JSON report: `type2`, `type4`.
    var rawTagType: String { get }
    /// Why `command` needs `--force` (it writes), or nil.
    func forceReason(_ command: [UInt8]) -> String?
    /// Sends `command` and names its answer.
    func rawExchange(_ command: [UInt8]) async throws(NFCReaderError) -> RawCommand.Exchange
}

extension NFCMiFareTag: RawCommandTarget {
    nonisolated var rawTagType: String { "type2" }

    nonisolated func forceReason(_ command: [UInt8]) -> String? {
        RawFrame.type2ForceReason(command, chip: chip)
    }

    /// A frame through ``NFCSession/NFCMiFareTag/sendMiFareCommand(_:)``: its data, ACK, or NAK.
    func rawExchange(_ command: [UInt8]) async throws(NFCReaderError) -> RawCommand.Exchange {
        let name = command.first.flatMap(Type2Command.init(opcode:))?.name
        do {
            let answer = try await sendMiFareCommand(command)
            if answer == [0x0A] {
                return RawCommand.Exchange(command: command, name: name, answer: RawFrame.fourBitName(0x0A))
            }
            return RawCommand.Exchange(command: command, name: name, response: answer, answer: "data")
        } catch {
            guard error.code == .tagResponseError, let nak = error.nakCode else { throw error }
            return RawCommand.Exchange(command: command, name: name, answer: RawFrame.fourBitName(nak))
        }
    }
}

extension NFCISO7816Tag: RawCommandTarget {
    nonisolated var rawTagType: String { "type4" }

    nonisolated func forceReason(_ command: [UInt8]) -> String? {
        RawFrame.apduForceReason(command)
    }

    /// An APDU through ``NFCSession/NFCISO7816Tag/sendCommand(apdu:)``: its data and status word.
    func rawExchange(_ command: [UInt8]) async throws(NFCReaderError) -> RawCommand.Exchange {
        let answer = try await sendCommand(apdu: command)
        let status = StatusWord(sw1: answer.sw1, sw2: answer.sw2)
        return RawCommand.Exchange(
            command: command, name: RawFrame.apduName(command), response: answer.data,
            answer: status.description, statusWord: [answer.sw1, answer.sw2])
    }
}
