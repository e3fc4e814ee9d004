import CommandLineKit
import NDEF

/// Why record specifications did not make records: words that do not fit the grammar, a value
/// a record cannot hold, an input that could not be read, or a message file that is not NDEF.
///
/// ``message`` names the specification and the word, option or value at fault (`record 1
/// (uri)`, `--lang`); ``help`` is the synopsis or option help a tool prints under it.
public struct RecordSpecError: NDEFToolError {
    /// What went wrong, independent of where: an open set of stable identifiers
    /// (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `invalid-specification`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// The words are not specifications (an unknown kind or option, a missing value, two
        /// alternatives given), or a value is not what its record holds (an empty URI, a
        /// malformed language tag, a type that breaks the syntax of its TNF).
        public static let invalidSpecification = Code(.invalidSpecification)
        /// A file, standard input or an environment variable a specification names could not
        /// be read; ``RecordSpecError/underlying`` is the input source's own error.
        public static let unreadableInput = Code(.unreadableInput)
        /// The file of a `message` specification is not a valid NDEF message (or not valid hex
        /// with `--hex`); ``RecordSpecError/underlying`` is the ``NDEF/NDEFError`` when it
        /// decoded as hex.
        public static let invalidMessage = Code(.invalidMessage)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case invalidSpecification = "invalid-specification"
            case unreadableInput = "unreadable-input"
            case invalidMessage = "invalid-message"
        }
    }

    /// The stable code.
    public var code: Code
    /// A sentence for a person, naming the specification and the argument at fault.
    public var message: String
    /// The help of the argument at fault (a synopsis or an option's help), when there is one.
    public var help: String?
    /// The error behind an ``Code/unreadableInput`` or ``Code/invalidMessage``.
    public var underlying: (any Error & Sendable)?

    /// An error with `code`, `message` and, when known, the `help` and the `underlying` cause.
    public init(_ code: Code, _ message: String, help: String? = nil, underlying: (any Error & Sendable)? = nil) {
        self.code = code
        self.message = message
        self.help = help
        self.underlying = underlying
    }

    /// ``message``.
    public var reason: String { message }

    /// ``underlying``.
    public var underlyingError: (any Error & Sendable)? { underlying }

    /// An ``Code/invalidSpecification`` error from the grammar's usage error.
    package init(_ usage: UsageError) {
        self.init(.invalidSpecification, usage.message, help: usage.help)
    }

    /// An ``Code/invalidSpecification`` error with `message`.
    package static func usage(_ message: String, help: String? = nil) -> RecordSpecError {
        RecordSpecError(.invalidSpecification, message, help: help)
    }

    /// An ``Code/invalidSpecification`` error for a value `option` cannot take.
    package static func invalidValue(_ value: String, for option: OptionSpec, reason: String? = nil) -> RecordSpecError
    {
        RecordSpecError(UsageError.invalidValue(value, for: option, reason: reason))
    }

    /// An ``Code/invalidSpecification`` error for a value the positional `argument` cannot take.
    package static func invalidValue(_ value: String, for argument: String, reason: String) -> RecordSpecError {
        RecordSpecError(UsageError.invalidValue(value, for: argument, reason: reason))
    }

    public var description: String { message }
}
