import Dispatch
import NFCSession
import SystemSupport

/// pcscd's readers: listing them, watching them come and go, watching the card in one, and
/// opening one as a device.
public enum PCSCReaders {
    /// The names of the readers pcscd has now, in its order; empty when there are none.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running
    ///   (the message says how to start it).
    public static func names() async throws(NFCReaderError) -> [String] {
        let executor = SerialQueueExecutor(label: "ndeftool.pcsc.list")
        do {
            return try await executor.run { () throws(PCSCError) -> [String] in try PCSCContext().readerNames() }
        } catch {
            throw error.readerError
        }
    }

    /// Opens the reader `url` names: lists pcscd's readers, resolves the URL's name among them
    /// (``PCSCReaderURL/resolve(among:)``), and applies its profile and exclusivity.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running,
    ///   lists no reader, or none matches; ``NFCSession/NFCReaderError/Code/invalidParameter``
    ///   for an ambiguous name.
    public static func open(_ url: PCSCReaderURL) async throws(NFCReaderError) -> PCSCReaderDevice {
        let name = try url.resolve(among: try await names())
        return PCSCReaderDevice(
            readerName: name, profile: url.profile, exclusive: url.exclusive, apduLength: url.apduLength)
    }

    /// Opens the reader a `pcsc:` URL names (see ``PCSCReaderURL``).
    public static func open(url text: String) async throws(NFCReaderError) -> PCSCReaderDevice {
        try await open(try PCSCReaderURL(parsing: text))
    }

    /// The readers as they come and go: first an ``PCSCReaderEvent/added(_:)`` for every reader
    /// there now, then one event per arrival or removal (pcsc-lite's `\\?PnP?\Notification`
    /// pseudo-reader of `SCardGetStatusChange`).
    ///
    /// The stream ends when the consumer stops iterating (the wait is cancelled with
    /// `SCardCancel`) and throws an ``NFCSession/NFCReaderError`` when pcscd is not running or
    /// stops.
    public static func watchReaders() -> AsyncThrowingStream<PCSCReaderEvent, any Error> {
        PCSCStatusWatch.stream(label: "ndeftool.pcsc.watch-readers") { (watch, continuation) throws(PCSCError) in
            guard let context = try watch.establishContext() else { return }
            var known: [String] = []
            var states = [PCSCReaderState(readerName: PCSCContext.plugAndPlayReaderName, currentState: 0)]
            repeat {
                let names = try context.readerNames()
                for name in known where !names.contains(name) { continuation.yield(.removed(name)) }
                for name in names where !known.contains(name) { continuation.yield(.added(name)) }
                known = names
                states[0].currentState = states[0].settledState
            } while try watch.wait(context, &states)
        }
    }

    /// The card presence in `readerName`: an event with the presence now, then one per change
    /// (a tag put down or taken away, or swapped: ``PCSCCardEvent/eventCount`` rises). Changes of
    /// who uses the card are not reported.
    ///
    /// The stream ends after ``PCSCCardEvent/Presence/readerRemoved`` or when the consumer stops
    /// iterating; it throws an ``NFCSession/NFCReaderError`` when pcscd is not running or stops.
    public static func watchCard(in readerName: String) -> AsyncThrowingStream<PCSCCardEvent, any Error> {
        PCSCStatusWatch.stream(label: "ndeftool.pcsc.watch-card") { (watch, continuation) throws(PCSCError) in
            guard let context = try watch.establishContext() else { return }
            var states = [PCSCReaderState(readerName: readerName, currentState: PCSCReaderState.unaware)]
            var last: PCSCCardEvent?
            while try Self.waitForReader(watch, context, &states) {
                let state = states[0]
                states[0].currentState = state.settledState
                guard state.eventState != state.currentState || last == nil else { continue }
                let event = cardEvent(state, readerName: readerName)
                if event.presence == .readerRemoved {
                    continuation.yield(event)
                    return
                }
                guard event != last else { continue }
                continuation.yield(event)
                last = event
            }
        }
    }

