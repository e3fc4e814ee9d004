/// The state ``ReconnectingReader`` keeps about its reader's link, as one value changed only by
/// its transitions: working, lost (reconnect at the next poll), reconnecting (perhaps asked to
/// stop), or closed. Whether reconnecting is turned on and who observes it are kept with it, so
/// the reader reads and changes all of it under one lock.
///
/// No I/O and no clock: tests drive it transition by transition.
struct ReconnectState: Sendable {
    /// The reader's link.
    enum Link: Sendable, Hashable {
        /// The reader answers.
        case working
        /// The reader went away for `reason`; the next poll reconnects.
        case lost(reason: String)
        /// A reconnect after `reason` is under way; `cancelRequested` once it was asked to stop.
        case reconnecting(reason: String, cancelRequested: Bool)
        /// Closed: every call fails.
        case closed
    }

    /// The link now.
    private(set) var link: Link = .working
    /// Whether the reader reconnects (``ReconnectPolicy/isEnabled``, changed by the caller).
    var isEnabled: Bool
    /// The observers of ``NFCReaderLifecycleEvent`` values.
    var observers: [@Sendable (NFCReaderLifecycleEvent) -> Void] = []

    init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// Why the reader must be reconnected, while it is lost or reconnecting.
    var lostReason: String? {
        switch link {
        case .lost(let reason), .reconnecting(let reason, _): reason
        case .working, .closed: nil
        }
    }

    /// Whether a reconnect is under way.
    var isReconnecting: Bool {
        if case .reconnecting = link { return true }
        return false
    }

    /// Whether the reader was closed.
    var isClosed: Bool { link == .closed }

    /// Whether the reconnect under way must stop: it was cancelled, or the reader closed.
    var mustStopReconnecting: Bool {
        switch link {
        case .reconnecting(_, let cancelRequested): cancelRequested
        case .closed: true
        case .working, .lost: false
        }
    }

    /// The reader answered a poll, or came back.
    mutating func worked() {
        if !isClosed { link = .working }
    }

    /// The reader went away (``NFCReaderError/Code/readerUnavailable`` during an exchange): the
    /// next poll reconnects. A reconnect under way or a closed reader stays as it is.
    mutating func lost(_ reason: String) {
        switch link {
        case .working, .lost: link = .lost(reason: reason)
        case .reconnecting, .closed: break
        }
    }

    /// A reconnect after `reason` begins; false when the reader is closed.
    mutating func beginReconnect(_ reason: String) -> Bool {
        guard !isClosed else { return false }
        link = .reconnecting(reason: reason, cancelRequested: false)
        return true
    }

    /// The caller asks the reconnect under way to stop; nothing happens when none is.
    mutating func cancelReconnect() {
        if case .reconnecting(let reason, _) = link { link = .reconnecting(reason: reason, cancelRequested: true) }
    }

    /// The reconnect gave up (or was cancelled): the reader is still lost, and the next poll
    /// tries again.
    mutating func reconnectFailed() {
        if case .reconnecting(let reason, _) = link { link = .lost(reason: reason) }
    }

    /// The reader is closed for good.
    mutating func close() {
        link = .closed
    }
}
