/// The TagTamper status of an NTAG 424 DNA TT (NXP NT4H2421Tx): two bytes, the permanent status
/// (latched open once the tamper loop was seen open) and the current one (the loop as last
/// sampled), as GetTTStatus (F7h) returns them and SDM mirrors them at TTStatusOffset: ASCII
/// `C` (43h) closed, `O` (4Fh) open, `I` (49h) invalid, TagTamper not enabled.
///
/// `CC`: not tampered; `OC`: opened once, the loop reads closed now; `OO`: open now; `II`:
/// TagTamper not enabled (SetConfiguration option 07h enables it, for good).
public struct NTAG424TagTamperStatus: Sendable, Hashable, CustomStringConvertible {
    /// One status byte.
    public enum State: UInt8, Sendable, Hashable, CaseIterable {
        /// `C`: the loop closed.
        case closed = 0x43
        /// `O`: the loop open.
        case open = 0x4F
        /// `I`: TagTamper not enabled.
        case invalid = 0x49

        /// `closed`, `open` or `invalid`.
        public var name: String {
            switch self {
            case .closed: "closed"
            case .open: "open"
            case .invalid: "invalid"
            }
        }
    }

    /// The permanent status: open once the loop was ever seen open.
    public var permanent: State
    /// The current status: the loop as last sampled.
    public var current: State

    /// A status.
    public init(permanent: State, current: State) {
        self.permanent = permanent
        self.current = current
    }

    /// The status in `bytes` (permanent, current); nil unless both are `C`, `O` or `I`.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 2, let first = bytes.first, let permanent = State(rawValue: first),
            let last = bytes.dropFirst().first, let current = State(rawValue: last)
        else { return nil }
        self.init(permanent: permanent, current: current)
    }

    /// The two bytes.
    public var bytes: [UInt8] { [permanent.rawValue, current.rawValue] }

    /// TagTamper not enabled: `II`.
    public static let notEnabled = NTAG424TagTamperStatus(permanent: .invalid, current: .invalid)

    /// Whether the tag was ever opened (the permanent status is open).
    public var wasOpened: Bool { permanent == .open }

    /// What it means: `not tampered`, `tampered, the loop closed now`, `tampered, the loop
    /// open`, `TagTamper not enabled`.
    public var meaning: String {
        switch (permanent, current) {
        case (.closed, .closed): "not tampered"
        case (.open, .closed): "tampered, the loop closed now"
        case (.open, .open): "tampered, the loop open"
        case (.invalid, .invalid): "TagTamper not enabled"
        default: "a status no tag gives (\(description))"
        }
    }

    /// The two letters: `CC`, `OC`, `OO`, `II`.
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}
