import JSONSupport

/// The final account of a job, one entry per row: which tag got it and how it ended. Built
/// from a journal's state, so it holds nothing the journal does not (never a secret).
public struct ProvisioningReport: Sendable, Hashable {
    /// One row's result.
    public struct Entry: Sendable, Hashable {
        /// The row number.
        public var row: Int
        /// The tag's UID in upper-case hex, or empty.
        public var uid: String
        /// `done`'s outcome (e.g. `written`), else the stage: `failed`, `pending`, or the step an
        /// unfinished row reached (`writing`, `written`, `locked`, `password`).
        public var outcome: String
        /// The time of the row's last event, or empty.
        public var time: String
        /// Why the row failed, or empty.
        public var reason: String
        /// Plan values asked for, in the order of ``ProvisioningReport/fields``.
        public var values: [String]
        /// The station that finished the row, or holds it, or last held it; empty when unknown.
        public var station: String

        /// An entry from its parts.
        public init(
            row: Int, uid: String, outcome: String, time: String, reason: String, values: [String] = [],
            station: String = ""
        ) {
            self.row = row
            self.uid = uid
            self.outcome = outcome
            self.time = time
            self.reason = reason
            self.values = values
            self.station = station
        }
    }

    /// The plan fields included in each entry.
    public var fields: [String]
    /// The entries in row order.
    public var entries: [Entry]
    /// Whether the report names each row's station (a job of many stations: a database's).
    public var includesStations: Bool = false

    /// A report of `entries` (in row order) with the plan `fields` their values give; with
    /// `includesStations`, the CSV and JSON name each row's station.
    public init(entries: [Entry], fields: [String] = [], includesStations: Bool = false) {
        self.entries = entries
        self.fields = fields
        self.includesStations = includesStations
    }

    /// The report of `state`; with `plan`, each entry also holds the values of `fields`.
    public init(state: ProvisioningState, plan: ProvisioningPlan? = nil, fields: [String] = []) {
        let fields = plan == nil ? [] : fields
        self.fields = fields
        var entries: [Entry] = []
        let count = state.rowCount
        entries.reserveCapacity(count)
        for number in 0..<count {
            let status = state.status(of: number + 1)
            let outcome: String =
                switch status.stage {
                case .done: status.outcome ?? "done"
                case .claimed: "pending"
                default: status.stage.rawValue
                }
            let row = plan?.row(number + 1)
            entries.append(
                Entry(
                    row: number + 1, uid: status.uid.map { hexString($0) } ?? "", outcome: outcome,
                    time: status.time ?? "", reason: status.reason ?? "", values: fields.map { row?.values[$0] ?? "" }
                ))
        }
        self.entries = entries
    }

    /// The number of entries whose outcome is each value.
    public var tally: [String: Int] { entries.reduce(into: [:]) { $0[$1.outcome, default: 0] += 1 } }

    /// The report as CSV (RFC 4180, CRLF line ends): `row,uid,outcome,time,reason` (with
    /// ``includesStations``, `station` before `reason`) then the plan fields asked for; cells that
    /// would start a spreadsheet formula are written `"'..."` (see `csvField`).
    public var csv: String {
        let station = includesStations ? ["station"] : []
        var lines = [
            (["row", "uid", "outcome", "time"] + station + ["reason"] + fields).map(Self.csvField).joined(
                separator: ",")
        ]
        for entry in entries {
            let cells =
                [String(entry.row), entry.uid, entry.outcome, entry.time] + (includesStations ? [entry.station] : [])
                + [entry.reason] + entry.values
            lines.append(cells.map(Self.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// The report as JSON: `{"rows":[{"row":1,"uid":"...","outcome":"...","time":"...",
    /// "reason":"...","values":{...}}],"tags":{"UID":row,...},"tally":{"outcome":count,...}}`;
    /// with ``includesStations`` each row also has `"station"`.
    public var json: String {
        let rows = entries.map { entry in
            var members: [(String, String)] = [
                ("row", String(entry.row)), ("uid", JSONText.quoted(entry.uid)),
                ("outcome", JSONText.quoted(entry.outcome)), ("time", JSONText.quoted(entry.time)),
            ]
            if includesStations { members.append(("station", JSONText.quoted(entry.station))) }
            if !entry.reason.isEmpty { members.append(("reason", JSONText.quoted(entry.reason))) }
            if !fields.isEmpty {
                members.append(("values", JSONText.object(zip(fields, entry.values).map { ($0, JSONText.quoted($1)) })))
            }
            return JSONText.object(members)
        }
        let tags = entries.filter { !$0.uid.isEmpty }.map { ($0.uid, String($0.row)) }
        let tally = self.tally.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) }
        return JSONText.object([
            ("rows", "[" + rows.joined(separator: ",") + "]"), ("tags", JSONText.object(tags)),
            ("tally", JSONText.object(tally)),
        ])
    }

    /// `text` as a CSV field, quoted when it holds a comma, quote or line break (RFC 4180, 2).
    ///
    /// A cell that a spreadsheet would take for a formula (it begins with `=`, `+`, `-`, `@`, a
    /// tab or a carriage return: plan values come from outside) gets a `'` in front and is
    /// quoted, as OWASP's "CSV Injection" page recommends, so opening the report runs nothing.
    /// The JSON report keeps every value as it is.
    static func csvField(_ text: String) -> String {
        let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]
        let neutralized = text.first.map { formulaStarts.contains($0) } ?? false
        let cell = neutralized ? "'" + text : text
        guard
            neutralized || cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        else {
            return cell
        }
        var out = "\""
        for character in cell {
            if character == "\"" { out.append("\"") }
            out.append(character)
        }
        return out + "\""
    }
}
