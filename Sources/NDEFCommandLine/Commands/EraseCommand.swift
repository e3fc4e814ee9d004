import CommandLineKit
import NDEF
import NFCSession

/// `ndeftool erase`: leaves an empty NDEF message on the tag at the reader.
enum EraseCommand {
    static let dryRun = OptionSpec.flag("dry-run", help: "Print the page writes; write nothing.")
    static let json = OptionSpec.flag("json", help: "Print the result (or the plan) as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "erase",
        abstract: "Leave an empty NDEF message on a tag.",
        discussion: """
            Writes an empty NDEF Message TLV (03 00, then a Terminator TLV): the tag is \
            then INITIALIZED (NFC Forum Type 2 Tag 1.1, 6.3.1) and reads as holding an \
            empty NDEF message. Usually one page write. The rest of the old message stays \
            in memory behind the empty TLV, unread; the capability container, lock bits and \
            password settings are not touched.

            On a Type 4 tag the NDEF file's length (NLEN) is set to 0 with one UPDATE \
            BINARY (NFC Forum Type 4 Tag 3.0, 5.5.7); none when it is 0 already.

            A tag that is not NDEF formatted ends with exit status 76 (use 'ndeftool \
            format'); a read-only one with 77.

            Examples:
              ndeftool erase --reader 'sim:ntag215?file=tag.nfc'
              ndeftool erase --dry-run
              ndeftool erase --reader 'sim:type4?file=t4.txt'
            """,
        options: [dryRun, json],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let password = try TagPasswordOptions.given(invocation)
        let connection = try TagConnection(invocation, writes: !values.flag(dryRun.long))
        return try await connection.runOnTag("erasing the tag") { tag in
            try await TagPasswordOptions.unlock(tag, access: values.flag(dryRun.long) ? .read : .write, given: password)
            var report = TagChangeReport(tag: tag, action: "erase")
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
}
