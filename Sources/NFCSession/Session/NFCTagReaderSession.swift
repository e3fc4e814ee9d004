import NDEF
import Synchronization
import TagMemory

/// A session on one reader that waits for tags and hands them out, as CoreNFC's
/// `NFCTagReaderSession` does, with async calls instead of a delegate.
///
/// ``nextTag(timeout:)`` polls (ISO/IEC 14443-3 REQA and anticollision, through
/// ``NFCReaderDevice/pollTargets()``) until exactly one tag is in the field, selects it, identifies
/// a Type 2 chip (``Type2Identification``: GET_VERSION, else the CC and page count), and returns it.
/// With two or more tags in the field none is selected or sent a command: the session reports
/// ``NFCSessionEvent/multipleTagsFound(count:)`` and polls again after a pause, or throws
/// ``NFCReaderError/Code/multipleTagsFound`` when ``Options/failOnMultipleTags`` is set.
///
/// Events for a person (waiting, several tags, detected, removed, and a reader's reconnects when
/// it reports them, ``NFCReaderLifecycleReporting``) arrive on ``events`` and, when given, through
/// the event handler, in order. The session stays open until ``invalidate()``; the
/// reader stays open too, and is the caller's to close.
public actor NFCTagReaderSession {
    /// The reader.
    public nonisolated let reader: any NFCReaderDevice
    /// How the session polls.
    public nonisolated let options: Options
    /// The clock the session waits on between polls and measures its timeouts with.
    public nonisolated let clock: any Clock<Duration>
    /// The session's events, ending after ``NFCSessionEvent/invalidated``.
    public nonisolated let events: AsyncStream<NFCSessionEvent>

    private let continuation: AsyncStream<NFCSessionEvent>.Continuation
    private let eventHandler: (@Sendable (NFCSessionEvent) -> Void)?
    private let lifetime = SessionLifetime()
    private var hasBegun = false
    private var isWaiting = false
    private var tagsHandedOut = 0

    /// Creates a session on `reader`.
    ///
    /// - Parameters:
    ///   - reader: the reader; the session does not close it.
    ///   - options: polling options.
    ///   - clock: the clock the session pauses on between polls and measures timeouts with: the
    ///     continuous clock, or in tests one whose pauses take no time.
    ///   - eventHandler: called with every event, in order, on the session's executor: keep it short.
    public init(
        reader: any NFCReaderDevice, options: Options = Options(), clock: any Clock<Duration> = ContinuousClock(),
        eventHandler: (@Sendable (NFCSessionEvent) -> Void)? = nil
    ) {
        self.reader = reader
        self.options = options
        self.clock = clock
        self.eventHandler = eventHandler
        let (stream, continuation) = AsyncStream.makeStream(
            of: NFCSessionEvent.self, bufferingPolicy: .bufferingNewest(256))
        self.events = stream
        self.continuation = continuation
        // A reader that reconnects by itself reports it through the session, while it is valid.
        if let reporting = reader as? any NFCReaderLifecycleReporting {
            let lifetime = self.lifetime
            reporting.observeLifecycle { event in
                guard !lifetime.isInvalidated else { return }
                let sessionEvent = NFCSessionEvent(event)
                continuation.yield(sessionEvent)
                eventHandler?(sessionEvent)
            }
        }
    }

    /// Whether ``invalidate()`` was called.
    public nonisolated var isInvalidated: Bool { lifetime.isInvalidated }

    /// Starts the session: reports ``NFCSessionEvent/began(readerName:)`` once. ``nextTag(timeout:)``
    /// begins the session itself when this was not called.
    public func begin() {
        guard !hasBegun, !lifetime.isInvalidated else { return }
        hasBegun = true
        emit(.began(readerName: reader.name))
    }

    /// Waits for exactly one tag in the field and returns it, selected and identified: an
    /// ``NFCMiFareTag`` for a Type 2 tag, an ``NFCISO7816Tag`` for an ISO-DEP one (wrap it in an
    /// ``NFCNTAG424Tag`` for an NTAG 424 DNA's own commands). Later versions hand out more kinds:
    /// cast to the ones you handle and leave the rest to a default branch.
    ///
    /// A tag that is still in the field from an earlier call is returned again: call
    /// ``waitForRemoval(of:timeout:)`` between tags. A tag that leaves while it is selected or
    /// identified is forgotten and polling goes on.
    ///
    /// The reader is always polled at least once, and the call ends with a timeout only after a
    /// poll that came when the time was up found no single tag: a task that was not scheduled for
    /// a while looks again before it gives up. A timeout of zero polls exactly once.
    ///
    /// - Parameter timeout: how long to wait; nil waits until cancelled.
    /// - Throws: ``NFCReaderError/Code/timeout`` when no single tag came in time;
    ///   ``NFCReaderError/Code/cancelled`` when the task is cancelled, the session invalidated, or
    ///   (with ``Options/invalidateAfterFirstRead``) a tag was already handed out;
    ///   ``NFCReaderError/Code/multipleTagsFound`` with ``Options/failOnMultipleTags``;
    ///   ``NFCReaderError/Code/invalidParameter`` when another `nextTag` is waiting; the reader's
    ///   errors (``NFCReaderError/Code/readerUnavailable``).
    public func nextTag(timeout: Duration? = nil) async throws(NFCReaderError) -> any NFCNDEFTag {
        begin()
        if options.invalidateAfterFirstRead, tagsHandedOut > 0 {
            throw NFCReaderError(.cancelled, "the session hands out one tag only (invalidateAfterFirstRead)")
        }
        guard !isWaiting else {
            throw NFCReaderError(.invalidParameter, "another nextTag call is already waiting on this session")
        }
        isWaiting = true
        defer { isWaiting = false }
        let waited = ElapsedTime(on: clock)
        var reported: NFCSessionEvent?
        while true {
            try checkActive()
            let targets = try await reader.pollTargets()
            try checkActive()
            var event: NFCSessionEvent = .waitingForTag
            var delay = options.pollInterval
            if targets.count > 1 {
                event = .multipleTagsFound(count: targets.count)
                if options.failOnMultipleTags {
                    emit(event)
                    throw NFCReaderError(
                        .multipleTagsFound, "\(targets.count) tags are in the field: none was touched")
                }
                delay = options.multipleTagPause
            } else if let target = targets.first {
                if !isHandled(target) {
                    event = .tagNotSupported(target)
                } else if let tag = try await open(target) {
                    tagsHandedOut += 1
                    return tag
                }
            }
            // Each state is reported once, when it begins.
            if event != reported {
                emit(event)
                reported = event
            }
            try await pause(delay, timeout: timeout, waited: waited)
        }
    }

    /// Waits until `tag` is no longer in the field, reporting ``NFCSessionEvent/tagRemoved(_:)``.
    ///
    /// - Throws: ``NFCReaderError/Code/timeout``, ``NFCReaderError/Code/cancelled`` and the
    ///   reader's errors.
    public func waitForRemoval(of tag: any NFCNDEFTag, timeout: Duration? = nil) async throws(NFCReaderError) {
        let waited = ElapsedTime(on: clock)
        let uid = tag.identifier
        while true {
            try checkActive()
            let targets = try await reader.pollTargets()
            if !targets.contains(where: { $0.uid == uid }) {
                emit(.tagRemoved(tag.targetInfo))
                return
            }
            try await pause(options.pollInterval, timeout: timeout, waited: waited)
        }
    }

    /// Ends the session: its tags can no longer be used (their operations throw
    /// ``NFCReaderError/Code/cancelled``), the reader releases the selected tag, and ``events``
    /// ends after ``NFCSessionEvent/invalidated``. The reader itself stays open.
    public func invalidate() async {
        guard !lifetime.isInvalidated else { return }
        lifetime.invalidate()
        await reader.releaseTargets()
        emit(.invalidated)
        continuation.finish()
    }

    /// Whether the session hands out tags like `target`: Type 2, MIFARE Classic, and ISO-DEP when
    /// the reader exchanges APDUs.
    private func isHandled(_ target: NFCTargetInfo) -> Bool {
        target.kind == .type2 || target.kind == .mifareClassic
            || target.kind == .type4 && reader.capabilities.supportsISODEP
    }

    /// Selects and identifies `target`; nil when it left meanwhile (or is not handled).
    private func open(_ target: NFCTargetInfo) async throws(NFCReaderError) -> (any NFCNDEFTag)? {
        do {
            switch target.kind {
            case .type2:
                try await reader.select(target)
                let identification = try await Type2Identifier(reader: reader, target: target).identify()
                try checkActive()
                emit(.tagDetected(target, chip: identification.chip?.name))
                return NFCMiFareTag(reader: reader, target: target, identification: identification, lifetime: lifetime)
            case .mifareClassic:
                try await reader.select(target)
                try checkActive()
                let card = NFCMiFareClassicTag(reader: reader, target: target, lifetime: lifetime)
                emit(.tagDetected(target, chip: card.type.description))
                return card
            case .type4 where reader.capabilities.supportsISODEP:
                try await reader.select(target)
                try checkActive()
                emit(.tagDetected(target, chip: nil))
                return NFCISO7816Tag(reader: reader, target: target, lifetime: lifetime)
            default:
                return nil
            }
        } catch {
            // The tag left between polling and identification: keep waiting for one.
            if error.code == .tagConnectionLost { return nil }
            throw error
        }
    }

    /// Throws ``NFCReaderError/Code/cancelled`` when the task is cancelled or the session invalidated.
    private func checkActive() throws(NFCReaderError) {
        if lifetime.isInvalidated { throw NFCReaderError(.cancelled, "the session was invalidated") }
        if Task.isCancelled { throw NFCReaderError(.cancelled, "the task waiting for a tag was cancelled") }
    }

    /// Sleeps `duration`, or what is left of `timeout` when that is less; throws
    /// ``NFCReaderError/Code/timeout`` when no time is left (called right after a poll, so the
    /// verdict always follows a look at the field).
    private func pause(
        _ duration: Duration, timeout: Duration?, waited: ElapsedTime
    ) async throws(NFCReaderError) {
        var wait = max(.zero, duration)
        // Timeouts beyond a year wait as long as nil does.
        if let timeout, timeout < .seconds(31_536_000) {
            let remaining = timeout - waited.duration
            if remaining <= .zero { throw NFCReaderError(.timeout, "no single tag came in time") }
            wait = min(wait, remaining)
        }
        do {
            try await clock.sleep(for: wait)
        } catch {
            throw NFCReaderError(.cancelled, "the task waiting for a tag was cancelled")
        }
    }

    /// Reports `event` on the stream and to the handler.
    private func emit(_ event: NFCSessionEvent) {
        continuation.yield(event)
        eventHandler?(event)
    }
}

