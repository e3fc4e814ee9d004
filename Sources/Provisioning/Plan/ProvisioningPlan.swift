/// One row of a plan: its number, where it starts in the file, and its values by field name.
public struct ProvisioningRow: Sendable, Hashable {
    /// The 1-based row number: the first data row is 1 (a CSV header is not a row).
    public var number: Int
    /// The 1-based line of the file where the row starts (a CSV row may span lines); for a
    /// counter range, the row number.
    public var line: Int
    /// The values by field name.
    public var values: [String: String]

    /// A row numbered `number` starting at `line`.
    public init(number: Int, line: Int, values: [String: String]) {
        self.number = number
        self.line = line
        self.values = values
    }
}

/// What a batch provisions: a numbered list of rows, each a set of named field values, read
/// from CSV (RFC 4180 with a header row), JSON Lines (one flat object per line), or made
/// from a counter range.
///
/// Limits: at most ``maximumRowCount`` rows, ``maximumFieldCount`` fields and
/// ``maximumFieldBytes`` bytes of UTF-8 per value; a plan file larger than ``maximumFileBytes``
/// is refused. Field names are `[A-Za-z0-9_.-]+`; `uid` and `row` are reserved for the
/// template's built-in placeholders.
public struct ProvisioningPlan: Sendable {
    /// The most rows a plan may hold.
    public static let maximumRowCount = 1_000_000
    /// The most fields a row may have.
    public static let maximumFieldCount = 256
    /// The most UTF-8 bytes a single value may have.
    public static let maximumFieldBytes = 8192
    /// The largest plan file accepted, in bytes.
    public static let maximumFileBytes = 256 * 1024 * 1024
    /// Field names a plan may not use: the template provides them for every row.
    public static let reservedFieldNames: Set<String> = ["uid", "row"]

    /// Where the rows come from.
    enum Source: Sendable {
        /// A CSV file's bytes and where its rows start.
        case csv([UInt8], PlanRowLocations)
        /// A JSON Lines file's bytes and where its rows start.
        case jsonLines([UInt8], PlanRowLocations)
        case counter(CounterRange)
    }

    /// The field names in the file's order.
    public let fields: [String]
    /// The SHA-256 (FIPS 180-4) of the plan file's bytes, or of the counter range's canonical
    /// text (`counter:FROM...TO/WIDTH`): the job's identity in its journal.
    public let digest: [UInt8]
    let source: Source

    init(fields: [String], digest: [UInt8], source: Source) {
        self.fields = fields
        self.digest = digest
        self.source = source
    }

    /// The number of rows.
    public var count: Int {
        switch source {
        case .csv(_, let rows), .jsonLines(_, let rows): rows.count
        case .counter(let range): range.count
        }
    }

    /// The row numbered `number` (1-based), or nil when out of range. A file's row is parsed
    /// again from where it starts (the plan keeps no strings per row).
    public func row(_ number: Int) -> ProvisioningRow? {
        guard number >= 1 && number <= count else { return nil }
        switch source {
        case .csv(let bytes, let rows):
            guard let location = rows.location(ofRow: number) else { return nil }
            var parser = CSVPlanParser(bytes: bytes, at: location)
            return parser.row(number, fields: fields)
        case .jsonLines(let bytes, let rows):
            guard let location = rows.location(ofRow: number) else { return nil }
            return JSONLinesPlanParser.row(number, in: bytes, at: location)
        case .counter(let range): return range.row(number)
        }
    }

    /// Every row number, in order.
    public var rowNumbers: ClosedRange<Int>? { count > 0 ? 1...count : nil }

    /// Parses a CSV plan (RFC 4180): the first record names the fields; quoted fields may hold
    /// commas, doubled quotes and line breaks; CRLF or LF line ends; a UTF-8 byte order mark
    /// is skipped; empty lines are skipped.
    public static func csv(_ bytes: [UInt8]) throws(ProvisioningError) -> ProvisioningPlan {
        try checkSize(bytes)
        var parser = CSVPlanParser(bytes: bytes)
        let (fields, rows) = try parser.parse()
        return ProvisioningPlan(
            fields: fields, digest: try ProvisioningDigest.sha256(bytes), source: .csv(bytes, rows))
    }

    /// Parses a JSON Lines plan: one flat JSON object per line whose values are strings or
    /// numbers (kept as written); every object has the same members, which are the fields in
    /// the first object's order. Empty lines are skipped.
    public static func jsonLines(_ bytes: [UInt8]) throws(ProvisioningError) -> ProvisioningPlan {
        try checkSize(bytes)
        let (fields, rows) = try JSONLinesPlanParser.parse(bytes)
        return ProvisioningPlan(
            fields: fields, digest: try ProvisioningDigest.sha256(bytes), source: .jsonLines(bytes, rows))
    }

    /// A plan of the counter values `from...to`, one row each, in the field `counter`,
    /// zero-padded to `width` digits (0 for none).
    public static func counter(from: Int, to: Int, width: Int = 0) throws(ProvisioningError) -> ProvisioningPlan {
        let range = try CounterRange(from: from, to: to, width: width)
        let digest = try ProvisioningDigest.sha256(Array(range.canonicalText.utf8))
        return ProvisioningPlan(fields: [CounterRange.fieldName], digest: digest, source: .counter(range))
    }

    /// Parses a counter range written `FROM...TO` or `FROM...TO/WIDTH` (also `FROM-TO`).
    public static func counter(parsing text: String) throws(ProvisioningError) -> ProvisioningPlan {
        let range = try CounterRange(parsing: text)
        return try counter(from: range.from, to: range.to, width: range.width)
    }

    private static func checkSize(_ bytes: [UInt8]) throws(ProvisioningError) {
        guard bytes.count <= maximumFileBytes else {
            throw ProvisioningError(.limitExceeded, "the plan is larger than \(maximumFileBytes) bytes")
        }
    }

    /// Checks a field name from a header or JSON object.
    static func checkFieldName(_ name: String, line: Int, column: Int) throws(ProvisioningError) {
        guard !name.isEmpty else {
            throw ProvisioningError(.invalidFieldName, line: line, column: column, "empty field name")
        }
        let allowed = name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default: false
            }
        }
        guard allowed else {
            throw ProvisioningError(
                .invalidFieldName, line: line, column: column,
                "field name '\(printable(name))' may hold only letters, digits, '_', '.' and '-'")
        }
        guard !reservedFieldNames.contains(name) else {
            throw ProvisioningError(
                .invalidFieldName, line: line, column: column,
                "field name '\(name)' is reserved (the template provides {uid} and {row})")
        }
    }
}

/// `text` shortened and with control characters shown as `?`, for error messages.
func printable(_ text: String, limit: Int = 40) -> String {
    var out = ""
    for scalar in text.unicodeScalars.prefix(limit) {
        out.unicodeScalars.append(scalar.value < 0x20 || scalar.value == 0x7F ? "?" : scalar)
    }
    return text.unicodeScalars.count > limit ? out + "..." : out
}
