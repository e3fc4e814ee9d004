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

            Examples:
              ndeftool lock --dry-run --reader 'sim:ntag215?file=tag.nfc'
              ndeftool lock --confirm 123-456 --reader 'sim:ntag215?file=tag.nfc'
              ndeftool lock --dry-run --json
            """,
        options: [LockFlow.confirm, dryRun, json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let code = try LockFlow.code(values)
        if code != nil && values.flag(dryRun.long) {
            throw .usage("--dry-run writes nothing; leave out --confirm")
        }
        let connection = try TagConnection(invocation)
        let again = LockFlow.lockCommand(invocation.arguments, code: nil)
        return try await connection.run("locking the tag", resume: again) { tag in
            let message = try await messageSummary(tag)
            let confirmation = try await tag.prepareLock()
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
            try await LockFlow.lock(
                tag, confirmation: confirmation, code: code, console: connection.console, again: lockLine)
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
    static func messageSummary(_ tag: NFCMiFareTag) async throws -> LockReport.Content {
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

/// What `ndeftool lock` shows before it locks: the tag, its content, the plan and the code.
struct LockReport: Encodable {
    /// What the tag holds.
    enum Content {
        case message(NFCNDEFMessage, size: Int)
        case empty
        case unreadable(String)
    }

    var uid: String
    var chip: String?
    var content: Content
    var code: String
    var plan: PlanReport
    var isDryRun = false
    var isLocked = false

    init(tag: NFCMiFareTag, confirmation: NFCLockConfirmation, message: Content) {
        uid = tag.targetInfo.uidDescription
        chip = tag.chip?.name
        content = message
        code = confirmation.code
        plan = PlanReport(confirmation.plan)
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, code, message, messageLength, problem, plan, dryRun, locked
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(chip, forKey: .chip)
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
        lines.append("Lock plan: \(MessageDescription.count(plan.steps.count, "page write")), irreversible:")
        lines += plan.lines
        lines.append("Lock code: \(code)")
        return lines
    }
}
