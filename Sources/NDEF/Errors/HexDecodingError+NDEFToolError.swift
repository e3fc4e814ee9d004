public import HexText

/// Text that is not hex is an ``NDEFToolError`` with the code ``NDEFError/Code/invalidValue``,
/// so one `catch` handles it with the package's other errors.
extension HexDecodingError: NDEFToolError {
    /// ``NDEFError/Code/invalidValue``.
    public var code: NDEFError.Code { .invalidValue }
    /// The offset of the character that is not a hex digit.
    public var byteOffset: Int? { offset }
}

extension NDEFError {
    /// The same problem as an ``NDEFError``: ``Code/invalidValue`` at the character's offset.
    public init(_ error: HexDecodingError) {
        self.init(.invalidValue, at: error.offset, error.reason)
    }
}
