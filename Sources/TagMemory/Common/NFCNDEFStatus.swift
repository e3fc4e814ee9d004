/// Whether a tag can hold an NDEF message and whether it may be changed.
///
/// The cases follow CoreNFC's `NFCNDEFStatus`. For an NFC Forum Type 2 tag the status comes
/// from the capability container's magic number, version and access nibbles (T2T 1.0,
/// section 6.1); for Type 4 from the CC file's NDEF File Control TLV (T4T 3.0, 5.1).
public enum NFCNDEFStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// The tag is not NDEF formatted, or its format is one this version does not read.
    case notSupported
    /// The NDEF message may be read and written.
    case readWrite
    /// The NDEF message may be read but not written.
    case readOnly
}

/// The answer to "what NDEF can this tag hold": status and capacity, as CoreNFC's
/// `queryNDEFStatus` gives them.
public struct NDEFTagStatus: Sendable, Hashable, Codable {
    /// Whether an NDEF message can be read and written.
    public var status: NFCNDEFStatus
    /// The size of the largest NDEF message that fits, in bytes (0 when `status` is
    /// ``NFCNDEFStatus/notSupported``).
    public var capacity: Int

    /// Creates a status.
    public init(status: NFCNDEFStatus, capacity: Int) {
        self.status = status
        self.capacity = capacity
    }
}
