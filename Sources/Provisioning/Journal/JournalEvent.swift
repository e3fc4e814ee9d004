import HexText
import JSONSupport
import NDEF

/// The identity of a job, the first line of its journal: what is provisioned and how, never
/// a secret (a password mode is recorded as `derived`, never the master secret).
public struct JournalHeader: Sendable, Hashable {
    /// The journal format's name, in the header's `format` member.
    public static let format = "ndeftool-provisioning-journal"
    /// The journal format version this library writes and reads.
    public static let version = 1

    /// The SHA-256 of the plan (``ProvisioningPlan/digest``).
    public var planDigest: [UInt8]
    /// The number of rows in the plan.
    public var planRowCount: Int
    /// The template's canonical text (``MessageTemplate/text``).
    public var template: String
    /// Job options as names and values, e.g. `lock: "no"`, `password: "derived"`.
    public var options: [String: String]
    /// When the job was created (ISO 8601 UTC).
    public var time: String
    /// Where the plan came from, for a resume that names only the journal: a file path, or a
    /// counter range `counter:FROM-TO[:WIDTH]`. Not part of the job's identity (a plan file
    /// may move; its digest must not change).
    public var planSource: String?

    /// A header for `plan` provisioned with `template` and `options`.
    public init(
        plan: ProvisioningPlan, template: MessageTemplate, options: [String: String] = [:],
        time: String = JournalClock.now(), planSource: String? = nil
    ) {
        self.init(
            planDigest: plan.digest, planRowCount: plan.count, template: template.text, options: options, time: time)
        self.planSource = planSource
    }

    /// A header from its parts.
    public init(planDigest: [UInt8], planRowCount: Int, template: String, options: [String: String], time: String) {
        self.planDigest = planDigest
        self.planRowCount = planRowCount
        self.template = template
        self.options = options
        self.time = time
    }

    /// Whether `other` describes the same job (everything but the time).
    public func isSameJob(as other: JournalHeader) -> Bool {
        planDigest == other.planDigest && planRowCount == other.planRowCount && template == other.template
            && options == other.options
    }

    /// How every journal begins: the first members of its header line, in the order
    /// ``line`` writes them.
    static let magic = Array(#"{"event":"job","format":"\#(format)""#.utf8)

    /// The header's journal line, without its line feed.
    var line: String {
        let options = JSONText.object(
            self.options.sorted { $0.key < $1.key }.map { ($0.key, JSONText.quoted($0.value)) })
        return JSONText.object(
            [
                ("event", JSONText.quoted("job")), ("format", JSONText.quoted(Self.format)),
                ("version", String(Self.version)),
                ("plan_sha256", JSONText.quoted(Hex.encode(planDigest, uppercase: false))),
                ("plan_rows", String(planRowCount)), ("template", JSONText.quoted(template)), ("options", options),
                ("time", JSONText.quoted(time)),
            ] + (planSource.map { [("plan", JSONText.quoted($0))] } ?? []))
    }

    /// Reads a header line.
    init(parsing value: JSONValue, line: Int) throws(ProvisioningError) {
        func fail(_ reason: String) -> ProvisioningError { ProvisioningError(.corruptJournal, line: line, reason) }
        guard value["event"]?.string == "job", value["format"]?.string == Self.format else {
            throw fail("the first line is not a provisioning journal header")
        }
        guard value["version"]?.int == Self.version else { throw fail("unsupported journal version") }
        guard let digestText = value["plan_sha256"]?.string, let digest = Hex.decodeDigits(digestText),
            digest.count == 32,
            let rows = value["plan_rows"]?.int, rows >= 0, let template = value["template"]?.string,
            case .object(let members)? = value["options"], let time = value["time"]?.string
        else { throw fail("the header lacks a member or has one of the wrong type") }
        var options: [String: String] = [:]
        for member in members {
            guard let text = member.value.string else { throw fail("option '\(member.key)' is not a string") }
            options[member.key] = text
        }
        self.init(planDigest: digest, planRowCount: rows, template: template, options: options, time: time)
        if let source = value["plan"] {
            guard let text = source.string else { throw fail("the plan member is not a string") }
            planSource = text
        }
    }
}

/// One step of a job as its journal records it. Each is one JSON object on one line.
public enum JournalEvent: Sendable, Hashable {
    /// A reader took the row from the pool.
    case claimed(row: Int, reader: String, time: String)
    /// The row's message (whose SHA-256 is `digest`) is about to be written to the tag `uid`:
    /// from now on the row belongs to that tag and no other.
    case writing(row: Int, uid: [UInt8], digest: [UInt8], time: String)
    /// The message was written and read back equal.
    case written(row: Int, uid: [UInt8], time: String)
    /// The tag was made read-only.
    case locked(row: Int, uid: [UInt8], time: String)
    /// The tag's password was set.
    case password(row: Int, uid: [UInt8], time: String)
    /// The row is finished on the tag.
    case done(row: Int, uid: [UInt8], outcome: String, time: String)
    /// The attempt failed; `uid` when a tag was involved.
    case failed(row: Int, uid: [UInt8]?, reason: String, time: String)
    /// The reader gave the row back; a row already bound to a tag stays bound.
    case released(row: Int, time: String)
    /// The tag `uid` refused the row before anything was written to it (not NDEF formatted,
    /// read-only, too small, password-protected): the binding of its `writing` event is undone
    /// and the row returns to the pool.
    case refused(row: Int, uid: [UInt8], reason: String, time: String)
    /// A new run started over this journal: every claim of the previous run is given back.
    case resumed(time: String)
    /// The operator asked to try a row that failed for good again (`--retry-failed`): it
    /// failed before any tag was bound to it, and returns to the pool.
    case retried(row: Int, time: String)

