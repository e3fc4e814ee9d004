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
            guard error.code == PCSCStatusCode.unknownReader else { throw error }
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
