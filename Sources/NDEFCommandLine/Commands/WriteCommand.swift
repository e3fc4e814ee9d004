import CommandLineKit
import NDEF
import NFCSession
import RecordSpecifications
import TagMemory

/// `ndeftool write`: writes an NDEF message to the tag at the reader, then optionally locks it.
enum WriteCommand {
    static let from = OptionSpec.option(
        "from",
        value: "file",
        help: "Write the message in <file> (- for standard input): binary NDEF, hex text or JSON."
    )
    static let json = OptionSpec.flag("json", help: "Print what was written (or the plan) as JSON.")
    static let dryRun = OptionSpec.flag(
        "dry-run", help: "Read the tag and print the page writes the message needs; write nothing.")
    static let resume = OptionSpec.flag(
        "resume", help: "Complete a write that was interrupted: read the whole tag, write what is missing.")
    static let uid = OptionSpec.option(
        "uid", value: "hex",
        help: "Write only to the tag with this UID (hex; colons allowed): another tag is refused with exit "
            + "status 75, nothing written. The command shown after an interrupted write names its tag so.")
    static let lock = OptionSpec.flag(
        "lock", help: "After the verified write, make the tag read-only for good (asks for the lock code).")

    /// The command.
    static let spec = CommandSpec(
        name: "write",
        abstract: "Write an NDEF message to a tag.",
        discussion: """
            The message is given as record specifications, as for 'ndeftool encode' (see \
            'ndeftool help encode' for every kind and option), or with --from: a file \
            holding binary NDEF, hex text or JSON ({"records":[...]}), told apart by its \
            first byte.

            Before any write the tag is read: it must be NDEF formatted, writable and large \
            enough (exit statuses 76, 77 and 73, with nothing written). The write is \
            tearing-safe (NFC Forum Type 2 Tag 1.1, 6.4.3): the NDEF length is set to 0 \
            first and to the new length last, so a tag taken away too early holds the old \
            message, an empty one or the new one; the pages written are read back. An \
            interrupted write ends with exit status 80 and the command that completes it \
            (the same one with --resume and --uid naming the interrupted tag, so that it \
            completes that tag and no other).

            A Type 4 tag (ISO-DEP) is written the same way with UPDATE BINARY commands of \
            at most MLc bytes (NFC Forum Type 4 Tag 3.0, 5.5.7): NLEN 0 first, the message, \
            NLEN last, or one UPDATE BINARY when the length and the message fit one command; \
            then the NDEF file is read back. --dry-run shows each command APDU.

            {uid-mirror} and {counter-mirror} in a record make an NTAG213/215/216 show \
            its UID (14 upper-case hex characters) and its NFC counter (6, one more on \
            each tap) there in every read, as a phone sees it (the datasheet's ASCII \
            mirror, 8.7); both together are written {uid-mirror}x{counter-mirror}. \
            The message is written with 0s in their place, verified, and then CFG1 \
            (NFC_CNT_EN) and CFG0 (the mirror's page and byte) are set and read back; a \
            placeholder the chip cannot mirror (past byte 2 of its last user page, twice, \
            or on another chip) is refused before any write. A write without placeholders \
            turns off a mirror the tag had.

            --lock then makes the tag read-only for good, under the rules of 'ndeftool \
            lock': a person at a terminal types the lock code back, or --confirm gives it; \
            otherwise the lock is refused with exit status 79 after the write, and the lock \
            command to run is shown.

            Examples:
              ndeftool write uri https://example.com --reader 'sim:ntag215?file=tag.nfc'
              ndeftool write text "Hello" --lang en uri https://example.com
              ndeftool write --from message.ndef --dry-run
              ndeftool encode --from-json message.json | ndeftool write --from -
              ndeftool write uri https://example.com --resume
              ndeftool write text "Hi" --dry-run --reader 'sim:type4?file=t4.txt'
              ndeftool write uri 'https://x.test/?m={uid-mirror}x{counter-mirror}'
            """,
        arguments: [
            ArgumentSpec(
                "record",
                help: "Record specifications, as for 'ndeftool encode'.",
                optional: true,
                grammar: RecordSpecGrammar.standard
            )
        ],
        options: [
            from, json, dryRun, resume, uid, lock, LockFlow.confirm, MirrorOptions.counterPasswordProtected,
            SignatureKeyOptions.requireGenuine, SignatureKeyOptions.signatureKey,
        ],
        groups: [TagPasswordOptions.group, TagOptions.group],
        helpSections: [RecordSpecGrammar.standard.kindSection],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        if values.flag(dryRun.long) && values.flag(lock.long) {
            throw .usage("--dry-run shows the write plan only; after writing, 'ndeftool lock --dry-run' shows the lock")
        }
        if values.isGiven(LockFlow.confirm.long) && !values.flag(lock.long) {
            throw .usage("--confirm goes with --lock (or with 'ndeftool lock')")
        }
        let code = try LockFlow.code(values)
        try TagPasswordOptions.checkStandardInput(values, besides: from)
        let inputs = InputReader(io: invocation.io)
        let (message, mirror) = try mirroredMessage(invocation, inputs: inputs)
        let bytes: [UInt8]
        do {
            bytes = try message.encoded()
        } catch {
            throw .usage("Cannot encode the message: \(error.description)")
        }
        let password = try TagPasswordOptions.given(invocation)
        let genuineKeys =
            values.flag(SignatureKeyOptions.requireGenuine.long) ? try SignatureKeyOptions.keys(values) : nil
        let connection = try TagConnection(invocation, writes: !values.flag(dryRun.long))
        let wantedUID = try self.wantedUID(values)
        let pipesInput = inputs.standardInputUser != nil
        return try await connection.runOnTag("writing the message") { tag in
            if let wantedUID, tag.identifier != wantedUID {
                throw CommandLineError(
                    .tryAgain,
                    "writing the message: this is tag \(tag.targetInfo.uidDescription), not the tag "
                        + "\(UIDText.description(wantedUID)) --uid names: nothing was written. Hold that tag to the "
                        + "reader.")
            }
            let resumeLine = resumeCommand(
                invocation.arguments, resumes: values.flag(resume.long), pipesInput: pipesInput,
                uid: tag.identifier)
            if let genuineKeys { try await SignatureKeyOptions.requireGenuine(tag, keys: genuineKeys) }
            do {
                return try await write(
                    message, bytes: bytes, mirror: mirror, to: tag, password: password, code: code,
                    connection: connection, invocation: invocation)
            } catch let error as NFCReaderError {
                throw TagFailure.error(error, while: "writing the message", resume: resumeLine)
            }
        }
    }

