/// A plan made of consecutive counter values: row `n` has `counter` = `from + n - 1`,
/// zero-padded to `width` digits.
struct CounterRange: Sendable, Hashable {
    /// The field a counter range provides.
    static let fieldName = "counter"
    /// The widest zero padding accepted.
    static let maximumWidth = 32

    let from: Int
    let to: Int
    let width: Int

    init(from: Int, to: Int, width: Int) throws(ProvisioningError) {
        guard from >= 0 else { throw ProvisioningError(.invalidRange, "the counter range starts below 0") }
        guard from <= to else {
            throw ProvisioningError(.invalidRange, "the counter range \(from)...\(to) is reversed")
        }
        guard width >= 0 && width <= Self.maximumWidth else {
            throw ProvisioningError(.invalidRange, "the padding width must be 0 to \(Self.maximumWidth)")
        }
        let (span, overflow) = to.subtractingReportingOverflow(from)
        guard !overflow && span < ProvisioningPlan.maximumRowCount else {
            throw ProvisioningError(.limitExceeded, "more than \(ProvisioningPlan.maximumRowCount) rows")
        }
        self.from = from
        self.to = to
        self.width = width
    }

    /// Parses `FROM...TO`, `FROM-TO`, either with an optional `/WIDTH`.
    init(parsing text: String) throws(ProvisioningError) {
        var body = Substring(text)
        var width = 0
        if let slash = body.firstIndex(of: "/") {
            guard let parsed = Int(body[body.index(after: slash)...]) else {
                throw ProvisioningError(.invalidRange, "the padding width after '/' is not a number")
            }
            width = parsed
            body = body[..<slash]
        }
        let parts: [Substring]
        if let dots = body.firstRange(of: "...") {
            parts = [body[..<dots.lowerBound], body[dots.upperBound...]]
        } else {
            parts = body.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        }
        guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]) else {
            throw ProvisioningError(.invalidRange, "a counter range is written FROM...TO[/WIDTH], e.g. 1...500/4")
        }
        try self.init(from: from, to: to, width: width)
    }

    var count: Int { to - from + 1 }

    var canonicalText: String { "counter:\(from)...\(to)/\(width)" }

    func row(_ number: Int) -> ProvisioningRow {
        let digits = String(from + number - 1)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return ProvisioningRow(number: number, line: number, values: [Self.fieldName: padded])
    }
}
