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
            """,
        options: [force, dryRun, json],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let password = try TagPasswordOptions.given(invocation)
        let connection = try TagConnection(invocation, writes: !values.flag(dryRun.long))
        return try await connection.runOnTag("formatting the tag") { tag in
            try await TagPasswordOptions.unlock(tag, access: values.flag(dryRun.long) ? .read : .write, given: password)
            // A Type 2 tag can be given a CC; other tags are formatted by emptying their message.
            guard let tag = tag as? NFCMiFareTag else {
                return try await formatType4(tag, invocation: invocation)
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

    /// Format on a Type 4 tag: an empty NDEF file (NLEN 0), refused without --force when the
    /// file holds a message.
    private static func formatType4(_ type4: any NFCNDEFTag, invocation: CommandInvocation) async throws -> ExitStatus {
        let values = invocation.values
        var report = TagChangeReport(tag: type4, action: "format")
        let stored = try await type4.readNDEFMessageBytes() ?? []
        if !stored.isEmpty, !values.flag(force.long) {
            throw CommandLineError.usage(
                "The tag's NDEF file holds a \(stored.count)-byte message: formatting would erase it. "
                    + "Use 'ndeftool erase' to empty it, or add --force")
        }
        report.note =
            stored.isEmpty
            ? "The tag's NDEF file was already empty (NLEN 0)."
            : "A Type 4 tag is formatted by emptying its NDEF file (NLEN 0), as 'ndeftool erase' does."
        if values.flag(dryRun.long) {
            report.plan = PlanReport(try await type4.plannedErase())
            report.status = try await type4.ndefStatus()
        } else {
            try await type4.erase()
            report.status = try await type4.ndefStatusAfterChange()
        }
        try report.show(json: values.flag(json.long), io: invocation.io)
        return .success
    }
}
