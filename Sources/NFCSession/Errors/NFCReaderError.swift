import HexText
import NDEF
import TagMemory

/// An error from a reader, a session or a tag operation, modelled on CoreNFC's `NFCReaderError`.
///
/// The ``code`` is stable (its raw value is what scripts and JSON output see) and is what
/// equality compares. Write errors say whether the tag may hold a half-written state
/// (``mayBeHalfWritten``); such a tag is completed with the `resume` operations, which re-read
/// it first.
public struct NFCReaderError: NDEFToolError, Hashable {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `reader-unavailable`.
        public let rawValue: String

        /// The code `rawValue` names; a code this version does not know keeps its identifier.
        public init(rawValue: String) { self.rawValue = Known.identifier(rawValue) }

        private init(_ known: Known) { rawValue = known.rawValue }

        /// Every code this version knows, in the order below.
        public static var allCases: [Code] { Known.allCases.map(Code.init) }

        /// No reader, the reader was unplugged, or its service (pcscd) is not running.
        public static let readerUnavailable = Code(.readerUnavailable)
        /// The reader cannot do what was asked (a raw command through a reader without pass-through).
        public static let unsupportedFeature = Code(.unsupportedFeature)
        /// An argument is invalid (a password of the wrong length, a page outside the chip).
        public static let invalidParameter = Code(.invalidParameter)
        /// No tag came within the time allowed.
        public static let timeout = Code(.timeout)
        /// The caller cancelled the session or the task.
        public static let cancelled = Code(.cancelled)
        /// Two or more tags are in the field: nothing was touched.
        public static let multipleTagsFound = Code(.multipleTagsFound)
        /// The tag is not one this toolkit can handle (or not NDEF formatted for the operation).
        public static let tagNotSupported = Code(.tagNotSupported)
        /// The tag stopped answering: it left the field, or the connection to it broke.
        public static let tagConnectionLost = Code(.tagConnectionLost)
        /// The tag answered with an error (a NAK, an error status word, a garbled frame).
        public static let tagResponseError = Code(.tagResponseError)
        /// The tag is read-only (CC access, lock bits) or the write would touch locked memory.
        public static let tagNotWritable = Code(.tagNotWritable)
        /// The message does not fit: ``capacity`` and ``neededSize`` say by how much.
        public static let tagSizeTooSmall = Code(.tagSizeTooSmall)
        /// A write failed part way or its read-back did not match.
        public static let tagUpdateFailure = Code(.tagUpdateFailure)
        /// An NDEF message with no records cannot be written as such (use erase).
        public static let zeroLengthMessage = Code(.zeroLengthMessage)
        /// The tag holds data that is not a valid NDEF message or TLV structure.
        public static let invalidMessage = Code(.invalidMessage)
        /// The memory needed is password-protected: authenticate first.
        public static let authenticationRequired = Code(.authenticationRequired)
        /// PWD_AUTH was refused (the tag counted the attempt), or an authentication with a key
        /// failed.
        public static let authenticationFailed = Code(.authenticationFailed)
        /// PWD_AUTH was accepted, but the tag answered a PACK other than the one expected: it
        /// may not be the tag the password was made for (no attempt was counted).
        public static let passwordAcknowledgeMismatch = Code(.passwordAcknowledgeMismatch)
        /// The attempt limit (AUTHLIM) was reached: the password can never be used again.
        public static let passwordDisabled = Code(.passwordDisabled)
        /// A lock confirmation does not match this tag, its content or its code.
        public static let confirmationMismatch = Code(.confirmationMismatch)
        /// A file a file-backed reader (the simulator) keeps a tag in holds no tag this version
        /// reads, or is not a regular file: the data is at fault, not the call.
        public static let invalidTagFile = Code(.invalidTagFile)
        /// The folder a file-backed reader was told to keep its tags in does not exist, or is
        /// not a folder.
        public static let tagFolderMissing = Code(.tagFolderMissing)

