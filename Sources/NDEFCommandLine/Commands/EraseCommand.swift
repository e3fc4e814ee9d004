import NDEF
import NFCSession
import TagMemory

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

            A tag that is not NDEF formatted ends with exit status 76 (use 'ndeftool \
            format'); a read-only one with 77.

            Examples:
              ndeftool erase --reader 'sim:ntag215?file=tag.nfc'
              ndeftool erase --dry-run
            """,
        options: [dryRun, json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let connection = try TagConnection(invocation)
        return try await connection.run("erasing the tag") { tag in
            var report = TagChangeReport(tag: tag, action: "erase")
            if values.flag(dryRun.long) {
                let memory = try await tag.readMemory()
                do throws(TagMemoryError) {
                    report.plan = PlanReport(try WriteCommand.checkedPlan(memory, bytes: []))
                } catch {
                    throw TagFailure.readerError(planning: error)
                }
                report.status = memory.ndefStatus
            } else {
                try await tag.erase()
                report.status = try await tag.ndefStatus()
            }
            try report.show(json: values.flag(json.long), io: invocation.io)
            return .success
        }
    }
}

/// What `erase` and `format` report: the tag, what was done (or the plan), and the NDEF status
/// after it.
struct TagChangeReport: Encodable {
    var uid: String
    var chip: String?
    /// `erase` or `format`.
    var action: String
    /// The page writes of a dry run.
    var plan: PlanReport?
    /// The NDEF status and capacity: after the change, or before it on a dry run.
    var status: NDEFTagStatus?
    /// What the command did instead of the plain action (`format` on a formatted tag erases).
    var note: String?

    init(tag: NFCMiFareTag, action: String) {
        uid = tag.targetInfo.uidDescription
        chip = tag.chip?.name
        self.action = action
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, action, dryRun, plan, status, capacity, note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(chip, forKey: .chip)
        try container.encode(action, forKey: .action)
        try container.encode(plan != nil, forKey: .dryRun)
        if let plan { try container.encode(plan.steps, forKey: .plan) }
        try container.encode(status?.status, forKey: .status)
        try container.encode(status?.capacity, forKey: .capacity)
        try container.encode(note, forKey: .note)
    }

    /// Prints the report as text or JSON on standard output.
    func show(json: Bool, io: any CommandIO) throws(CommandLineError) {
        if json {
            try io.writeOutput(try MessageJSON.text(of: self) + "\n")
        } else {
            try io.writeOutput(lines.joined(separator: "\n") + "\n")
        }
    }

    var lines: [String] {
        let tag = "tag \(uid)" + (chip.map { " (\($0))" } ?? "")
        var lines: [String] = []
        if let plan {
            lines.append(
                "Plan to \(action) \(tag): \(MessageDescription.count(plan.steps.count, "page write")) "
                    + "(--dry-run: nothing was written)")
            lines += plan.lines
        } else {
            lines.append((action == "format" ? "Formatted " : "Erased ") + tag + ", verified.")
        }
        if let note { lines.append(note) }
        if plan == nil, let status {
            let access = status.status == .readWrite ? "read/write" : status.status.rawValue
            lines.append(
                "NDEF: \(access), empty message; " + PlanReport.usage(0, of: status.capacity))
        }
        return lines
    }
}
