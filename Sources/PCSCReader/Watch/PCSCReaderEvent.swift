/// A reader arriving at or leaving pcscd, from ``PCSCReaders/watchReaders()``.
public enum PCSCReaderEvent: Sendable, Hashable {
    /// The reader is there: listed when watching starts, or plugged in since.
    case added(String)
    /// The reader was unplugged (or its driver stopped).
    case removed(String)
}

/// The card presence in one reader, from ``PCSCReaders/watchCard(in:)``.
public struct PCSCCardEvent: Sendable, Hashable {
    /// Whether a card is there.
    public enum Presence: Sendable, Hashable {
        /// No card (`SCARD_STATE_EMPTY`).
        case empty
        /// A card, powered and answering (`SCARD_STATE_PRESENT`).
        case present
        /// A card that does not answer the reset (`SCARD_STATE_MUTE`).
        case mute
        /// The reader went away; the stream ends after this event.
        case readerRemoved
    }

    /// The reader.
    public var readerName: String
    /// The presence.
    public var presence: Presence
    /// The card's ATR (empty without a card).
    public var atr: [UInt8]
    /// pcscd's count of card insertions and removals in this reader: it rises with every change,
    /// so a tag swapped between two looks is noticed.
    public var eventCount: Int

    /// Creates an event.
    public init(readerName: String, presence: Presence, atr: [UInt8], eventCount: Int) {
        self.readerName = readerName
        self.presence = presence
        self.atr = atr
        self.eventCount = eventCount
    }
}