    /// A wait of the card watch: a reader pcscd does not know (`SCARD_E_UNKNOWN_READER`) is
    /// reported as a state with the unknown bit, which ends the watch with
    /// ``PCSCCardEvent/Presence/readerRemoved``.
    private static func waitForReader(
        _ watch: PCSCStatusWatch, _ context: PCSCContext, _ states: inout [PCSCReaderState]
    ) throws(PCSCError) -> Bool {
        do {
            return try watch.wait(context, &states)
        } catch {
            guard error.status == PCSCStatusCode.unknownReader else { throw error }
            states[0].eventState = PCSCReaderState.unknown | PCSCReaderState.changed
            return true
        }
    }

    /// The event a reader state stands for.
    static func cardEvent(_ state: PCSCReaderState, readerName: String) -> PCSCCardEvent {
        let bits = state.eventState
        let presence: PCSCCardEvent.Presence
        if bits & (PCSCReaderState.unknown | PCSCReaderState.unavailable) != 0 {
            presence = .readerRemoved
        } else if bits & PCSCReaderState.present != 0 {
            presence = bits & PCSCReaderState.mute != 0 ? .mute : .present
        } else {
            presence = .empty
        }
        return PCSCCardEvent(
            readerName: readerName, presence: presence, atr: presence == .present ? state.atr : [],
            eventCount: state.eventCount)
    }
}

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

/// Finding readers as a payment terminal does: waiting for the first one, and following the
/// list as readers are plugged in and out.
extension PCSCReaders {
    /// The readers pcscd has, waiting up to `timeout` for at least one to appear.
    ///
    /// Returns as soon as one or more readers are listed (all of those listed then), or an empty
    /// list when none came in time. Built on ``watchReaders()`` (pcsc-lite's
    /// `\\?PnP?\Notification`), so a reader plugged in during the wait is seen at once.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running
    ///   (the message says how to start it); ``NFCSession/NFCReaderError/Code/cancelled`` when
    ///   the task is cancelled.
    public static func discover(timeout: Duration) async throws(NFCReaderError) -> [String] {
        let now = try await names()
        if !now.isEmpty || timeout <= .zero { return now }
        let result: Result<[String], NFCReaderError> = await withTaskGroup(
            of: Result<[String], NFCReaderError>?.self
        ) { group in
            group.addTask {
                do {
                    for try await list in readerList() where !list.isEmpty { return .success(list) }
                    return .success([])
                } catch let error as NFCReaderError {
                    return .failure(error)
                } catch {
                    return .failure(NFCReaderError(.readerUnavailable, "watching pcscd's readers failed: \(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .success([])
        }
        if Task.isCancelled { throw NFCReaderError(.cancelled, "the wait for a reader was cancelled") }
        return try result.get()
    }

    /// The list of readers, live: the list now, then the whole list again after every arrival
    /// or removal (``watchReaders()`` folded into lists, in pcscd's order of arrival).
    ///
    /// The first element is the list when watching starts, possibly empty. The stream ends when
    /// the consumer stops iterating, and throws an ``NFCSession/NFCReaderError`` when pcscd is not
    /// running or stops.
    public static func readerList() -> AsyncThrowingStream<[String], any Error> {
        let (stream, continuation) = AsyncThrowingStream<[String], any Error>.makeStream()
        let task = Task {
            var readers: [String] = []
            var isFirst = true
            do {
                let events = watchReaders()
                // The first events describe the readers there now: they are gathered into the first
                // list, which is sent once the watch has reported them all (or at once when empty).
                let initial = try await names()
                for name in initial where !readers.contains(name) { readers.append(name) }
                continuation.yield(readers)
                isFirst = false
                for try await event in events {
                    switch event {
                    case .added(let name):
                        guard !readers.contains(name) else { continue }
                        readers.append(name)
                    case .removed(let name):
                        guard readers.contains(name) else { continue }
                        readers.removeAll { $0 == name }
                    }
                    continuation.yield(readers)
                }
                continuation.finish()
            } catch {
                if isFirst, Task.isCancelled {
                    continuation.finish()
                } else {
                    continuation.finish(throwing: error)
                }
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