    /// The event's name, its `event` member.
    public var name: String {
        switch self {
        case .claimed: "claimed"
        case .writing: "writing"
        case .written: "written"
        case .locked: "locked"
        case .password: "password"
        case .done: "done"
        case .failed: "failed"
        case .released: "released"
        case .refused: "refused"
        case .resumed: "resumed"
        case .retried: "retried"
        }
    }

    /// Whether the event must be on disk before the caller goes on (`fsync`): `writing` before the
    /// first write to the tag (write-ahead), `done` before the person is told to take the tag
    /// away, and the rare `failed`, `refused` and `resumed`. The others (`claimed`, `written`,
    /// `locked`, `password`, `released`, `retried`) become durable with the next synced event; a
    /// crash that loses them loses nothing a resume cannot find again on the tag (a lost `retried`
    /// leaves its row failed, as it was).
    public var needsSync: Bool {
        switch self {
        case .writing, .done, .failed, .refused, .resumed: true
        case .claimed, .written, .locked, .password, .released, .retried: false
        }
    }

    /// The row, for every event but `resumed`.
    public var row: Int? {
        switch self {
        case .claimed(let row, _, _), .writing(let row, _, _, _), .written(let row, _, _), .locked(let row, _, _),
            .password(let row, _, _), .done(let row, _, _, _), .failed(let row, _, _, _), .released(let row, _),
            .refused(let row, _, _, _), .retried(let row, _):
            row
        case .resumed: nil
        }
    }

    /// The event's journal line, without its line feed.
    var line: String {
        var members: [(String, String)] = [("event", JSONText.quoted(name))]
        if let row { members.append(("row", String(row))) }
        func uidMember(_ uid: [UInt8]) -> (String, String) {
            ("uid", JSONText.quoted(Hex.encode(uid, uppercase: true)))
        }
        let time: String
        switch self {
        case .claimed(_, let reader, let at):
            members.append(("reader", JSONText.quoted(reader)))
            time = at
        case .writing(_, let uid, let digest, let at):
            members += [uidMember(uid), ("digest", JSONText.quoted(Hex.encode(digest, uppercase: false)))]
            time = at
        case .written(_, let uid, let at), .locked(_, let uid, let at), .password(_, let uid, let at):
            members.append(uidMember(uid))
            time = at
        case .done(_, let uid, let outcome, let at):
            members += [uidMember(uid), ("outcome", JSONText.quoted(outcome))]
            time = at
        case .failed(_, let uid, let reason, let at):
            if let uid { members.append(uidMember(uid)) }
            members.append(("reason", JSONText.quoted(reason)))
            time = at
        case .refused(_, let uid, let reason, let at):
            members += [uidMember(uid), ("reason", JSONText.quoted(reason))]
            time = at
        case .released(_, let at), .resumed(let at), .retried(_, let at):
            time = at
        }
        members.append(("time", JSONText.quoted(time)))
        return JSONText.object(members)
    }

    /// Reads an event line.
    init(parsing value: JSONValue, line: Int) throws(ProvisioningError) {
        func fail(_ reason: String) -> ProvisioningError { ProvisioningError(.corruptJournal, line: line, reason) }
        guard let name = value["event"]?.string else { throw fail("the line has no event name") }
        guard let time = value["time"]?.string else { throw fail("\(name): no time") }
        if name == "resumed" {
            self = .resumed(time: time)
            return
        }
        guard let row = value["row"]?.int, row >= 1 else { throw fail("\(name): no valid row number") }
        func uid() throws(ProvisioningError) -> [UInt8] {
            guard let text = value["uid"]?.string, let uid = Hex.decodeDigits(text), !uid.isEmpty else {
                throw fail("\(name): no valid uid")
            }
            return uid
        }
        func text(_ key: String) throws(ProvisioningError) -> String {
            guard let text = value[key]?.string else { throw fail("\(name): no \(key)") }
            return text
        }
        switch name {
        case "claimed": self = .claimed(row: row, reader: try text("reader"), time: time)
        case "writing":
            guard let digest = Hex.decodeDigits(try text("digest")), digest.count == 32 else {
                throw fail("writing: the digest member is not 32 bytes of hex")
            }
            self = .writing(row: row, uid: try uid(), digest: digest, time: time)
        case "written": self = .written(row: row, uid: try uid(), time: time)
        case "locked": self = .locked(row: row, uid: try uid(), time: time)
        case "password": self = .password(row: row, uid: try uid(), time: time)
        case "done": self = .done(row: row, uid: try uid(), outcome: try text("outcome"), time: time)
        case "failed":
            let tag = value["uid"] == nil ? nil : try uid()
            self = .failed(row: row, uid: tag, reason: try text("reason"), time: time)
        case "released": self = .released(row: row, time: time)
        case "retried": self = .retried(row: row, time: time)
        case "refused": self = .refused(row: row, uid: try uid(), reason: try text("reason"), time: time)
        default: throw fail("unknown event '\(printable(name))'")
        }
    }
}
