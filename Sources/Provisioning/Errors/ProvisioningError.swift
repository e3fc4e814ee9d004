import NDEF

/// An error from batch provisioning: a stable code, where in the input it happened and why.
///
/// `line` and `column` are 1-based positions in the file the error is about (a plan, a
/// template or a journal); 0 means "not applicable". Columns count bytes from the start of
/// the line. Two errors are equal when their codes are, so tests can match on the code alone.
public struct ProvisioningError: NDEFToolError, Hashable {
    /// What went wrong, independent of where: an open set of stable identifiers
    /// (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `malformed-plan`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// The plan is not well-formed CSV (RFC 4180) or JSON Lines.
        public static let malformedPlan = Code(.malformedPlan)
        /// A record has more or fewer fields than the header names.
        public static let fieldCountMismatch = Code(.fieldCountMismatch)
        /// The header names a field twice, names none, or uses a name that is not allowed.
        public static let invalidFieldName = Code(.invalidFieldName)
        /// The plan holds no rows.
        public static let emptyPlan = Code(.emptyPlan)
        /// The plan exceeds ``ProvisioningPlan/maximumRowCount`` or a field exceeds
        /// ``ProvisioningPlan/maximumFieldBytes``.
        public static let limitExceeded = Code(.limitExceeded)
        /// The input is not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A counter range is empty, reversed or out of bounds.
        public static let invalidRange = Code(.invalidRange)
        /// The template is not well-formed (an unmatched brace or quote).
        public static let malformedTemplate = Code(.malformedTemplate)
        /// The template names a placeholder the plan does not provide.
        public static let unknownPlaceholder = Code(.unknownPlaceholder)
        /// A value to substitute contains a control character.
        public static let controlCharacter = Code(.controlCharacter)
        /// The template's words are not record specifications, or a row's values do not make
        /// valid records; ``ProvisioningError/underlying`` is the
        /// `RecordSpecifications/RecordSpecError`.
        public static let invalidRecords = Code(.invalidRecords)
        /// A journal line other than the last is not a valid event.
        public static let corruptJournal = Code(.corruptJournal)
        /// The journal's events contradict each other (a row done twice, a UID used twice...).
        public static let inconsistentJournal = Code(.inconsistentJournal)
        /// The journal belongs to another job (plan digest or template differ).
        public static let journalMismatch = Code(.journalMismatch)
        /// The journal has no complete header line: it holds nothing, zeros, or the beginning of
        /// a header (a run stopped as it created the journal).
        public static let missingJournalHeader = Code(.missingJournalHeader)
        /// The file does not begin as a journal does: it is some other file, never to be replaced.
        public static let notAJournal = Code(.notAJournal)
        /// Another process has the journal open for its run of the job.
        public static let journalInUse = Code(.journalInUse)
        /// The event asked for breaks the job's rules (a tag already used, a row bound to another tag).
        public static let refusedEvent = Code(.refusedEvent)
        /// A file operation failed; the reason carries the C library's message.
        public static let io = Code(.io)
        /// libcrypto failed, or a secret is unusable (empty).
        public static let crypto = Code(.crypto)
        /// The job's database failed or refused a statement; ``ProvisioningError/underlying`` is
        /// the database's own error.
        public static let database = Code(.database)
        /// The station's claim on its row expired or was taken over (it could not reach the
        /// job's database for longer than its lease): it stopped before the next step on the
        /// tag, which stays bound to the row.
        public static let leaseLost = Code(.leaseLost)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case malformedPlan = "malformed-plan"
            case fieldCountMismatch = "field-count-mismatch"
            case invalidFieldName = "invalid-field-name"
            case emptyPlan = "empty-plan"
            case limitExceeded = "limit-exceeded"
            case invalidUTF8 = "invalid-utf8"
            case invalidRange = "invalid-range"
            case malformedTemplate = "malformed-template"
            case unknownPlaceholder = "unknown-placeholder"
            case controlCharacter = "control-character"
            case invalidRecords = "invalid-records"
            case corruptJournal = "corrupt-journal"
            case inconsistentJournal = "inconsistent-journal"
            case journalMismatch = "journal-mismatch"
            case missingJournalHeader = "missing-journal-header"
            case notAJournal = "not-ajournal"
            case journalInUse = "journal-in-use"
            case refusedEvent = "refused-event"
            case io = "io"
            case crypto = "crypto"
            case database = "database"
            case leaseLost = "lease-lost"
        }
    }

    /// The stable code.
    public var code: Code
    /// The 1-based line, or 0.
    public var line: Int
    /// The 1-based byte column in the line, or 0.
    public var column: Int
    /// A sentence for a person.
    public var reason: String
    /// The error of another module behind this one, such as the record-specification error of
    /// an ``Code/invalidRecords``.
    public var underlying: (any Error & Sendable)?

    /// An error with `code` at `line`/`column` (0 when not applicable) and, when another
    /// module's error caused it, that `underlying` error.
    public init(
        _ code: Code, line: Int = 0, column: Int = 0, _ reason: String, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.line = line
        self.column = column
        self.reason = reason
        self.underlying = underlying
    }

    /// `line 3, column 7: reason` (the position only where known).
    public var description: String {
        switch (line, column) {
        case (0, _): reason
        case (_, 0): "line \(line): \(reason)"
        default: "line \(line), column \(column): \(reason)"
        }
    }

    /// ``underlying``.
    public var underlyingError: (any Error & Sendable)? { underlying }

    public static func == (lhs: ProvisioningError, rhs: ProvisioningError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
