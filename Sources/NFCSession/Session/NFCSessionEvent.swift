/// What a session reports while it waits for and hands out tags, for a caller to show (a
/// command line prints ``description``).
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
    /// The session was invalidated: no more events.
    case invalidated

    public var description: String {
        switch self {
        case .began(let name): "Using reader \(name)"
        case .waitingForTag: "Hold a tag near the reader"
        case .multipleTagsFound(let count): "\(count) tags in the field: remove all but one"
        case .tagDetected(let target, let chip):
            "Tag \(target.uidDescription) detected" + (chip.map { " (\($0))" } ?? "")
        case .tagNotSupported(let target):
            "Tag \(target.uidDescription) is not supported (SAK \(hexText([target.sak])))"
        case .tagRemoved(let target): "Tag \(target.uidDescription) removed"
        case .invalidated: "Session ended"
        }
    }
}
