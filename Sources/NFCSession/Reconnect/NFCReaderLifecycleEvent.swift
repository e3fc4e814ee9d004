/// A change in a reader's connection, reported by readers that reconnect by themselves
/// (``ReconnectingReader``) and passed on by sessions as ``NFCSessionEvent`` values.
public enum NFCReaderLifecycleEvent: Sendable, Hashable, CustomStringConvertible {
    /// The reader went away (unplugged, its service stopped): reconnecting begins. `reason` says
    /// what was seen.
    case reconnectStarted(reason: String)
    /// The reader is back, under `readerName`.
    case reconnectSucceeded(readerName: String)
    /// Reconnecting gave up (attempts or time used up, or cancelled): `error` is the last failure.
    case reconnectFailed(NFCReaderError)

    public var description: String {
        switch self {
        case .reconnectStarted: "Reader disconnected: reconnecting..."
        case .reconnectSucceeded: "Reader back"
        case .reconnectFailed(let error): "Reader did not come back: \(error.reason)"
        }
    }
}

/// A reader that reports its own connection changes (``NFCReaderLifecycleEvent``); a session on it
/// passes them on as ``NFCSessionEvent`` values. Wrappers of readers forward the registration.
public protocol NFCReaderLifecycleReporting: NFCReaderDevice {
    /// Adds `handler`, called with every later event, in order, from the reader's executor:
    /// keep it short.
    func observeLifecycle(_ handler: @escaping @Sendable (NFCReaderLifecycleEvent) -> Void)
}
