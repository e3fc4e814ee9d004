import NDEF
import NFCSession
import TagInspection
import TagMemory

/// What `ndeftool write` reports: the tag, the message written (or the plan of a dry run) and
/// how much of the tag's NDEF capacity it uses.
struct WriteReport: Encodable {
    /// The tag's UID as colon-separated hex, for text.
    var uid: String
    /// The UID as JSON gives it (``UIDText``).
    var uidJSON: String
    /// The chip's name, when identified.
    var chip: String?
    /// The message.
    var message: NFCNDEFMessage
    /// Its size in bytes.
    var length: Int
    /// The tag's NDEF capacity in bytes, once known.
    var capacity: Int?
    /// The page writes of a dry run; nil when the message was written.
    var plan: PlanReport?
    /// Whether the write completed an interrupted one (`--resume`).
    var resumed = false
    /// Whether the tag was locked afterwards (`--lock`).
    var locked = false
    /// The mirror asked for (`{uid-mirror}`, `{counter-mirror}`).
    var mirrorRequest: Type2MirrorRequest?
    /// The mirror the write set up.
    var mirror: Type2Configuration.Mirror?

    /// What one write of the plan is: `page write` or `UPDATE BINARY`.
    var writeUnit = "page write"

    init(tag: any NFCNDEFTag, message: NFCNDEFMessage, length: Int) {
        uid = tag.targetInfo.uidDescription
        uidJSON = tag.targetInfo.uidJSON
        chip = tag.chipName
        writeUnit = tag.writeCommandName
        self.message = message
        self.length = length
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, message, length, capacity, dryRun, plan, resumed, locked, mirror
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uidJSON, forKey: .uid)
        try container.encode(chip.map(ChipJSON.init), forKey: .chip)
        try container.encode(message, forKey: .message)
        try container.encode(length, forKey: .length)
        try container.encode(capacity, forKey: .capacity)
        try container.encode(plan != nil, forKey: .dryRun)
        if let plan {
            try container.encode(plan.steps, forKey: .plan)
        } else {
            try container.encode(resumed, forKey: .resumed)
            try container.encode(locked, forKey: .locked)
            try container.encode(
                MirrorJSON(mirror, counterPasswordProtected: mirrorRequest?.isCounterPasswordProtected ?? false),
                forKey: .mirror)
        }
    }

    /// The report as text: what was written (or would be), then the space used.
    var lines: [String] {
        let tag = "tag \(uid)" + (chip.map { " (\($0))" } ?? "")
        var lines: [String]
        if let plan {
            lines = [
                "Plan for \(tag): \(PlanReport.count(plan.steps.count, writeUnit)) "
                    + "(--dry-run: nothing was written)"
            ]
            lines += plan.lines
            lines.append("Message:")
        } else {
            lines = [(resumed ? "Completed the write to " : "Wrote ") + tag + ", verified:"]
        }
        lines += MessageDescription(message: message, size: length).text.split(separator: "\n").map(String.init)
        lines += MirrorOptions.lines(mirror, request: mirrorRequest)
        if let capacity {
            lines.append(PlanReport.usage(length, of: capacity) + (plan == nil ? "" : " after the write"))
        }
        return lines
    }
}
