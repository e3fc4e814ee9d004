import NFCSession
import TagMemory

/// What `erase` and `format` report: the tag, what was done (or the plan), and the NDEF status
/// after it.
struct TagChangeReport: Encodable {
    var uid: String
    /// The UID as JSON gives it (``UIDText``).
    var uidJSON: String
    var chip: String?
    /// `erase` or `format`.
    var action: String
    /// The page writes of a dry run.
    var plan: PlanReport?
    /// The NDEF status and capacity: after the change, or before it on a dry run.
    var status: NDEFTagStatus?
    /// What the command did instead of the plain action (`format` on a formatted tag erases).
    var note: String?

    /// What one write of the plan is: `page write` or `UPDATE BINARY`.
    var writeUnit = "page write"

    init(tag: any NFCNDEFTag, action: String) {
        uid = tag.targetInfo.uidDescription
        uidJSON = tag.targetInfo.uidJSON
        chip = tag.chipName
        writeUnit = tag.writeCommandName
        self.action = action
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, action, dryRun, plan, status, capacity, note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uidJSON, forKey: .uid)
        try container.encode(chip.map(ChipJSON.init), forKey: .chip)
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
                "Plan to \(action) \(tag): \(PlanReport.count(plan.steps.count, writeUnit)) "
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
