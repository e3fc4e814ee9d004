import CommandLineKit
import NDEF
import NFCSession
import TagMemory

/// `ndeftool lock`: makes the tag at the reader read-only for good, once confirmed.
enum LockCommand {
    static let dryRun = OptionSpec.flag(
        "dry-run", help: "Print the lock plan and the lock code; write nothing.")
    static let json = OptionSpec.flag("json", help: "Print the tag, the code and the plan as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "lock",
        abstract: "Make a tag read-only for good (irreversible).",
        discussion: """
            Locking cannot be undone: the capability container's write access becomes Fh \
            and the lock bits are set (NFC Forum Type 2 Tag 1.1, 6.4.4; both are one-time \
            programmable). The command shows the tag's UID, its message and a 6-digit lock \
            code (123-456) that stands for this tag, this content and this lock plan.

            A person at a terminal (standard input and standard error) is asked to type the \
            code back. Otherwise the lock is refused with exit status 79 unless --confirm \
            gives the code: take it from a first run, or from 'ndeftool lock --dry-run'. \
            The code changes when the content does, so a code shown for one message or one \
            tag locks no other. After the writes the tag is read back and must report \
            read-only.

            On a Type 4 tag the lock is the read-only procedure of NFC Forum Type 4 Tag \
            3.0, 5.5.8: one UPDATE BINARY writes FFh (no write access) at the NDEF file's \
            write access byte in the CC file, then the CC file is read back. Many Type 4 \
            tags do not let the CC file be written (an NTAG 424 DNA changes access rights \
            only with its own commands): the lock then ends with exit status 77 and the tag \
            stays writable.

            On a MIFARE Classic card the lock is the read-only procedure of NXP AN1305: every \
            sector's trailer gets the access bits 07 8F 0F (no key may write data or trailer) \
            and the NFC sectors the GPB 43h. The trailers are written with key B, which \
            --keys-file gives.

            Examples:
              ndeftool lock --dry-run --reader 'sim:ntag215?file=tag.nfc'
              ndeftool lock --dry-run --json
              ndeftool lock --confirm 648-636 --reader 'sim:ntag215?file=tag.nfc'
              ndeftool lock --dry-run --reader 'sim:type4?file=t4.txt&cc-writable=1'
            """,
        options: [
            LockFlow.confirm, dryRun, json, SignatureKeyOptions.requireGenuine, SignatureKeyOptions.signatureKey,
            ClassicKeysFile.option,
        ],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let code = try LockFlow.code(values)
        if code != nil && values.flag(dryRun.long) {
            throw .usage("--dry-run writes nothing; leave out --confirm")
        }
        let password = try TagPasswordOptions.given(invocation)
        let genuineKeys =
            values.flag(SignatureKeyOptions.requireGenuine.long) ? try SignatureKeyOptions.keys(values) : nil
        let keys = try ClassicKeysFile.keyring(values)
        let connection = try TagConnection(invocation, writes: !values.flag(dryRun.long))
        let again = LockFlow.lockCommand(invocation.arguments, code: nil)
        return try await connection.runOnTag("locking the tag", resume: again) { tag in
            if let keys, let card = tag as? NFCMiFareClassicTag { await card.useKeys(keys) }
            if let genuineKeys { try await SignatureKeyOptions.requireGenuine(tag, keys: genuineKeys) }
            try await TagPasswordOptions.unlock(tag, access: values.flag(dryRun.long) ? .read : .write, given: password)
            let message = try await messageSummary(tag)
            let confirmation: NFCLockConfirmation
            do {
                confirmation = try await tag.prepareLock()
            } catch let error as NFCReaderError {
                // The code given with --confirm, if any, still stands: nothing was written.
                throw LockFlow.failure(error, arguments: invocation.arguments, code: code)
            }
            var report = LockReport(tag: tag, confirmation: confirmation, message: message)
            report.isDryRun = values.flag(dryRun.long)
            let lockLine = LockFlow.lockCommand(invocation.arguments, code: confirmation.code)
            if !values.flag(json.long) {
                try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n")
            }
            if report.isDryRun {
                if values.flag(json.long) {
                    try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
                } else {
                    try invocation.io.writeOutput("Nothing was written (--dry-run). To lock this tag:\n  \(lockLine)\n")
                }
                return .success
            }
            do {
                try await LockFlow.lock(
                    tag, confirmation: confirmation, code: code, console: connection.console, again: lockLine)
            } catch let error as NFCReaderError {
                throw LockFlow.failure(error, arguments: invocation.arguments, code: confirmation.code)
            }
            report.isLocked = true
            if values.flag(json.long) {
                try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
            } else {
                try invocation.io.writeOutput("Locked: the tag is read-only for good.\n")
            }
            return .success
        }
    }

    /// The message on the tag: nil for an empty one; a malformed one is reported, not fatal
    /// (locking keeps whatever the tag holds).
    static func messageSummary(_ tag: any NFCNDEFTag) async throws -> LockReport.Content {
        do {
            let message = try await tag.readNDEF()
            let size = (try? message.encoded().count) ?? 0
            return .message(message, size: size)
        } catch {
            switch error.code {
            case .zeroLengthMessage: return .empty
            case .invalidMessage: return .unreadable(error.reason)
            default: throw error
            }
        }
    }
}
