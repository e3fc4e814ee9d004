import CommandLineKit
import NDEF
import NFCSession
import TagMemory

/// `ndeftool format`: NDEF-formats a blank or wiped tag.
enum FormatCommand {
    static let force = OptionSpec.flag(
        "force", help: "Format even when the tag holds an NDEF message (the message is lost).")
    static let dryRun = OptionSpec.flag("dry-run", help: "Print the page writes; write nothing.")
    static let json = OptionSpec.flag("json", help: "Print the result (or the plan) as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "format",
        abstract: "Initialise a blank or wiped tag for NDEF.",
        discussion: """
            Writes the chip's capability container and an empty NDEF message (with the \
            chip's factory Lock Control TLV where it has one), so that the tag reads as \
            INITIALIZED with its full capacity (NFC Forum Type 2 Tag 1.1, 6.3.1). The \
            capability container is one-time programmable: its bits can be set, never \
            cleared, so a tag whose CC has bits the chip's CC lacks cannot be formatted \
            (exit status 77, nothing written). The chip must be identified (GET_VERSION or \
            its CC).

            A tag that is already NDEF formatted and writable is erased instead (as \
            'ndeftool erase', tearing-safe). When it holds a message, format refuses with \
            exit status 64 unless --force is given: use 'ndeftool erase' to empty a tag on \
            purpose.

            A MIFARE Classic card that is not NDEF formatted gets the NFC Forum layout \
            (NXP AN1304: the MAD in sector 0, and sector 16 of a 4K; NFC sectors with the \
            public key A D3F7D3F7D3F7) and new keys: --keys-file must name the key B to \
            install ('key-b KEY') and may list the keys the card has now (the public and \
            transport keys are always tried). Since a lost key B leaves a sector's trailer \
            unchangeable, the format is confirmed like a lock: a code that stands for the \
            card and the layout with that key B, typed back at a terminal or given with \
            --confirm. Every sector is surveyed before the first write; a cut leaves each \
            sector with its old keys or the new ones, and the same command, code included, \
            finishes it.

            A Type 4 tag (ISO-DEP) cannot be formatted with the NFC Forum commands: its \
            NDEF Tag Application, CC file and NDEF file come from the manufacturer (or from \
            proprietary commands, as MIFARE DESFire's), and most tags do not let the CC \
            file be written. So on a Type 4 tag format writes an empty NDEF file (NLEN 0, \
            NFC Forum Type 4 Tag 3.0, 5.2 INITIALIZED state), under the same --force rule; \
            a tag without NDEF Tag Application ends with exit status 76.

            Examples:
              ndeftool format --reader 'sim:ntag215?file=blank.nfc'
              ndeftool format --dry-run --force
              ndeftool format --force
              ndeftool format --reader 'sim:type4?file=t4.txt'
              ndeftool format --dry-run --keys-file keys.txt --reader 'sim:classic1k?file=card.mfd'
            """,
        options: [force, dryRun, json, ClassicKeysFile.option, LockFlow.confirm],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let password = try TagPasswordOptions.given(invocation)
        let keys = try ClassicKeysFile.keyring(values)
        let code = try LockFlow.code(values)
        let connection = try TagConnection(invocation, writes: !values.flag(dryRun.long))
        return try await connection.runOnTag("formatting the tag") { tag in
            if let card = tag as? NFCMiFareClassicTag, try await card.ndefStatus().status == .notSupported {
                return try await formatClassic(
                    card, keys: keys, code: code, invocation: invocation, connection: connection)
            }
            try await TagPasswordOptions.unlock(tag, access: values.flag(dryRun.long) ? .read : .write, given: password)
            // A Type 2 tag can be given a CC; other tags are formatted by emptying their message.
            guard let tag = tag as? NFCMiFareTag else {
                return try await formatByErasing(tag, invocation: invocation)
            }
            var report = TagChangeReport(tag: tag, action: "format")
            let memory = try await tag.readMemory()
            let status = memory.ndefStatus
            if status.status == .readWrite {
                if let bytes = memory.ndefMessageBytes, !bytes.isEmpty, !values.flag(force.long) {
                    throw CommandLineError.usage(
                        "The tag is NDEF formatted and holds a \(bytes.count)-byte message: formatting would erase it. "
                            + "Use 'ndeftool erase' to empty it, or add --force")
                }
                let wasEmpty = memory.ndefMessageBytes?.isEmpty == true
                report.note =
                    wasEmpty
                    ? "The tag was already NDEF formatted, with an empty message."
                    : "The tag was already NDEF formatted: its message was emptied, as 'ndeftool erase' does."
            }
            if values.flag(dryRun.long) {
                switch status.status {
                case .readWrite:
                    report.plan = PlanReport(try await tag.plannedErase())
                case .readOnly:
                    throw NFCReaderError(.tagNotWritable, "the tag is read-only: it cannot be formatted")
                case .notSupported:
                    do throws(TagMemoryError) {
                        report.plan = PlanReport(try memory.formatPlan())
                    } catch {
                        throw NFCReaderError(planning: error, "cannot format the tag")
                    }
                }
                if status.status == .readWrite {
                    report.note = "The tag is already NDEF formatted: format empties its message, as erase does."
                }
            } else {
                try await tag.format()
                report.status = try await tag.ndefStatusAfterChange()
            }
            try report.show(json: values.flag(json.long), io: invocation.io)
            return .success
        }
    }

