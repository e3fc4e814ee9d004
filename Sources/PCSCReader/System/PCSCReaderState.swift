/// One reader's entry in a status wait (`SCARD_READERSTATE`, PC/SC part 5 3.1.11).
struct PCSCReaderState: Sendable, Hashable {
    /// The reader name, or ``PCSCContext/plugAndPlayReaderName``.
    var readerName: String
    /// The state the caller knows (`SCARD_STATE_*` bits; the event count in the high 16 bits).
    var currentState: UInt32
    /// The state pcscd reports.
    var eventState: UInt32 = 0
    /// The ATR of the card in the reader, if any.
    var atr: [UInt8] = []

    // SCARD_STATE_* values of pcsc-lite's pcsclite.h (checked against the header by the tests).
    static let unaware: UInt32 = 0x0000
    static let changed: UInt32 = 0x0002
    static let unknown: UInt32 = 0x0004
    static let unavailable: UInt32 = 0x0008
    static let empty: UInt32 = 0x0010
    static let present: UInt32 = 0x0020
    static let exclusive: UInt32 = 0x0080
    static let inUse: UInt32 = 0x0100
    static let mute: UInt32 = 0x0200

    /// The number of card insertions and removals pcscd counted (pcsc-lite keeps it in the high
    /// 16 bits of the event state).
    var eventCount: Int { Int(eventState >> 16) }

    /// The event state without the changed bit: what to pass as the next `currentState`.
    var settledState: UInt32 { eventState & ~Self.changed }
}
