import NDEF

/// An error from reading a tag's memory layout or from planning a change to it.
///
/// The ``code`` is stable and is what equality compares; ``offset`` is the byte address in the
/// tag memory (or file) where the problem lies, when one applies; ``reason`` explains it.
public struct TagMemoryError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `truncated-image`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// The image is shorter than the structure being read (for example no page 3 for the CC).
        public static let truncatedImage = Code(.truncatedImage)
        /// The capability container is missing, has a bad magic number or an unknown major version.
        public static let notFormatted = Code(.notFormatted)
        /// A TLV is malformed: a length past the data area, a 3-byte length under 0xFF, ...
        public static let malformedTLV = Code(.malformedTLV)
        /// The NDEF message inside the TLV is not valid NDEF.
        public static let malformedMessage = Code(.malformedMessage)
        /// The tag does not allow writing (CC write access, lock bits).
        public static let notWritable = Code(.notWritable)
        /// The message does not fit: the reason names the capacity and the size needed.
        public static let insufficientCapacity = Code(.insufficientCapacity)
        /// The chip is not in the catalogue, or lacks the feature a plan needs.
        public static let unsupportedChip = Code(.unsupportedChip)
        /// The tag is already partly locked or configured in a way a plan cannot complete.
        public static let conflictingState = Code(.conflictingState)
        /// An argument given to a plan is invalid (for example a password of the wrong length).
        public static let invalidArgument = Code(.invalidArgument)
        /// A dump file could not be read as the format it claims.
        public static let malformedDump = Code(.malformedDump)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case truncatedImage = "truncated-image"
            case notFormatted = "not-formatted"
            case malformedTLV = "malformed-tlv"
            case malformedMessage = "malformed-message"
            case notWritable = "not-writable"
            case insufficientCapacity = "insufficient-capacity"
            case unsupportedChip = "unsupported-chip"
            case conflictingState = "conflicting-state"
            case invalidArgument = "invalid-argument"
            case malformedDump = "malformed-dump"
        }
    }

    /// The stable error code.
    public var code: Code
    /// The byte address in the tag memory or the file, where one applies.
    public var offset: Int?
    /// A human explanation.
    public var reason: String

    /// Creates an error.
    public init(_ code: Code, at offset: Int? = nil, _ reason: String) {
        self.code = code
        self.offset = offset
        self.reason = reason
    }

    /// ``offset``.
    public var byteOffset: Int? { offset }

    /// Errors are equal when their codes are.
    public static func == (lhs: TagMemoryError, rhs: TagMemoryError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        if let offset { "\(reason) (at byte \(offset), \(code.rawValue))" } else { "\(reason) (\(code.rawValue))" }
    }
}
