/// An error from a reader, a session or a tag operation, modelled on CoreNFC's `NFCReaderError`.
///
/// The ``code`` is stable (its raw value is what scripts and JSON output see) and is what
/// equality compares. Write errors say whether the tag may hold a half-written state
/// (``mayBeHalfWritten``); such a tag is completed with the `resume` operations, which re-read
/// it first.
public struct NFCReaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. The raw values are stable identifiers.
    public enum Code: String, Sendable, Hashable, CaseIterable, Codable {
        /// No reader, the reader was unplugged, or its service (pcscd) is not running.
        case readerUnavailable = "reader-unavailable"
        /// The reader cannot do what was asked (a raw command through a reader without pass-through).
        case unsupportedFeature = "unsupported-feature"
        /// An argument is invalid (a password of the wrong length, a page outside the chip).
        case invalidParameter = "invalid-parameter"
        /// No tag came within the time allowed.
        case timeout
        /// The caller cancelled the session or the task.
        case cancelled
        /// Two or more tags are in the field: nothing was touched.
        case multipleTagsFound = "multiple-tags-found"
        /// The tag is not one this toolkit can handle (or not NDEF formatted for the operation).
        case tagNotSupported = "tag-not-supported"
        /// The tag stopped answering: it left the field, or the connection to it broke.
        case tagConnectionLost = "tag-connection-lost"
        /// The tag answered with an error (a NAK, an error status word, a garbled frame).
        case tagResponseError = "tag-response-error"
        /// The tag is read-only (CC access, lock bits) or the write would touch locked memory.
        case tagNotWritable = "tag-not-writable"
        /// The message does not fit: ``capacity`` and ``neededSize`` say by how much.
        case tagSizeTooSmall = "tag-size-too-small"
        /// A write failed part way or its read-back did not match.
        case tagUpdateFailure = "tag-update-failure"
        /// An NDEF message with no records cannot be written as such (use erase).
        case zeroLengthMessage = "zero-length-message"
        /// The tag holds data that is not a valid NDEF message or TLV structure.
        case invalidMessage = "invalid-message"
        /// The memory needed is password-protected: authenticate first.
        case authenticationRequired = "authentication-required"
        /// PWD_AUTH was refused or answered a PACK other than the one expected.
        case authenticationFailed = "authentication-failed"
        /// The attempt limit (AUTHLIM) was reached: the password can never be used again.
        case passwordDisabled = "password-disabled"
        /// A lock confirmation does not match this tag, its content or its code.
        case confirmationMismatch = "confirmation-mismatch"
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
