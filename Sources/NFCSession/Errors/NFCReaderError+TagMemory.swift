import TagMemory

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
