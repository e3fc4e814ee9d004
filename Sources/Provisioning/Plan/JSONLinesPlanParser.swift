import JSONSupport

/// Reads a JSON Lines plan (jsonlines.org): each non-empty line is one flat JSON object
/// (RFC 8259) whose values are strings or numbers; numbers are kept as written.
enum JSONLinesPlanParser {
    static func parse(_ input: [UInt8]) throws(ProvisioningError) -> (fields: [String], rows: [ProvisioningRow]) {
        var bytes = input[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        var fields: [String]?
        var rows: [ProvisioningRow] = []
        var lineNumber = 0
        while !bytes.isEmpty {
            lineNumber += 1
            let end = bytes.firstIndex(of: 0x0A) ?? bytes.endIndex
            var content = bytes[bytes.startIndex..<end]
            bytes = end < bytes.endIndex ? bytes[(end + 1)...] : bytes[end...]
            if content.last == 0x0D { content = content.dropLast() }
            if content.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard content.count <= ProvisioningPlan.maximumFieldBytes * 4 + 1024 else {
                throw ProvisioningError(.limitExceeded, line: lineNumber, "the line is too long")
            }
            guard rows.count < ProvisioningPlan.maximumRowCount else {
                throw ProvisioningError(
                    .limitExceeded, line: lineNumber, "more than \(ProvisioningPlan.maximumRowCount) rows")
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
                    throw ProvisioningError(
                        .invalidFieldName, line: lineNumber, "member '\(member.key)' appears twice")
                }
                let text: String
                switch member.value {
                case .string(let string): text = string
                case .number(let number): text = number
                default:
                    throw ProvisioningError(
                        .malformedPlan, line: lineNumber,
                        "member '\(member.key)' must be a string or a number")
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
            rows.append(ProvisioningRow(number: rows.count + 1, line: lineNumber, values: values))
        }
        guard let fields, !rows.isEmpty else { throw ProvisioningError(.emptyPlan, "the JSON Lines plan is empty") }
        return (fields, rows)
    }
}
