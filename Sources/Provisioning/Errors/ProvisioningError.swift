/// An error from batch provisioning: a stable code, where in the input it happened and why.
///
/// `line` and `column` are 1-based positions in the file the error is about (a plan, a
/// template or a journal); 0 means "not applicable". Columns count bytes from the start of
/// the line. Two errors are equal when their codes are, so tests can match on the code alone.
public struct ProvisioningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, independent of where.
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The plan is not well-formed CSV (RFC 4180) or JSON Lines.
        case malformedPlan
        /// A record has more or fewer fields than the header names.
        case fieldCountMismatch
        /// The header names a field twice, names none, or uses a name that is not allowed.
        case invalidFieldName
        /// The plan holds no rows.
        case emptyPlan
        /// The plan exceeds ``ProvisioningPlan/maximumRowCount`` or a field exceeds
        /// ``ProvisioningPlan/maximumFieldBytes``.
        case limitExceeded
        /// The input is not valid UTF-8.
        case invalidUTF8
        /// A counter range is empty, reversed or out of bounds.
        case invalidRange
        /// The template is not well-formed (an unmatched brace or quote).
        case malformedTemplate
        /// The template names a placeholder the plan does not provide.
        case unknownPlaceholder
        /// A value to substitute contains a control character.
        case controlCharacter
        /// A journal line other than the last is not a valid event.
        case corruptJournal
        /// The journal's events contradict each other (a row done twice, a UID used twice...).
        case inconsistentJournal
        /// The journal belongs to another job (plan digest or template differ).
        case journalMismatch
        /// The journal has no complete header line: it holds nothing, zeros, or the beginning of
        /// a header (a run stopped as it created the journal).
        case missingJournalHeader
        /// The file does not begin as a journal does: it is some other file, never to be replaced.
        case notAJournal
        /// Another process has the journal open for its run of the job.
        case journalInUse
        /// The event asked for breaks the job's rules (a tag already used, a row bound to another tag).
        case refusedEvent
        /// A file operation failed; the reason carries the C library's message.
        case io
        /// libcrypto failed, or a secret is unusable (empty).
        case crypto
    }

    /// The stable code.
    public var code: Code
    /// The 1-based line, or 0.
    public var line: Int
    /// The 1-based byte column in the line, or 0.
    public var column: Int
    /// A sentence for a person.
    public var reason: String

    /// An error with `code` at `line`/`column` (0 when not applicable).
    public init(_ code: Code, line: Int = 0, column: Int = 0, _ reason: String) {
        self.code = code
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `line 3, column 7: reason` (the position only where known).
    public var description: String {
        switch (line, column) {
        case (0, _): reason
        case (_, 0): "line \(line): \(reason)"
        default: "line \(line), column \(column): \(reason)"
        }
    }

    public static func == (lhs: ProvisioningError, rhs: ProvisioningError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