    /// Format of a MIFARE Classic card that is not NDEF formatted: the NFC Forum layout and the
    /// keys file's key B, once the code is confirmed.
    private static func formatClassic(
        _ card: NFCMiFareClassicTag, keys: MifareClassicKeyring?, code: String?, invocation: CommandInvocation,
        connection: TagConnection
    ) async throws -> ExitStatus {
        let values = invocation.values
        guard let keys, keys.keyBToInstall != nil else {
            throw CommandLineError.usage(
                "Formatting a MIFARE Classic card writes a key B into every sector: give --keys-file FILE with a "
                    + "'key-b KEY' line (or \"keyB\" in JSON), and keep the file: a lost key B cannot be recovered")
        }
        let confirmation = try await card.prepareFormat(keys: keys)
        var report = TagChangeReport(tag: card, action: "format")
        let again = RepeatCommand.line(
            invocation.arguments, command: ["format"], keeping: ["--reader", "--wait", "--keys-file"],
            adding: ["--confirm", confirmation.code])
        if values.flag(dryRun.long) {
            if code != nil { throw CommandLineError.usage("--dry-run writes nothing; leave out --confirm") }
            report.plan = PlanReport(confirmation.plan)
            report.note = "Format code \(confirmation.code). To format this card:\n  \(again)"
            try report.show(json: values.flag(json.long), io: invocation.io)
            return .success
        }
        try await ConfirmationPrompt(
            refusal: "format refused", standsFor: "this card and the layout with this key B",
            nothingDone: "nothing was written", whyAsked: "it changes the card's keys and needs a confirmation",
            warning: "Formatting writes new keys into every sector of the card: keep the keys file, a lost key B "
                + "cannot be recovered.",
            action: "format card", rerun: "format the card"
        ).confirm(confirmation, code: code, console: connection.console, again: again)
        try await card.format(keys: keys, confirmation: confirmation)
        report.status = try await card.ndefStatusAfterChange()
        report.note = "The card now has the NFC Forum layout (AN1304) and the keys file's key B in every sector."
        try report.show(json: values.flag(json.long), io: invocation.io)
        return .success
    }

    /// Format on a Type 4 tag or an NDEF-formatted MIFARE Classic card: an empty message (NLEN 0
    /// in the NDEF file; the NDEF TLV's length 0 on the card), refused without --force when it
    /// holds a message. A Classic card keeps its keys.
    private static func formatByErasing(_ tag: any NFCNDEFTag, invocation: CommandInvocation) async throws
        -> ExitStatus
    {
        let values = invocation.values
        var report = TagChangeReport(tag: tag, action: "format")
        let stored = try await tag.readNDEFMessageBytes() ?? []
        let isClassic = tag is NFCMiFareClassicTag
        if !stored.isEmpty, !values.flag(force.long) {
            throw CommandLineError.usage(
                "The \(isClassic ? "card" : "tag's NDEF file") holds a \(stored.count)-byte message: formatting would "
                    + "erase it. Use 'ndeftool erase' to empty it, or add --force")
        }
        if isClassic {
            report.note =
                (stored.isEmpty
                    ? "The card was already NDEF formatted (AN1304), with an empty message."
                    : "The card was already NDEF formatted (AN1304): its message was emptied, as 'ndeftool erase' does.")
                + " Its keys stay as they are"
                + (values.isGiven(ClassicKeysFile.option.long) ? " (the keys file's key B is not written)." : ".")
        } else {
            report.note =
                stored.isEmpty
                ? "The tag's NDEF file was already empty (NLEN 0)."
                : "A Type 4 tag is formatted by emptying its NDEF file (NLEN 0), as 'ndeftool erase' does."
        }
        if values.flag(dryRun.long) {
            report.plan = PlanReport(try await tag.plannedErase())
            report.status = try await tag.ndefStatus()
        } else {
            try await tag.erase()
            report.status = try await tag.ndefStatusAfterChange()
        }
        try report.show(json: values.flag(json.long), io: invocation.io)
        return .success
    }
}