/// Whether the session that handed out a tag is still valid: tags check it before each operation.
final class SessionLifetime: Sendable {
    private let invalidated = Mutex(false)

    /// Whether ``invalidate()`` was called.
    var isInvalidated: Bool { invalidated.withLock { $0 } }

    /// Marks the session invalid for good.
    func invalidate() { invalidated.withLock { $0 = true } }
}

extension NFCTagReaderSession {
    /// How a session polls.
    public struct Options: Sendable, Hashable {
        /// The pause between polls while no tag is in the field.
        public var pollInterval: Duration
        /// The pause after polling found two or more tags, before polling again (the time a person
        /// needs to take a tag away).
        public var multipleTagPause: Duration
        /// Whether two or more tags in the field end ``NFCTagReaderSession/nextTag(timeout:)`` with
        /// ``NFCReaderError/Code/multipleTagsFound`` instead of waiting for all but one to leave.
        public var failOnMultipleTags: Bool
        /// Whether the session hands out one tag only, as CoreNFC's `invalidateAfterFirstRead`:
        /// a second ``NFCTagReaderSession/nextTag(timeout:)`` throws ``NFCReaderError/Code/cancelled``.
        /// Default false: the session stays open, and its tags usable, until
        /// ``NFCTagReaderSession/invalidate()``.
        public var invalidateAfterFirstRead: Bool

        /// Creates options.
        public init(
            pollInterval: Duration = .milliseconds(100),
            multipleTagPause: Duration = .milliseconds(500),
            failOnMultipleTags: Bool = false,
            invalidateAfterFirstRead: Bool = false
        ) {
            self.pollInterval = pollInterval
            self.multipleTagPause = multipleTagPause
            self.failOnMultipleTags = failOnMultipleTags
            self.invalidateAfterFirstRead = invalidateAfterFirstRead
        }
    }
}

/// The time passed on a clock since a start, for code that is handed its clock as
/// `any Clock<Duration>` (a test passes one whose sleeps take no time).
package struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts counting now, on `clock`.
    package init(on clock: any Clock<Duration>) {
        read = Self.reader(clock)
    }

    /// The time passed since the start.
    package var duration: Duration { read() }

    private static func reader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
