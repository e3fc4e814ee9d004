import NFCSession
import TagSimulator

extension SimulatedReader {
    /// The reader being pulled out of its socket and plugged back.
    struct Unplugging: Sendable {
        /// The tag commands still to carry out before the reader is pulled out; nil: not armed.
        var remaining: Int?
        /// How long the reader stays away once pulled out; nil: for good.
        var duration: Duration?
        /// When the reader was pulled out; nil while it is plugged in (or back and reconnected).
        var since: ContinuousClock.Instant?
        /// The tag commands carried out since the reader opened.
        var commandCount = 0

        /// Whether the reader is away: pulled out and not reconnected since.
        var isAway: Bool { since != nil }

        /// Whether the reader, pulled out, is plugged back in by now.
        func isBack(at now: ContinuousClock.Instant) -> Bool {
            guard let since, let duration else { return false }
            return since.duration(to: now) >= duration
        }

        /// The ``NFCSession/NFCReaderError/Code/readerUnavailable`` error of every call while the
        /// reader is away.
        static func error(_ unplugging: Unplugging) -> NFCReaderError {
            let now = ContinuousClock.now
            let detail: String
            if unplugging.isBack(at: now) {
                detail = "it is plugged back in: reconnect to use it again"
            } else if let since = unplugging.since, let duration = unplugging.duration {
                let left = duration - since.duration(to: now)
                let milliseconds = max(1, Int((left / .milliseconds(1)).rounded(.up)))
                detail = "it is back in \(milliseconds) ms"
            } else {
                detail = "it does not come back"
            }
            return NFCReaderError(.readerUnavailable, "simulated reader unplugged: \(detail)")
        }
    }

    /// Pulls the reader out after `count` more tag commands (Type 2 frames and APDUs that reach
    /// the field, whatever tag of a supply they go to): those are carried out and answered, then
    /// every call (``pollTargets()``, ``select(_:)``, ``transceive(_:)``, ``sendAPDU(_:)``)
    /// throws ``NFCSession/NFCReaderError/Code/readerUnavailable`` ("simulated reader unplugged"),
    /// ``signal(_:)`` returns false and ``releaseTargets()`` does nothing, until ``reconnect()``
    /// succeeds, `duration` after the reader was pulled out (nil: never). The field goes off
    /// while the reader is away (the tags lose their session state, ISO/IEC 14443-3 6.2) and
    /// holds the same tags when it is back. `count` 0 pulls it out now. Replaces an unplug armed
    /// before; fires once.
    ///
    /// `unplug-after=N&unplug-ms=M` in a URL arms it when the reader opens.
    public func unplug(afterCommands count: Int, for duration: Duration?) {
        withState { state in
            state.unplugging.duration = duration
            if count <= 0 {
                state.unplugging.remaining = nil
                Self.pullOut(&state)
            } else {
                state.unplugging.remaining = count
            }
        }
    }

    /// Pulls the reader out now, for `duration` (nil: for good): see ``unplug(afterCommands:for:)``.
    public func unplug(for duration: Duration?) {
        unplug(afterCommands: 0, for: duration)
    }

    /// Opens the reader again after it was unplugged (and plugged back) or closed: the way back
    /// for the `reopen` closure of a ``NFCSession/ReconnectingReader``
    /// (`ReconnectingReader(reader) { try await reader.reconnect(); return reader }`).
    ///
    /// Back from an unplug, the field comes on with the tags it held (IDLE); the supply's tag in
    /// the field counts as not worked on yet, so the operator leaves it until the reader selects
    /// it again (a job broken by the unplug can finish on it). Does nothing to a reader that is
    /// plugged in and open.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` while the reader is still
    ///   away (the time of the unplug has not passed, or it does not come back).
    public func reconnect() async throws(NFCReaderError) {
        try withState { (state: inout State) throws(NFCReaderError) in
            if state.unplugging.isAway {
                guard state.unplugging.isBack(at: .now) else { throw Unplugging.error(state.unplugging) }
                state.unplugging.since = nil
                state.field.fieldOn()
                state.supply?.keepCurrent(in: state.field)
            }
            state.isClosed = false
        }
    }

    /// Whether the reader is unplugged: pulled out and not reconnected since.
    public var isUnplugged: Bool { withState { $0.unplugging.isAway } }

    /// The tag commands (Type 2 frames and APDUs that reached the field) carried out since the
    /// reader opened, across every tag: what `unplug-after` counts.
    public var tagCommandCount: Int { withState { $0.unplugging.commandCount } }

    /// Counts a command that reached the field; pulls the reader out when it was the last
    /// before an armed unplug.
    static func noteCommand(_ state: inout State) {
        state.unplugging.commandCount += 1
        guard let remaining = state.unplugging.remaining else { return }
        if remaining <= 1 {
            state.unplugging.remaining = nil
            pullOut(&state)
        } else {
            state.unplugging.remaining = remaining - 1
        }
    }

    /// The reader goes away: its field goes off.
    private static func pullOut(_ state: inout State) {
        state.unplugging.since = .now
        state.field.fieldOff()
    }
}
