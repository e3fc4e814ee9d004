import JSONSupport

/// The result of replaying a journal.
public struct JournalRecovery: Sendable {
    /// The state, with the stopped run's claims given back.
    public var state: ProvisioningState
    /// The bytes of complete, valid lines: where the file is truncated on resume.
    public var validLength: Int
    /// The bytes of the torn last line ignored (0 if none).
    public var discardedBytes: Int
    /// The number of events replayed (header excluded).
    public var eventCount: Int
}

/// Reads a journal's lines and applies them.
enum JournalReplay {
    static func replay(_ bytes: [UInt8]) throws(ProvisioningError) -> JournalRecovery {
        var lines: [Range<Int>] = []
        var start = 0
        // A crash can leave the file longer than the data written, its end filled with zeros:
        // like a torn last line, that tail is cut away.
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0 { end -= 1 }
        // Every journal begins with its header, written in one go: what does not begin so (or
        // with the beginning of it) is another file, unless it holds nothing but zeros and line
        // feeds (blocks a crash left unwritten).
        let content = bytes[..<end]
        let magic = JournalHeader.magic
        let isBlank = content.allSatisfy { $0 == 0 || $0 == 0x0A }
        guard isBlank || content.starts(with: magic) || magic.starts(with: content) else {
            throw ProvisioningError(
                .notAJournal, line: 1,
                "the file does not begin with a provisioning journal header: it is not a journal")
        }
        for index in bytes.indices[..<end] where bytes[index] == 0x0A {
            lines.append(start..<index)
            start = index + 1
        }
        // Bytes after the last line feed are a write that never completed.
        var validLength = start
        var lastParsed: JSONValue?
        // Only a last line with nothing after it may be torn; a bad line followed by more is damage.
        if let last = lines.last, start == end {
            do throws(ProvisioningError) {
                lastParsed = try parse(bytes[last], line: lines.count)
            } catch {
                // A complete but unreadable last line is a torn write too (a crash can leave
                // the file longer than the data written, filled with zeros).
                lines.removeLast()
                validLength = last.lowerBound
            }
        }
        guard let headerRange = lines.first else {
            throw ProvisioningError(.missingJournalHeader, line: 1, "the journal has no complete header line")
        }
        let headerValue: JSONValue
        if lines.count == 1, let lastParsed {
            headerValue = lastParsed
        } else {
            headerValue = try parse(bytes[headerRange], line: 1)
        }
        var state = ProvisioningState(header: try JournalHeader(parsing: headerValue, line: 1))
        for (offset, range) in lines.enumerated().dropFirst() {
            let number = offset + 1
            let value: JSONValue
            if number == lines.count, let lastParsed {
                value = lastParsed
            } else {
                value = try parse(bytes[range], line: number)
            }
            let event = try JournalEvent(parsing: value, line: number)
            try state.apply(event, line: number)
        }
        state.releaseAllClaims()
        return JournalRecovery(
            state: state, validLength: validLength, discardedBytes: bytes.count - validLength,
            eventCount: lines.count - 1)
    }

    private static func parse(_ line: ArraySlice<UInt8>, line number: Int) throws(ProvisioningError) -> JSONValue {
        guard line.count <= ProvisioningJournal.maximumLineBytes else {
            throw ProvisioningError(.corruptJournal, line: number, "the line is longer than the journal allows")
        }
        do throws(ProvisioningError) {
            return try JSONLine.parse(line, line: number, code: .corruptJournal)
        } catch {
            throw ProvisioningError(.corruptJournal, line: number, column: error.column, error.reason)
        }
    }
}
