extension NFCTagReaderSession {
    /// How a session polls.
    public struct Options: Sendable, Hashable {
        /// The pause between polls while no tag is in the field.
        public var pollInterval: Duration
        /// The pause after polling found two or more tags, before polling again (the time a person
        /// needs to take a tag away).
        public var multipleTagPause: Duration
        /// Whether two or more tags in the field end ``NFCTagReaderSession/nextTag(timeout:)`` with
        /// ``NFCReaderError/Code/multipleTagsFound`` instead of waiting for all but one to leave.
        public var failOnMultipleTags: Bool
        /// Whether the session hands out one tag only, as CoreNFC's `invalidateAfterFirstRead`:
        /// a second ``NFCTagReaderSession/nextTag(timeout:)`` throws ``NFCReaderError/Code/cancelled``.
        /// Default false: the session stays open, and its tags usable, until
        /// ``NFCTagReaderSession/invalidate()``.
        public var invalidateAfterFirstRead: Bool

        /// Creates options.
        public init(
            pollInterval: Duration = .milliseconds(100),
            multipleTagPause: Duration = .milliseconds(500),
            failOnMultipleTags: Bool = false,
            invalidateAfterFirstRead: Bool = false
        ) {
            self.pollInterval = pollInterval
            self.multipleTagPause = multipleTagPause
            self.failOnMultipleTags = failOnMultipleTags
            self.invalidateAfterFirstRead = invalidateAfterFirstRead
        }
    }
}
