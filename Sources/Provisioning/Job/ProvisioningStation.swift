import NFCSession

/// One reader of a provisioning job: the reader, the name the journal and the status line
/// give it, and whether it can still bring tags.
public struct ProvisioningStation: Sendable {
    /// The reader's name in the job (unique within it): the journal's `claimed` events name it.
    public var name: String
    /// The reader. The job runs a session on it and leaves it open: closing it is the caller's.
    public var reader: any NFCReaderDevice
    /// Whether the reader will bring no more tags (a simulated supply used up); nil for a real
    /// reader, to which a person may always bring another tag.
    public var hasNoMoreTags: (@Sendable () async -> Bool)?

    /// A station named `name` on `reader`.
    public init(name: String, reader: any NFCReaderDevice, hasNoMoreTags: (@Sendable () async -> Bool)? = nil) {
        self.name = name
        self.reader = reader
        self.hasNoMoreTags = hasNoMoreTags
    }
}
