import HexText
import TagMemory

/// What a session reports while it waits for and hands out tags, for a caller to show (a
/// command line prints ``description``).
///
/// Not frozen: later versions may report more events, so a `switch` over them needs a
/// `default:` branch to keep compiling.
public enum NFCSessionEvent: Sendable, Hashable, CustomStringConvertible {
    /// The session started polling on the named reader.
    case began(readerName: String)
    /// No tag is in the field: the session polls.
    case waitingForTag
    /// `count` tags are in the field: none is touched until all but one are removed.
    case multipleTagsFound(count: Int)
    /// A tag was selected and identified (`chip` names the chip when known).
    case tagDetected(NFCTargetInfo, chip: String?)
    /// A tag of a kind the session does not handle (MIFARE Classic, or ISO-DEP through a reader
    /// without ISO-DEP) is in the field: it is left alone.
    case tagNotSupported(NFCTargetInfo)
    /// The tag left the field.
    case tagRemoved(NFCTargetInfo)
    /// The reader went away and is being reconnected (a ``ReconnectingReader``): `reason` says
    /// what was seen.
    case reconnectStarted(reason: String)
    /// The reader is back.
    case reconnectSucceeded(readerName: String)
    /// The reader did not come back: `error` is the last failure.
    case reconnectFailed(NFCReaderError)
    /// The session was invalidated: no more events.
    case invalidated

    /// The session event for a reader's connection change.
    public init(_ event: NFCReaderLifecycleEvent) {
        switch event {
        case .reconnectStarted(let reason): self = .reconnectStarted(reason: reason)
        case .reconnectSucceeded(let name): self = .reconnectSucceeded(readerName: name)
        case .reconnectFailed(let error): self = .reconnectFailed(error)
        }
    }

    public var description: String {
        switch self {
        case .began(let name): "Using reader \(name)"
        case .waitingForTag: "Hold a tag near the reader"
        case .multipleTagsFound(let count): "\(count) tags in the field: remove all but one"
        case .tagDetected(let target, let chip):
            "Tag \(target.uidDescription) detected" + (chip.map { " (\($0))" } ?? "")
        case .tagNotSupported(let target):
            "Tag \(target.uidDescription) is not supported (SAK \(Hex.bytes([target.sak])))"
        case .tagRemoved(let target): "Tag \(target.uidDescription) removed"
        case .reconnectStarted: "Reader disconnected: reconnecting..."
        case .reconnectSucceeded: "Reader back"
        case .reconnectFailed(let error): "Reader did not come back: \(error.reason)"
        case .invalidated: "Session ended"
        }
    }
}
