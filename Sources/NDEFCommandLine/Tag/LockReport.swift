import NDEF
import NFCSession
import TagInspection
import TagMemory

/// What `ndeftool lock` shows before it locks: the tag, its content, the plan and the code.
struct LockReport: Encodable {
    /// What the tag holds.
    enum Content {
        case message(NFCNDEFMessage, size: Int)
        case empty
        case unreadable(String)
    }

    var uid: String
    /// The UID as JSON gives it (``UIDText``).
    var uidJSON: String
    var chip: String?
    var content: Content
    var code: String
    var plan: PlanReport
    var isDryRun = false
    var isLocked = false

    /// What one write of the plan is: `page write` or `UPDATE BINARY`.
    var writeUnit = "page write"

    init(tag: any NFCNDEFTag, confirmation: NFCLockConfirmation, message: Content) {
        uid = tag.targetInfo.uidDescription
        uidJSON = tag.targetInfo.uidJSON
        chip = tag.chipName
        writeUnit = tag.writeCommandName
        content = message
        code = confirmation.code
        plan = PlanReport(confirmation.plan)
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, code, message, messageLength, problem, plan, dryRun, locked
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uidJSON, forKey: .uid)
        try container.encode(chip.map(ChipJSON.init), forKey: .chip)
        try container.encode(code, forKey: .code)
        switch content {
        case .message(let message, let size):
            try container.encode(message, forKey: .message)
            try container.encode(size, forKey: .messageLength)
        case .empty:
            try container.encode(NFCNDEFMessage(records: []), forKey: .message)
            try container.encode(0, forKey: .messageLength)
        case .unreadable(let reason):
            try container.encodeNil(forKey: .message)
            try container.encode(reason, forKey: .problem)
        }
        try container.encode(plan.steps, forKey: .plan)
        try container.encode(isDryRun, forKey: .dryRun)
        try container.encode(isLocked, forKey: .locked)
    }

    /// The tag, its message, the plan and the code, as text.
    var lines: [String] {
        var lines = ["Tag \(uid)" + (chip.map { " (\($0))" } ?? "")]
        switch content {
        case .message(let message, let size):
            lines += MessageDescription(message: message, size: size).text.split(separator: "\n").map(String.init)
        case .empty:
            lines.append("NDEF message: empty (the tag holds an empty NDEF message)")
        case .unreadable(let reason):
            lines.append("NDEF message: not readable: \(reason)")
        }
        lines.append("Lock plan: \(PlanReport.count(plan.steps.count, writeUnit)), irreversible:")
        lines += plan.lines
        lines.append("Lock code: \(code)")
        return lines
    }
}
