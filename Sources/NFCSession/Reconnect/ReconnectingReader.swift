import Synchronization

/// A reader that comes back by itself, as a payment terminal's SDK treats its readers: when the
/// reader disappears (``NFCReaderError/Code/readerUnavailable``: unplugged, its service
/// restarted), it opens it again with the `reopen` closure, with backoff (``ReconnectPolicy``),
/// and reports ``NFCReaderLifecycleEvent`` values.
///
/// Reconnecting happens only where nothing can be lost: while polling, and when selecting a tag
/// (the session then polls again). A failure while a frame or APDU is exchanged is NEVER retried:
/// it reaches the caller as it is (a write that broke surfaces with
/// ``NFCReaderError/mayBeHalfWritten``), and the reader reconnects on the next poll, so the
/// write's `resume` can run. A reconnect can be cancelled (``cancelReconnect()``) and the whole
/// behaviour turned off (``ReconnectPolicy/isEnabled``, ``setReconnectEnabled(_:)``), leaving
/// disconnects to the caller.
public actor ReconnectingReader: NFCReaderLifecycleReporting {
    /// Opens the reader anew.
    public typealias Opener = @Sendable () async throws(NFCReaderError) -> any NFCReaderDevice

    /// The name of the reader first given.
    public nonisolated let name: String
    /// The capabilities of the reader first given.
    public nonisolated let capabilities: NFCReaderCapabilities
    /// How reconnecting goes.
    public nonisolated let policy: ReconnectPolicy
    /// Whether the first reader has lights or a buzzer (``NFCReaderSignalling``); a reopened
    /// reader is the same device.
    public nonisolated let supportsSignals: Bool

    /// The link (working, lost, reconnecting, closed), whether reconnecting is on and the
    /// observers: one value under one lock, since the caller may cancel or observe from anywhere.
    private nonisolated let state: Mutex<ReconnectState>
    private let reopen: Opener
    /// The reader now open; nil between a loss and the reconnect that replaces it.
    private var current: (any NFCReaderDevice)?

    /// Wraps `reader`, opened already; `reopen` opens it again after it went away.
    public init(_ reader: any NFCReaderDevice, policy: ReconnectPolicy = ReconnectPolicy(), reopen: @escaping Opener) {
        name = reader.name
        capabilities = reader.capabilities
        supportsSignals = (reader as? any NFCReaderSignalling)?.supportsSignals ?? false
        self.policy = policy
        self.reopen = reopen
        current = reader
        state = Mutex(ReconnectState(isEnabled: policy.isEnabled))
    }

    /// Opens a reader with `open` and wraps it, reopening with the same closure.
    public static func open(
        policy: ReconnectPolicy = ReconnectPolicy(), _ open: @escaping Opener
    ) async throws(NFCReaderError) -> ReconnectingReader {
        ReconnectingReader(try await open(), policy: policy, reopen: open)
    }

    public nonisolated func observeLifecycle(_ handler: @escaping @Sendable (NFCReaderLifecycleEvent) -> Void) {
        state.withLock { $0.observers.append(handler) }
    }

    /// Turns reconnecting on or off from now on.
    public nonisolated func setReconnectEnabled(_ isEnabled: Bool) {
        state.withLock { $0.isEnabled = isEnabled }
    }

    /// Whether the reader reconnects.
    public nonisolated var isReconnectEnabled: Bool { state.withLock { $0.isEnabled } }

    /// Whether a reconnect is in progress.
    public nonisolated var isReconnecting: Bool { state.withLock { $0.isReconnecting } }

    /// Stops a reconnect in progress: it ends with ``NFCReaderLifecycleEvent/reconnectFailed(_:)``
    /// and the call waiting on it throws ``NFCReaderError/Code/cancelled``. Does nothing when no
    /// reconnect is in progress.
    public nonisolated func cancelReconnect() {
        state.withLock { $0.cancelReconnect() }
    }

    // MARK: - NFCReaderDevice

    /// Polls the reader, reconnecting first when it went away (and when polling finds it gone).
    /// A connection to a tag that breaks while polling (the tag arriving or leaving) is reported
    /// as no tag, so that the session polls again.
    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try checkOpen()
        let (lostReason, isEnabled) = state.withLock { ($0.lostReason, $0.isEnabled) }
        if let lostReason, isEnabled { return try await reconnect(lostReason) }
        let reader = try currentReader()
        do {
            let targets = try await reader.pollTargets()
            state.withLock { $0.worked() }
            return targets
        } catch {
            guard isReconnectEnabled else { throw error }
            switch error.code {
            case .readerUnavailable: return try await reconnect(error.reason)
            case .tagConnectionLost: return []
            default: throw error
            }
        }
    }

    /// Selects `target`; when the reader went away meanwhile it reconnects and throws
    /// ``NFCReaderError/Code/tagConnectionLost`` so that the session polls again.
    public func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try checkOpen()
        do {
            try await currentReader().select(target)
        } catch {
            guard error.code == .readerUnavailable, isReconnectEnabled else { throw error }
            _ = try await reconnect(error.reason)
            throw NFCReaderError(
                .tagConnectionLost, "the reader reconnected after \(error.reason): the tag must be found again")
        }
    }

    /// Passes the frame on, never retrying it; a reader that went away is reconnected on the
    /// next poll.
    public func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try checkOpen()
        do {
            return try await currentReader().transceive(frame)
        } catch {
            noteLoss(error)
            throw error
        }
    }

    /// Passes the MIFARE Classic command on, never retrying it (an authentication is never
    /// repeated blindly); a reader that went away is reconnected on the next poll.
    public func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try checkOpen()
        do {
            return try await currentReader().transceiveClassic(frame)
        } catch {
            noteLoss(error)
            throw error
        }
    }

    /// Passes the backdoor probe on, never retrying it.
    public func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool {
        try checkOpen()
        do {
            return try await currentReader().probeGen1aBackdoor()
        } catch {
            noteLoss(error)
            throw error
        }
    }

    /// Passes the APDU on, never retrying it; a reader that went away is reconnected on the next
    /// poll.
    public func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try checkOpen()
        do {
            return try await currentReader().sendAPDU(apdu)
        } catch {
            noteLoss(error)
            throw error
        }
    }

    public func releaseTargets() async {
        await current?.releaseTargets()
    }

    /// Closes the reader; a reconnect in progress is cancelled.
    public func close() async {
        state.withLock { $0.close() }
        let reader = current
        current = nil
        await reader?.close()
    }

    // MARK: - Reconnecting

    /// Opens the reader again until it answers a poll, with backoff; returns that poll's targets.
    private func reconnect(_ reason: String) async throws(NFCReaderError) -> [NFCTargetInfo] {
        guard state.withLock({ $0.beginReconnect(reason) }) else {
            try checkOpen()
            return []
        }
        emit(.reconnectStarted(reason: reason))
        if let old = current {
            current = nil
            await old.close()
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: max(.zero, policy.timeout))
        var failures = 0
        var lastError = NFCReaderError(.readerUnavailable, reason)
        while true {
            try checkCancelled()
            do {
                let targets = try await attempt()
                emit(.reconnectSucceeded(readerName: current?.name ?? name))
                return targets
            } catch {
                guard error.code == .readerUnavailable || error.code == .tagConnectionLost else {
                    try fail(error)
                }
                lastError = error
            }
            failures += 1
            if let maximum = policy.maximumAttempts, failures >= maximum {
                try fail(
                    NFCReaderError(
                        .readerUnavailable,
                        "the reader did not come back after \(failures) attempts: \(lastError.reason)"))
            }
            // The last attempt is made at the deadline, so "did not come back" always means "it was
            // not back when we last looked", however late this task was scheduled.
            let now = clock.now
            guard now < deadline else {
                try fail(
                    NFCReaderError(
                        .readerUnavailable, "the reader did not come back in \(policy.timeout): \(lastError.reason)"))
            }
            try await pause(min(policy.delay(afterFailedAttempts: failures), now.duration(to: deadline)), clock: clock)
        }
    }

    /// One attempt: opens the reader and polls it.
    private func attempt() async throws(NFCReaderError) -> [NFCTargetInfo] {
        let reader = try await reopen()
        do {
            let targets = try await reader.pollTargets()
            current = reader
            state.withLock { $0.worked() }
            return targets
        } catch {
            await reader.close()
            throw error
        }
    }

    /// Reports the failure and throws it.
    private func fail(_ error: NFCReaderError) throws(NFCReaderError) -> Never {
        state.withLock { $0.reconnectFailed() }
        emit(.reconnectFailed(error))
        throw error
    }

    /// Sleeps `duration` in short slices, so a cancellation is seen quickly.
    private func pause(_ duration: Duration, clock: ContinuousClock) async throws(NFCReaderError) {
        let end = clock.now.advanced(by: duration)
        while clock.now < end {
            try checkCancelled()
            let slice = min(.milliseconds(20), clock.now.duration(to: end))
            try? await DispatchTimerClock().sleep(for: slice)
        }
        try checkCancelled()
    }

    /// Throws ``NFCReaderError/Code/cancelled`` (after reporting it) when the reconnect was
    /// cancelled, the reader closed, or the task cancelled.
    private func checkCancelled() throws(NFCReaderError) {
        if state.withLock({ $0.mustStopReconnecting }) || Task.isCancelled {
            try fail(NFCReaderError(.cancelled, "reconnecting to the reader \"\(name)\" was cancelled"))
        }
    }

    /// Remembers that the reader went away, for the next poll.
    private func noteLoss(_ error: NFCReaderError) {
        if error.code == .readerUnavailable { state.withLock { $0.lost(error.reason) } }
    }

    func currentReader() throws(NFCReaderError) -> any NFCReaderDevice {
        guard let current else {
            throw NFCReaderError(
                .readerUnavailable,
                "the reader \"\(name)\" is gone: \(state.withLock { $0.lostReason } ?? "it did not come back")")
        }
        return current
    }

    private func checkOpen() throws(NFCReaderError) {
        if state.withLock({ $0.isClosed }) {
            throw NFCReaderError(.readerUnavailable, "the reader \"\(name)\" is closed")
        }
    }

    private func emit(_ event: NFCReaderLifecycleEvent) {
        let observers = state.withLock { $0.observers }
        for observer in observers { observer(event) }
    }
}

