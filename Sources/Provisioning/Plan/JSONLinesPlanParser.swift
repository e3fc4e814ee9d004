import JSONSupport

/// Reads a JSON Lines plan (jsonlines.org): each non-empty line is one flat JSON object
/// (RFC 8259) whose values are strings or numbers; numbers are kept as written.
enum JSONLinesPlanParser {
    /// The field names and where each row's line starts: every line is checked and none is
    /// kept (``PlanRowLocations``).
    static func parse(_ input: [UInt8]) throws(ProvisioningError) -> (fields: [String], rows: PlanRowLocations) {
        var offset = input.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var fields: [String]?
        var rows = PlanRowLocations()
        var lineNumber = 0
        while offset < input.count {
            lineNumber += 1
            let start = offset
            let end = input[start...].firstIndex(of: 0x0A) ?? input.endIndex
            offset = end < input.endIndex ? end + 1 : end
            let content = lineContent(input, from: start, to: end)
            if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard rows.count < ProvisioningPlan.maximumRowCount else {
                throw ProvisioningError(
                    .limitExceeded, line: lineNumber, "more than \(ProvisioningPlan.maximumRowCount) rows")
            }
            let (names, values) = try members(of: content, line: lineNumber)
            if let fields {
                if let missing = fields.first(where: { values[$0] == nil }) {
                    throw ProvisioningError(
                        .fieldCountMismatch, line: lineNumber, "member '\(missing)' is missing (the first row has it)")
                }
                if let extra = names.first(where: { !fields.contains($0) }) {
                    throw ProvisioningError(
                        .fieldCountMismatch, line: lineNumber, "member '\(extra)' is not in the first row")
                }
            } else {
                guard !names.isEmpty else {
                    throw ProvisioningError(.invalidFieldName, line: lineNumber, "the first object has no members")
                }
                fields = names
            }
            rows.append(PlanRowLocations.Location(offset: start, line: lineNumber))
        }
        guard let fields, rows.count > 0 else { throw ProvisioningError(.emptyPlan, "the JSON Lines plan is empty") }
        return (fields, rows)
    }

    /// The row numbered `number` whose line starts at `location` (found by ``parse(_:)``, so it
    /// parses again without error; nil if it does not).
    static func row(_ number: Int, in input: [UInt8], at location: PlanRowLocations.Location) -> ProvisioningRow? {
        guard location.offset < input.count else { return nil }
        let end = input[location.offset...].firstIndex(of: 0x0A) ?? input.endIndex
        guard
            let (_, values) = try? members(of: lineContent(input, from: location.offset, to: end), line: location.line)
        else { return nil }
        return ProvisioningRow(number: number, line: location.line, values: values)
    }

    /// The line from `start` to `end` (its line feed), without a final carriage return.
    private static func lineContent(_ input: [UInt8], from start: Int, to end: Int) -> ArraySlice<UInt8> {
        let content = input[start..<end]
        return content.last == 0x0D ? content.dropLast() : content
    }

    /// The members of the object on line `lineNumber`, in order, and its values by name.
    private static func members(
        of content: ArraySlice<UInt8>, line lineNumber: Int
    ) throws(ProvisioningError) -> (names: [String], values: [String: String]) {
        guard content.count <= ProvisioningPlan.maximumFieldBytes * 4 + 1024 else {
            throw ProvisioningError(.limitExceeded, line: lineNumber, "the line is too long")
        }
        let value = try JSONLine.parse(content, line: lineNumber, code: .malformedPlan)
        guard case .object(let members) = value else {
            throw ProvisioningError(.malformedPlan, line: lineNumber, column: 1, "each line must be a JSON object")
        }
        var values: [String: String] = [:]
        var names: [String] = []
        for member in members {
            try ProvisioningPlan.checkFieldName(member.key, line: lineNumber, column: 0)
            guard values[member.key] == nil else {
                throw ProvisioningError(.invalidFieldName, line: lineNumber, "member '\(member.key)' appears twice")
            }
            let text: String
            switch member.value {
            case .string(let string): text = string
            case .number(let number): text = number
            default:
                throw ProvisioningError(
                    .malformedPlan, line: lineNumber, "member '\(member.key)' must be a string or a number")
            }
            guard text.utf8.count <= ProvisioningPlan.maximumFieldBytes else {
                throw ProvisioningError(
                    .limitExceeded, line: lineNumber,
                    "member '\(member.key)' is longer than \(ProvisioningPlan.maximumFieldBytes) bytes")
            }
            values[member.key] = text
            names.append(member.key)
        }
        guard names.count <= ProvisioningPlan.maximumFieldCount else {
            throw ProvisioningError(
                .limitExceeded, line: lineNumber, "more than \(ProvisioningPlan.maximumFieldCount) fields")
        }
        return (names, values)
    }
}
