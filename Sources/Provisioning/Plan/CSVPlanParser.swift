/// Reads CSV as RFC 4180 section 2 defines it, over bytes, tracking line and byte column so
/// every error names where it happened. Accepts LF as well as CRLF line ends, skips a UTF-8
/// byte order mark and empty lines; refuses a quote inside an unquoted field, text after a
/// closing quote, a bare carriage return, an unterminated quoted field and invalid UTF-8.
struct CSVPlanParser {
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    /// A parser at the start of a record found before (`location`).
    init(bytes: [UInt8], at location: PlanRowLocations.Location) {
        self.bytes = bytes
        index = location.offset
        lineStart = location.offset
        line = location.line
    }

    private var column: Int { index - lineStart + 1 }

    private func failure(_ reason: String) -> ProvisioningError {
        ProvisioningError(.malformedPlan, line: line, column: column, reason)
    }

    private func failure(_ code: ProvisioningError.Code, _ reason: String) -> ProvisioningError {
        ProvisioningError(code, line: line, column: column, reason)
    }

    /// The field names and where each row starts: every record is checked (field count, quoting,
    /// UTF-8, lengths) and none is kept, so a plan costs its bytes and eight bytes a row.
    mutating func parse() throws(ProvisioningError) -> (fields: [String], rows: PlanRowLocations) {
        guard let header = try record() else { throw ProvisioningError(.emptyPlan, "the CSV plan is empty") }
        var fields: [String] = []
        for (position, name) in header.fields.enumerated() {
            try ProvisioningPlan.checkFieldName(name.text, line: header.line, column: name.column)
            guard !fields.contains(name.text) else {
                throw ProvisioningError(
                    .invalidFieldName, line: header.line, column: name.column,
                    "field '\(name.text)' is named twice in the header (field \(position + 1))")
            }
            fields.append(name.text)
        }
        guard fields.count <= ProvisioningPlan.maximumFieldCount else {
            throw ProvisioningError(
                .limitExceeded, line: header.line, "more than \(ProvisioningPlan.maximumFieldCount) fields")
        }
        var rows = PlanRowLocations()
        while true {
            while index < bytes.count, try lineEnd() {}
            let start = PlanRowLocations.Location(offset: index, line: line)
            guard let next = try record() else { break }
            guard next.fields.count == fields.count else {
                throw ProvisioningError(
                    .fieldCountMismatch, line: next.line,
                    "row \(rows.count + 1) has \(next.fields.count) fields; the header names \(fields.count)")
            }
            guard rows.count < ProvisioningPlan.maximumRowCount else {
                throw ProvisioningError(
                    .limitExceeded, line: next.line, "more than \(ProvisioningPlan.maximumRowCount) rows")
            }
            rows.append(start)
        }
        guard rows.count > 0 else { throw ProvisioningError(.emptyPlan, line: header.line, "the plan has no rows") }
        return (fields, rows)
    }

    /// The row numbered `number` whose record starts at `location` (found by ``parse()``, so
    /// it parses again without error; nil if it does not).
    mutating func row(_ number: Int, fields: [String]) -> ProvisioningRow? {
        guard let record = try? record(), record.fields.count == fields.count else { return nil }
        var values: [String: String] = [:]
        for (name, field) in zip(fields, record.fields) { values[name] = field.text }
        return ProvisioningRow(number: number, line: record.line, values: values)
    }

    private struct Field {
        var text: String
        var column: Int
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Consumes a line end (LF or CRLF) at the current position, if there is one.
    private mutating func lineEnd() throws(ProvisioningError) -> Bool {
        if current == 0x0A {
            index += 1
        } else if current == 0x0D {
            guard index + 1 < bytes.count, bytes[index + 1] == 0x0A else {
                throw failure("carriage return not followed by a line feed")
            }
            index += 2
        } else {
            return false
        }
        line += 1
        lineStart = index
        return true
    }

    /// The next non-empty record, or nil at the end of the input.
    private mutating func record() throws(ProvisioningError) -> (line: Int, fields: [Field])? {
        while index < bytes.count, try lineEnd() {}
        guard index < bytes.count else { return nil }
        let startLine = line
        var fields: [Field] = []
        while true {
            guard fields.count < ProvisioningPlan.maximumFieldCount + 1 else {
                throw failure(.limitExceeded, "more than \(ProvisioningPlan.maximumFieldCount) fields")
            }
            fields.append(try field())
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if index >= bytes.count { return (startLine, fields) }
            if try lineEnd() { return (startLine, fields) }
            throw failure("unexpected character after a field")
        }
    }

    private mutating func field() throws(ProvisioningError) -> Field {
        let startColumn = column
        var raw: [UInt8] = []
        if current == UInt8(ascii: "\"") {
            let openLine = line
            index += 1
            while true {
                guard let byte = current else {
                    throw ProvisioningError(
                        .malformedPlan, line: openLine, column: startColumn, "quoted field is never closed")
                }
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\"") {
                        raw.append(byte)
                        index += 2
                        continue
                    }
                    index += 1
                    break
                }
                raw.append(byte)
                index += 1
                if byte == 0x0A {
                    line += 1
                    lineStart = index
                }
                try checkLength(raw)
            }
            if let byte = current, byte != UInt8(ascii: ","), byte != 0x0A, byte != 0x0D {
                throw failure("text after a closing quote (a quote inside a field is written \"\")")
            }
        } else {
            while let byte = current, byte != UInt8(ascii: ","), byte != 0x0A, byte != 0x0D {
                guard byte != UInt8(ascii: "\"") else {
                    throw failure("quote inside an unquoted field (quote the whole field and double the quote)")
                }
                raw.append(byte)
                index += 1
                try checkLength(raw)
            }
        }
        guard let text = String(validating: raw, as: UTF8.self) else {
            throw ProvisioningError(.invalidUTF8, line: line, column: startColumn, "the field is not valid UTF-8")
        }
        return Field(text: text, column: startColumn)
    }

    private func checkLength(_ raw: [UInt8]) throws(ProvisioningError) {
        guard raw.count <= ProvisioningPlan.maximumFieldBytes else {
            throw failure(.limitExceeded, "a field is longer than \(ProvisioningPlan.maximumFieldBytes) bytes")
        }
    }
}