    /// Writes (or plans, or resumes) `message` on `tag`, then locks it as asked.
    private static func write(
        _ message: NFCNDEFMessage, bytes: [UInt8], mirror: Type2MirrorRequest?, to tag: any NFCNDEFTag,
        password: TagPasswordOptions.Given,
        code: String?, connection: TagConnection, invocation: CommandInvocation
    ) async throws -> ExitStatus {
        let values = invocation.values
        try await TagPasswordOptions.unlock(tag, access: values.flag(dryRun.long) ? .read : .write, given: password)
        var report = WriteReport(tag: tag, message: message, length: bytes.count)
        report.mirrorRequest = mirror
        if values.flag(dryRun.long) {
            // Exactly the writes the session would send, in its order.
            let plan = try await tag.plannedWrite(of: message, mirror: mirror)
            report.capacity = try await tag.ndefStatus().capacity
            report.plan = PlanReport(plan)
            try show(report, invocation: invocation)
            return .success
        }
        try await tag.writeNDEF(message, mirror: mirror, resume: values.flag(resume.long))
        report.mirror = await tag.lastWrittenMirror
        report.resumed = values.flag(resume.long)
        report.capacity = try await tag.ndefStatusAfterChange().capacity
        guard values.flag(lock.long) else {
            try show(report, invocation: invocation)
            return .success
        }
        if !values.flag(json.long) { try show(report, invocation: invocation) }
        report.locked = try await lockAfterWrite(tag, code: code, connection: connection, invocation: invocation)
        if values.flag(json.long) { try show(report, invocation: invocation) }
        return .success
    }

    /// The UID `--uid` gives, if any.
    static func wantedUID(_ values: ParsedValues) throws(CommandLineError) -> [UInt8]? {
        guard let text = values.value(uid.long) else { return nil }
        guard let bytes = UIDText.parse(text) else {
            throw .invalidValue(
                text, for: uid, reason: "a UID is 4, 7 or 10 bytes in hex, such as 04:A1:B2:C3:D4:E5:F6")
        }
        return bytes
    }

    /// The message of the record specifications, or of `--from`.
    static func message(_ invocation: CommandInvocation) throws(CommandLineError) -> NFCNDEFMessage {
        let inputs = InputReader(io: invocation.io)
        return try message(invocation, inputs: inputs)
    }

