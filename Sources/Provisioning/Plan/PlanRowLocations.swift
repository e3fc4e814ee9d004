/// Where each row of a plan file starts: its byte offset and line, in two arrays of 32-bit
/// numbers (a plan file is at most ``ProvisioningPlan/maximumFileBytes``), eight bytes a row.
///
/// A plan keeps its file's bytes and these, never a dictionary of strings per row: a row's
/// values are parsed again from its offset when it is asked for. A million rows of eight
/// 30-character values (a 248 MB CSV file) then take the file's size and 8 MB, where values
/// kept as strings took twelve times the file.
struct PlanRowLocations: Sendable {
    /// Where one row starts.
    struct Location: Sendable, Hashable {
        /// The byte offset of the row's first byte in the plan file.
        var offset: Int
        /// The 1-based line it starts on.
        var line: Int
    }

    private var offsets: [UInt32] = []
    private var lines: [UInt32] = []

    /// The number of rows.
    var count: Int { offsets.count }

    /// Adds the next row's location.
    mutating func append(_ location: Location) {
        offsets.append(UInt32(truncatingIfNeeded: location.offset))
        lines.append(UInt32(truncatingIfNeeded: location.line))
    }

    /// The location of row `number` (1-based), or nil when out of range.
    func location(ofRow number: Int) -> Location? {
        guard number >= 1 && number <= offsets.count else { return nil }
        return Location(offset: Int(offsets[number - 1]), line: Int(lines[number - 1]))
    }
}
