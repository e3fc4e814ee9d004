import HexText
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

    /// Where the entries come from: given, or made one at a time from a journal's state and
    /// the plan (a million-row report is then never in memory as a whole).
    private enum Source: Sendable {
        case entries([Entry])
        case journal(ProvisioningState, ProvisioningPlan?)
    }

    /// The plan fields included in each entry.
    public var fields: [String]
    private var source: Source
    /// Whether the report names each row's station (a job of many stations: a database's).
    public var includesStations: Bool = false

    /// A report of `entries` (in row order) with the plan `fields` their values give; with
    /// `includesStations`, the CSV and JSON name each row's station.
    public init(entries: [Entry], fields: [String] = [], includesStations: Bool = false) {
        self.source = .entries(entries)
        self.fields = fields
        self.includesStations = includesStations
    }

    /// The report of `state`; with `plan`, each entry also holds the values of `fields`. The
    /// entries are made when they are read (``entry(at:)``, ``writeCSV(_:)``,
    /// ``writeJSON(_:)``), not kept.
    public init(state: ProvisioningState, plan: ProvisioningPlan? = nil, fields: [String] = []) {
        self.fields = plan == nil ? [] : fields
        self.source = .journal(state, plan)
    }

    /// The number of entries: one per row.
    public var count: Int {
        switch source {
        case .entries(let entries): entries.count
        case .journal(let state, _): state.rowCount
        }
    }

    /// The entry at `index` (0-based: row `index + 1` of a journal's report).
    public func entry(at index: Int) -> Entry {
        switch source {
        case .entries(let entries): return entries[index]
        case .journal(let state, let plan):
            let number = index + 1
            let status = state.status(of: number)
            let outcome: String =
                switch status.stage {
                case .done: status.outcome ?? "done"
                case .claimed: "pending"
                default: status.stage.rawValue
                }
            let row = fields.isEmpty ? nil : plan?.row(number)
            return Entry(
                row: number, uid: status.uid.map { Hex.encode($0, uppercase: true) } ?? "", outcome: outcome,
                time: status.time ?? "",
                reason: status.reason ?? "", values: fields.map { row?.values[$0] ?? "" })
        }
    }

    /// The entries in row order (all of them made at once: ``writeCSV(_:)`` and
    /// ``writeJSON(_:)`` do not).
    public var entries: [Entry] {
        get {
            if case .entries(let entries) = source { return entries }
            return (0..<count).map(entry(at:))
        }
        set { source = .entries(newValue) }
    }

    /// The number of entries whose outcome is each value.
    public var tally: [String: Int] {
        var tally: [String: Int] = [:]
        for index in 0..<count { tally[entry(at: index).outcome, default: 0] += 1 }
        return tally
    }

    /// The report as CSV (RFC 4180, CRLF line ends): `row,uid,outcome,time,reason` (with
    /// ``includesStations``, `station` before `reason`) then the plan fields asked for; cells that
    /// would start a spreadsheet formula are written `"'..."` (see `csvField`).
    public var csv: String {
        var bytes: [UInt8] = []
        writeCSV { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The CSV report (``csv``) given to `write` a piece at a time (about 64 KiB each, whole
    /// lines), so that a large report is never in memory as a whole.
    public func writeCSV<Failure: Error>(_ write: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var buffer = ChunkBuffer()
        let station = includesStations ? ["station"] : []
        let header = (["row", "uid", "outcome", "time"] + station + ["reason"] + fields).map(Self.csvField)
        buffer.append(header.joined(separator: ",") + "\r\n")
        for index in 0..<count {
            let entry = entry(at: index)
            let cells =
                [String(entry.row), entry.uid, entry.outcome, entry.time] + (includesStations ? [entry.station] : [])
                + [entry.reason] + entry.values
            buffer.append(cells.map(Self.csvField).joined(separator: ",") + "\r\n")
            if buffer.isFull { try write(buffer.take()) }
        }
        try write(buffer.take())
    }

    /// The report as JSON: `{"rows":[{"row":1,"uid":"...","outcome":"...","time":"...",
    /// "reason":"...","values":{...}}],"tags":{"UID":row,...},"tally":{"outcome":count,...}}`;
    /// with ``includesStations`` each row also has `"station"`.
    public var json: String {
        var bytes: [UInt8] = []
        writeJSON { bytes += $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The JSON report (``json``) given to `write` a piece at a time, as ``writeCSV(_:)``.
    public func writeJSON<Failure: Error>(_ write: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        var buffer = ChunkBuffer()
        var tally: [String: Int] = [:]
        buffer.append("{\"rows\":[")
        for index in 0..<count {
            let entry = entry(at: index)
            tally[entry.outcome, default: 0] += 1
            var members: [(String, String)] = [
                ("row", String(entry.row)), ("uid", JSONText.quoted(entry.uid)),
                ("outcome", JSONText.quoted(entry.outcome)), ("time", JSONText.quoted(entry.time)),
            ]
            if includesStations { members.append(("station", JSONText.quoted(entry.station))) }
            if !entry.reason.isEmpty { members.append(("reason", JSONText.quoted(entry.reason))) }
            if !fields.isEmpty {
                members.append(("values", JSONText.object(zip(fields, entry.values).map { ($0, JSONText.quoted($1)) })))
            }
            buffer.append((index == 0 ? "" : ",") + JSONText.object(members))
            if buffer.isFull { try write(buffer.take()) }
        }
        buffer.append("],\"tags\":{")
        var first = true
        for index in 0..<count {
            let entry = entry(at: index)
            guard !entry.uid.isEmpty else { continue }
            buffer.append((first ? "" : ",") + JSONText.quoted(entry.uid) + ":" + String(entry.row))
            first = false
            if buffer.isFull { try write(buffer.take()) }
        }
        let counts = tally.sorted { $0.key < $1.key }.map { ($0.key, String($0.value)) }
        buffer.append("},\"tally\":" + JSONText.object(counts) + "}")
        try write(buffer.take())
    }

    /// Two reports are equal when they hold the same entries, fields and station column, however
    /// their entries are kept.
    public static func == (left: ProvisioningReport, right: ProvisioningReport) -> Bool {
        left.fields == right.fields && left.includesStations == right.includesStations && left.count == right.count
            && (0..<left.count).allSatisfy { left.entry(at: $0) == right.entry(at: $0) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields)
        hasher.combine(includesStations)
        for index in 0..<count { hasher.combine(entry(at: index)) }
    }

    /// Bytes gathered for one `write` of ``writeCSV(_:)`` or ``writeJSON(_:)``.
    private struct ChunkBuffer {
        private var bytes: [UInt8] = []

        var isFull: Bool { bytes.count >= 65_536 }

        mutating func append(_ text: String) { bytes += text.utf8 }

        /// The bytes gathered, and an empty buffer.
        mutating func take() -> [UInt8] {
            defer { bytes.removeAll(keepingCapacity: true) }
            return bytes
        }
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