    /// The message of the record specifications, or of `--from`, read through `inputs` (which
    /// then tells whether standard input was read).
    static func message(
        _ invocation: CommandInvocation, inputs: InputReader
    ) throws(CommandLineError) -> NFCNDEFMessage {
        try mirroredMessage(invocation, inputs: inputs).message
    }

    /// The message, and the mirror `{uid-mirror}` and `{counter-mirror}` in its record
    /// specifications ask for (``MirrorOptions``).
    static func mirroredMessage(
        _ invocation: CommandInvocation, inputs: InputReader
    ) throws(CommandLineError) -> (message: NFCNDEFMessage, mirror: Type2MirrorRequest?) {
        let values = invocation.values
        let tokens = values.sequence("record")
        let message: NFCNDEFMessage
        let mirror: Type2MirrorRequest?
        if let path = values.value(from.long) {
            guard tokens.isEmpty else {
                throw .usage("Give the message either as records or with --from, not both")
            }
            if values.flag(MirrorOptions.counterPasswordProtected.long) {
                throw .usage("--counter-password-protected goes with {counter-mirror} in record specifications")
            }
            message = try MessageInput.decode(
                detecting: inputs.bytes(of: path, for: "--from"), source: InputReader.name(of: path))
            mirror = nil
        } else {
            guard !tokens.isEmpty else {
                throw .missingArgument(
                    "<record> ...",
                    help: "<record>  A record starts with a kind word such as text or uri; or use --from <file>.")
            }
            (message, mirror) = try MirrorOptions.message(tokens: tokens, values: values) {
                (tokens) throws(CommandLineError) in
                let specs = try RecordSpecGrammar.standard.commandLineSpecs(tokens)
                return NFCNDEFMessage(records: try RecordSpecGrammar.standard.commandLineRecords(specs, inputs: inputs))
            }
        }
        guard !message.records.isEmpty else {
            throw .usage("The message has no records; 'ndeftool erase' leaves an empty NDEF message on a tag")
        }
        return (message, mirror)
    }

    /// The lock flow after a verified write; returns true once the tag is locked.
    private static func lockAfterWrite(
        _ tag: any NFCNDEFTag, code: String?, connection: TagConnection, invocation: CommandInvocation
    ) async throws -> Bool {
        var known: String?
        do {
            let confirmation = try await tag.prepareLock()
            known = confirmation.code
            let again = LockFlow.lockCommand(invocation.arguments, code: confirmation.code)
            if !invocation.values.flag(json.long) {
                try invocation.io.writeOutput("Lock code: \(confirmation.code)\n")
            }
            try await LockFlow.lock(
                tag, confirmation: confirmation, code: code, console: connection.console, again: again)
            if !invocation.values.flag(json.long) {
                try invocation.io.writeOutput("Locked: the tag is read-only for good.\n")
            }
            return true
        } catch let error as NFCReaderError {
            throw notLocked(LockFlow.failure(error, arguments: invocation.arguments, code: known ?? code))
        } catch let error as CommandLineError {
            throw notLocked(error)
        }
    }

    /// `failure` of the lock after a verified write, saying that the write stands and that the
    /// lock changed nothing (where the lock's message says nothing was written).
    static func notLocked(_ failure: CommandLineError) -> CommandLineError {
        var failure = failure
        let message = failure.message.replacing("Nothing was written", with: "The lock wrote nothing")
            .replacing("nothing was written", with: "the lock wrote nothing")
            .replacing("Nothing was changed", with: "The lock changed nothing")
        failure.message = "the message was written and verified, but the tag was not locked: " + message
        return failure
    }

    /// The command line that completes an interrupted write: the same one without the lock
    /// options, with `--resume` and `--uid` naming the tag `uid` (so that it completes that tag). When the message came from standard input (`--from -`,
    /// `message -`), it must be piped again: the line starts `... |` and says so.
    static func resumeCommand(_ arguments: [String], resumes: Bool, pipesInput: Bool = false, uid: [UInt8]? = nil)
        -> String
    {
        let line = RepeatCommand.line(
            arguments, dropping: ["--lock", "--confirm", "--uid"],
            adding: (resumes ? [] : ["--resume"]) + (uid.map { ["--uid", UIDText.json($0)] } ?? []))
        guard pipesInput else { return line }
        return "... | " + line + "\n(with the same message on standard input again, as the first time)"
    }

    /// Prints `report` as text or JSON.
    private static func show(_ report: WriteReport, invocation: CommandInvocation) throws(CommandLineError) {
        if invocation.values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
        } else {
            try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n")
        }
    }
}