        /// The codes this version knows, by the identifiers above.
        private enum Known: String, KnownErrorCodes {
            case readerUnavailable = "reader-unavailable"
            case unsupportedFeature = "unsupported-feature"
            case invalidParameter = "invalid-parameter"
            case timeout = "timeout"
            case cancelled = "cancelled"
            case multipleTagsFound = "multiple-tags-found"
            case tagNotSupported = "tag-not-supported"
            case tagConnectionLost = "tag-connection-lost"
            case tagResponseError = "tag-response-error"
            case tagNotWritable = "tag-not-writable"
            case tagSizeTooSmall = "tag-size-too-small"
            case tagUpdateFailure = "tag-update-failure"
            case zeroLengthMessage = "zero-length-message"
            case invalidMessage = "invalid-message"
            case authenticationRequired = "authentication-required"
            case authenticationFailed = "authentication-failed"
            case passwordAcknowledgeMismatch = "password-acknowledge-mismatch"
            case passwordDisabled = "password-disabled"
            case confirmationMismatch = "confirmation-mismatch"
            case invalidTagFile = "invalid-tag-file"
            case tagFolderMissing = "tag-folder-missing"
        }
    }

    /// The stable error code.
    public var code: Code
    /// A human explanation: what, where, and what to do.
    public var reason: String
    /// For ``Code/tagSizeTooSmall``: the tag's NDEF capacity in bytes.
    public var capacity: Int?
    /// For ``Code/tagSizeTooSmall``: the bytes the message needs.
    public var neededSize: Int?
    /// Whether the tag may now hold a partial write: re-read it, or resume the write.
    public var mayBeHalfWritten: Bool
    /// The 4-bit NAK a Type 2 tag answered (NTAG213/215/216 9.3: 0h invalid argument, 1h CRC or
    /// parity error, 4h authentication counter overflow, 5h EEPROM write error), when the error
    /// is one; nil otherwise.
    public var nakCode: UInt8?

    /// Creates an error.
    public init(
        _ code: Code,
        _ reason: String,
        capacity: Int? = nil,
        neededSize: Int? = nil,
        mayBeHalfWritten: Bool = false,
        nakCode: UInt8? = nil
    ) {
        self.code = code
        self.reason = reason
        self.capacity = capacity
        self.neededSize = neededSize
        self.mayBeHalfWritten = mayBeHalfWritten
        self.nakCode = nakCode
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: NFCReaderError, rhs: NFCReaderError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = "\(reason) (\(code.rawValue))"
        if mayBeHalfWritten { text += "; the tag may be half-written: resume the write to complete it" }
        return text
    }
}

extension NFCReaderError {
    /// The session error for a TagMemory planning error, its reason prefixed with `context`:
    /// the one place the codes are mapped.
    ///
    /// - ``TagMemory/TagMemoryError/Code/notFormatted``: ``Code/tagNotSupported`` (format the tag first);
    /// - ``TagMemory/TagMemoryError/Code/notWritable`` and ``TagMemory/TagMemoryError/Code/conflictingState`` (bits a
    ///   one-time programmable page or a frozen lock bit cannot take): ``Code/tagNotWritable``;
    /// - ``TagMemory/TagMemoryError/Code/insufficientCapacity``: ``Code/tagSizeTooSmall``;
    /// - ``TagMemory/TagMemoryError/Code/unsupportedChip``: ``Code/tagNotSupported``;
    /// - ``TagMemory/TagMemoryError/Code/invalidArgument``: ``Code/invalidParameter``;
    /// - malformed TLVs, messages and dumps (and any code added later): ``Code/invalidMessage``;
    /// - ``TagMemory/TagMemoryError/Code/truncatedImage`` (pages the session could not read):
    ///   ``Code/tagResponseError``.
    public init(planning error: TagMemoryError, _ context: String) {
        let reason = "\(context): \(error.reason)"
        switch error.code {
        case .notFormatted, .unsupportedChip: self.init(.tagNotSupported, reason)
        case .notWritable, .conflictingState: self.init(.tagNotWritable, reason)
        case .insufficientCapacity: self.init(.tagSizeTooSmall, reason)
        case .invalidArgument: self.init(.invalidParameter, reason)
        case .truncatedImage: self.init(.tagResponseError, reason)
        default: self.init(.invalidMessage, reason)  // malformedTLV, malformedMessage, malformedDump
        }
    }
}

/// What the package knows of one result code of a C library a reader backend calls (pcsc-lite's
/// `SCARD_*`, libnfc's `NFC_E*`): its macro name, the session error it becomes and what it means
/// for people. The backends' status-code types keep a table of these. Shared by the modules of
/// this package (`package` access), not API.
package struct CLibraryStatus: Sendable {
    /// The macro name, `SCARD_E_NO_SERVICE`.
    package let name: String
    /// The session error code the result becomes.
    package let readerErrorCode: NFCReaderError.Code
    /// What happened, for people.
    package let meaning: String

    package init(_ name: String, _ readerErrorCode: NFCReaderError.Code, _ meaning: String) {
        self.name = name
        self.readerErrorCode = readerErrorCode
        self.meaning = meaning
    }
}
