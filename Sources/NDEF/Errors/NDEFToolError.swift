/// What every error this package throws has in common, so that one `catch` handles them all:
/// a stable ``code``, a ``reason`` for people, and the facts callers decide on.
///
/// ```swift
/// do {
///     let record = try URIRecord(uri: link).makeRecord()  // NDEFError
///     try await tag.writeNDEF(NFCNDEFMessage(records: [record]))  // NFCReaderError
/// } catch let error as any NDEFToolError {
///     print("\(error.code): \(error.reason)")  // invalid-value: ..., tag-connection-lost: ...
///     if error.mayBeHalfWritten { /* resume the write */ }
/// }
/// ```
///
/// Adopted by ``NDEFError`` and by the errors of the other modules (`TagMemoryError`,
/// `NFCReaderError`, `NTAG424Error`, `CryptoError`, `ProvisioningError`, `DatabaseError`,
/// `RecordSpecError`, the reader backends' errors). Each keeps its own typed ``code`` (compare
/// it with the type's constants, `NFCReaderError.Code.timeout`) and its own fields; through this
/// protocol the code is its identifier: `error.code.rawValue`, or `error.code` printed.
public protocol NDEFToolError: Error, Sendable, CustomStringConvertible {
    /// The type of the error's codes.
    associatedtype Code: StableErrorCode

    /// What went wrong, as a stable kebab-case identifier (``StableErrorCode``).
    var code: Code { get }
    /// A sentence for a person: what went wrong, where, and what to do.
    var reason: String { get }
    /// Whether a tag may now hold a partial write (re-read it, or resume the write); false for
    /// errors that touch no tag.
    var mayBeHalfWritten: Bool { get }
    /// The byte offset in the input where the problem was found, when one applies.
    var byteOffset: Int? { get }
    /// The error of another module or library behind this one, when there is one.
    var underlyingError: (any Error & Sendable)? { get }
}

extension NDEFToolError {
    /// False: the error touches no tag.
    public var mayBeHalfWritten: Bool { false }
    /// Nil: the error is not about a position in an input.
    public var byteOffset: Int? { nil }
    /// Nil: no other error is behind this one.
    public var underlyingError: (any Error & Sendable)? { nil }
}
