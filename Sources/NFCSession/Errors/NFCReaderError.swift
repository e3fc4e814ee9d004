import NDEF
import TagMemory

/// An error from a reader, a session or a tag operation, modelled on CoreNFC's `NFCReaderError`.
///
/// The ``code`` is stable (its raw value is what scripts and JSON output see) and is what
/// equality compares. Write errors say whether the tag may hold a half-written state
/// (``mayBeHalfWritten``); such a tag is completed with the `resume` operations, which re-read
/// it first.
public struct NFCReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an open set of stable identifiers (``NDEF/StableErrorCode``).
    public struct Code: StableErrorCode {
        /// The stable identifier, such as `reader-unavailable`.
        public let rawValue: String

        private init(_ rawValue: String) { self.rawValue = rawValue }

        /// No reader, the reader was unplugged, or its service (pcscd) is not running.
        public static let readerUnavailable = Code("reader-unavailable")
        /// The reader cannot do what was asked (a raw command through a reader without pass-through).
        public static let unsupportedFeature = Code("unsupported-feature")
        /// An argument is invalid (a password of the wrong length, a page outside the chip).
        public static let invalidParameter = Code("invalid-parameter")
        /// No tag came within the time allowed.
        public static let timeout = Code("timeout")
        /// The caller cancelled the session or the task.
        public static let cancelled = Code("cancelled")
        /// Two or more tags are in the field: nothing was touched.
        public static let multipleTagsFound = Code("multiple-tags-found")
        /// The tag is not one this toolkit can handle (or not NDEF formatted for the operation).
        public static let tagNotSupported = Code("tag-not-supported")
        /// The tag stopped answering: it left the field, or the connection to it broke.
        public static let tagConnectionLost = Code("tag-connection-lost")
        /// The tag answered with an error (a NAK, an error status word, a garbled frame).
        public static let tagResponseError = Code("tag-response-error")
        /// The tag is read-only (CC access, lock bits) or the write would touch locked memory.
        public static let tagNotWritable = Code("tag-not-writable")
        /// The message does not fit: ``capacity`` and ``neededSize`` say by how much.
        public static let tagSizeTooSmall = Code("tag-size-too-small")
        /// A write failed part way or its read-back did not match.
        public static let tagUpdateFailure = Code("tag-update-failure")
        /// An NDEF message with no records cannot be written as such (use erase).
        public static let zeroLengthMessage = Code("zero-length-message")
        /// The tag holds data that is not a valid NDEF message or TLV structure.
        public static let invalidMessage = Code("invalid-message")
        /// The memory needed is password-protected: authenticate first.
        public static let authenticationRequired = Code("authentication-required")
        /// PWD_AUTH was refused or answered a PACK other than the one expected.
        public static let authenticationFailed = Code("authentication-failed")
        /// The attempt limit (AUTHLIM) was reached: the password can never be used again.
        public static let passwordDisabled = Code("password-disabled")
        /// A lock confirmation does not match this tag, its content or its code.
        public static let confirmationMismatch = Code("confirmation-mismatch")

        /// Every code this version knows, in the order above.
        public static let allCases: [Code] = [
            .readerUnavailable,
            .unsupportedFeature,
            .invalidParameter,
            .timeout,
            .cancelled,
            .multipleTagsFound,
            .tagNotSupported,
            .tagConnectionLost,
            .tagResponseError,
            .tagNotWritable,
            .tagSizeTooSmall,
            .tagUpdateFailure,
            .zeroLengthMessage,
            .invalidMessage,
            .authenticationRequired,
            .authenticationFailed,
            .passwordDisabled,
            .confirmationMismatch,
        ]
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

    /// Creates an error.
    public init(
        _ code: Code,
        _ reason: String,
        capacity: Int? = nil,
        neededSize: Int? = nil,
        mayBeHalfWritten: Bool = false
    ) {
        self.code = code
        self.reason = reason
        self.capacity = capacity
        self.neededSize = neededSize
        self.mayBeHalfWritten = mayBeHalfWritten
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

/// Bytes as upper-case hex pairs separated by spaces, for error reasons and events.
func hexText(_ bytes: some Sequence<UInt8>) -> String {
    NDEFHex.encode(bytes, uppercase: true, separator: " ")
}
