/// The rows a statement returned, in PostgreSQL's text format: every value a string or NULL.
struct DatabaseRows: Sendable {
    /// The columns' names.
    let columns: [String]
    /// The values, row by row.
    let values: [[String?]]
    /// The rows an INSERT, UPDATE or DELETE changed (`PQcmdTuples`).
    let affectedRows: Int

    /// The number of rows.
    var count: Int { values.count }

    /// Whether there are none.
    var isEmpty: Bool { values.isEmpty }

    /// The row at `index`, or nil.
    subscript(_ index: Int) -> Row? {
        index >= 0 && index < values.count ? Row(columns: columns, values: values[index]) : nil
    }

    /// Every row.
    var rows: [Row] { values.map { Row(columns: columns, values: $0) } }

    /// The first row, or nil.
    var first: Row? { self[0] }

    /// One row: its values by column name, parsed from text.
    struct Row: Sendable {
        let columns: [String]
        let values: [String?]

        /// The text of `column`, nil when NULL or absent.
        func text(_ column: String) -> String? {
            guard let index = columns.firstIndex(of: column), index < values.count else { return nil }
            return values[index]
        }

        /// `column` as an integer.
        func int(_ column: String) -> Int? { text(column).flatMap { Int($0) } }

        /// `column` as a double (an `extract(epoch ...)` or a rate).
        func double(_ column: String) -> Double? { text(column).flatMap { Double($0) } }

        /// `column` as a boolean (`t` or `f`).
        func bool(_ column: String) -> Bool? {
            switch text(column) {
            case "t": true
            case "f": false
            default: nil
            }
        }

        /// `column`, a `bytea` in the hex output format (`\x0a1b...`), as bytes.
        func bytes(_ column: String) -> [UInt8]? { text(column).flatMap(DatabaseBytes.decode) }
    }
}

/// `bytea` values in PostgreSQL's hex format (PostgreSQL 15 documentation, 8.4.1).
enum DatabaseBytes {
    /// `\x` and two lower-case hex digits per byte: a parameter for a `bytea` column.
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        text.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of a `\x...` text; nil when it is not one.
    static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == UInt8(ascii: "\\"), utf8[1] == UInt8(ascii: "x"), utf8.count % 2 == 0 else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((utf8.count - 2) / 2)
        var index = 2
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