extension ReconnectingReader: NFCReaderSignalling {
    /// Shows `signal` on the reader now open; false when it has no lights, or none is open (a
    /// reconnect is under way).
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard supportsSignals, let reader = try? currentReader() as? any NFCReaderSignalling else { return false }
        return await reader.signal(signal)
    }
}

// MARK: - ReconnectPolicy

/// How ``ReconnectingReader`` tries to get a reader back: exponential backoff between attempts,
/// within a number of attempts and a time limit.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Whether the reader reconnects at all; false passes every failure to the caller as it is.
    public var isEnabled: Bool
    /// The pause after the first failed attempt.
    public var initialDelay: Duration
    /// The longest pause: each failed attempt doubles the pause up to this.
    public var maximumDelay: Duration
    /// The most attempts (nil: as many as fit in ``timeout``).
    public var maximumAttempts: Int?
    /// How long to keep trying: the last attempt is made when this time is up.
    public var timeout: Duration

    /// Creates a policy; the defaults retry after 0.1 s, 0.2 s, 0.4 s ... up to 2 s between
    /// attempts, for 30 seconds.
    public init(
        isEnabled: Bool = true,
        initialDelay: Duration = .milliseconds(100),
        maximumDelay: Duration = .seconds(2),
        maximumAttempts: Int? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.timeout = timeout
    }

    /// No reconnecting: the caller handles disconnects.
    public static let disabled = ReconnectPolicy(isEnabled: false)

    /// The pause after `failedAttempts` failed attempts (1 or more).
    public func delay(afterFailedAttempts failedAttempts: Int) -> Duration {
        var delay = max(.zero, initialDelay)
        var count = 1
        while count < failedAttempts, delay < maximumDelay {
            delay *= 2
            count += 1
        }
        return min(delay, max(.zero, maximumDelay))
    }
}

// MARK: - NFCReaderLifecycleEvent

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
