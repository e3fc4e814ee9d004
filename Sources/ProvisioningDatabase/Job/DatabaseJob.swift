import HexText
import JSONSupport
import NDEF
import NFCCrypto
import Provisioning

/// A batch job as its database holds it: its name, what it is (the plan's digest and size, the
/// template, the options: a ``Provisioning/JournalHeader``, as the file journal's first line),
/// and how long a station's claim on a row lasts.
public struct DatabaseJob: Sendable, Hashable {
    /// The job's number in the database.
    public let id: Int64
    /// The job's name, unique in the database.
    public let name: String
    /// What the job is: plan digest and rows, template, options, when it was created, where the
    /// plan came from.
    public let header: JournalHeader
    /// The plan's field names, in order.
    public let fields: [String]
    /// How long a station's claim on a row lasts without being renewed, in seconds.
    public let leaseSeconds: Int
    /// The SHA-256 of the job's lock confirmation code, when the job locks tags.
    public let lockCodeDigest: [UInt8]?

    /// The shortest and longest lease a job may have, in seconds.
    public static let leaseRange = 1...86_400
    /// The lease of a job created without one: long enough for any tag's steps and a server
    /// restart, short enough that a row claimed by a station that died returns to the pool soon.
    public static let defaultLeaseSeconds = 60

    /// Whether `code` is the job's lock confirmation code.
    public func confirms(lockCode code: String) -> Bool {
        guard let lockCodeDigest, let digest = try? SHA256.hash(Array(code.utf8)) else { return false }
        return digest == lockCodeDigest
    }

    /// What differs between the job recorded (`self`) and the job `header` describes, one phrase
    /// each; empty when they are the same job.
    public func differences(from header: JournalHeader) -> [String] {
        var differences: [String] = []
        let recorded = self.header
        if recorded.planDigest != header.planDigest || recorded.planRowCount != header.planRowCount {
            differences.append(
                "the plan differs (the job's has \(recorded.planRowCount) rows, SHA-256 "
                    + "\(Hex.encode(recorded.planDigest).prefix(16))...; the one given has "
                    + "\(header.planRowCount) rows, \(Hex.encode(header.planDigest).prefix(16))...)")
        }
        if recorded.template != header.template {
            differences.append("the template differs (the job's: \(recorded.template))")
        }
        for key in Set(recorded.options.keys).union(header.options.keys).sorted()
        where recorded.options[key] != header.options[key] {
            differences.append(
                "\(key) is \(recorded.options[key] ?? "unset") in the job, \(header.options[key] ?? "unset") here")
        }
        return differences
    }

    /// The job of a row of `ndeftool_jobs`.
    init(_ row: DatabaseRows.Row) throws(DatabaseError) {
        guard let id = row.int("id"), let name = row.text("name"), let digest = row.bytes("plan_sha256"),
            let rows = row.int("plan_rows"), let template = row.text("template"),
            let lease = row.int("lease_seconds"), let fieldsText = row.text("plan_fields"),
            let optionsText = row.text("options")
        else {
            throw DatabaseError(.unexpectedData, "a job of the database lacks one of its columns")
        }
        let fields = try Self.parse(fieldsText, "plan_fields")
        let options = try Self.parse(optionsText, "options")
        guard case .array(let fieldValues) = fields, case .object(let members) = options else {
            throw DatabaseError(.unexpectedData, "job \(name): plan_fields or options has the wrong shape")
        }
        var optionValues: [String: String] = [:]
        for member in members {
            guard let value = member.value.string else {
                throw DatabaseError(.unexpectedData, "job \(name): option \(member.key) is not a string")
            }
            optionValues[member.key] = value
        }
        var header = JournalHeader(
            planDigest: digest, planRowCount: rows, template: template, options: optionValues,
            time: row.text("created") ?? "")
        header.planSource = row.text("plan_source")
        self.id = Int64(id)
        self.name = name
        self.header = header
        self.fields = fieldValues.compactMap(\.string)
        self.leaseSeconds = lease
        self.lockCodeDigest = row.bytes("lock_code_sha256")
    }

    /// The columns ``init(_:)`` reads, for a SELECT.
    static let columns = """
        id, name, plan_sha256, plan_rows, plan_fields::text AS plan_fields, plan_source, template,
        options::text AS options, lock_code_sha256, lease_seconds,
        to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created
        """

    /// `text`, JSON the server wrote, parsed.
    static func parse(_ text: String, _ column: String) throws(DatabaseError) -> JSONValue {
        do {
            return try JSONValue.parse(Array(text.utf8), options: jsonOptions)
        } catch {
            throw DatabaseError(.unexpectedData, "\(column) is not JSON: \(error.reason)")
        }
    }
}

/// The JSON the server writes (jsonb's text): strict, shallow.
let jsonOptions = JSONParseOptions(
    maximumDepth: 8, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true)
