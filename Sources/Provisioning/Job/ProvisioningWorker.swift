import NFCSession
import Synchronization

/// One station's loop in a job: wait for a tag, give it its row (``ProvisioningTagRun``),
/// signal the outcome, wait for the tag to be taken away, again; until the job ends, is
/// stopped, or the reader goes.
struct ProvisioningWorker: Sendable {
    /// The job.
    let job: ProvisioningJob
    /// The station.
    let station: ProvisioningStation
    /// How many times the station's reader came back after it went away.
    let reconnects = ReconnectCount()

    /// Consecutive reader errors (other than a reader gone) after which the station stops.
    static let maximumConsecutiveErrors = 5

    /// Runs the station until the job ends or it cannot go on.
    func run() async {
        let name = station.name
        let onEvent = job.onEvent
        let reconnects = self.reconnects
        let session = NFCTagReaderSession(
            reader: station.reader, options: job.settings.sessionOptions, clock: job.settings.clock
        ) { event in
            switch event {
            case .reconnectStarted:
                onEvent(.session(station: name, event))
                onEvent(.stationState(station: name, .reconnecting))
            case .reconnectSucceeded:
                reconnects.increment()
                onEvent(.session(station: name, event))
            case .reconnectFailed, .multipleTagsFound:
                onEvent(.session(station: name, event))
            default:
                break
            }
        }
        let reason = await loop(session)
        await session.invalidate()
        onEvent(.stationState(station: name, .stopped(reason: reason)))
        await job.ledger.stationStopped(name, reason: reason)
    }

    /// The loop; returns why it stopped.
    private func loop(_ session: NFCTagReaderSession) async -> String {
        var errors = 0
        while true {
            let waited = await nextTag(session)
            let tag: any NFCNDEFTag
            switch waited {
            case .tag(let found):
                tag = found
                errors = 0
            case .stop(let reason):
                return reason
            case .error(let error):
                errors += 1
                job.onEvent(.readerError(station: station.name, reason: error.reason))
                if errors >= Self.maximumConsecutiveErrors {
                    return "\(errors) reader errors in a row, the last: \(error.reason)"
                }
                try? await job.settings.clock.sleep(for: job.settings.checkInterval)
                continue
            }
            let reconnectsBefore = reconnects.value
            let succeeded = await ProvisioningTagRun(job: job, station: station.name, tag: tag).run()
            await signal(succeeded ? .success : .failure)
            if await job.isStopping { return "stopped after the tag in progress" }
            job.onEvent(.stationState(station: station.name, .removeTag))
            if let reason = await waitForRemoval(of: tag, session, reconnectsBefore: reconnectsBefore) {
                return reason
            }
        }
    }

    /// What waiting for a tag gave.
    private enum Waited {
        case tag(any NFCNDEFTag)
        case stop(String)
        case error(NFCReaderError)
    }

    /// Waits for the next tag in slices of the check interval, so a stop, the end of the job or
    /// a used-up supply ends the wait quickly. Every slice polls the reader at least once, and
    /// the tag wait ends the station only after a poll made when the time was up found nothing.
    private func nextTag(_ session: NFCTagReaderSession) async -> Waited {
        job.onEvent(.stationState(station: station.name, .waitingForTag))
        let settings = job.settings
        // From the moment the station is ready to poll.
        let waited = ElapsedTime(on: settings.clock)
        while true {
            if await job.shouldStop() {
                return .stop(await job.isStopping ? "stopped" : "no row is left to write")
            }
            if let hasNoMoreTags = station.hasNoMoreTags, await hasNoMoreTags() {
                return .stop("no more tags at this reader")
            }
            do {
                return .tag(try await session.nextTag(timeout: slice(settings.tagWait, waited)))
            } catch {
                switch error.code {
                case .timeout:
                    // The session looked once more when the slice was up: nothing there.
                    if let wait = settings.tagWait, waited.duration >= wait {
                        return .stop("no tag came within \(Self.text(wait))")
                    }
                case .readerUnavailable, .cancelled: return .stop("the reader is gone: \(error.reason)")
                default: return .error(error)
                }
            }
        }
    }

    /// Waits until `tag` leaves; returns a reason to stop the station, or nil to go on. A tag
    /// left at the reader counts as no new tag: the wait for the next tag runs meanwhile.
    ///
    /// A reader that went away and came back since the tag was found (more reconnects than
    /// `reconnectsBefore`) turned its field off: a tag in the field then is a new arrival, to be
    /// selected again, so that a row interrupted by the reader's loss finishes on the tag still
    /// lying on it.
    private func waitForRemoval(
        of tag: any NFCNDEFTag, _ session: NFCTagReaderSession, reconnectsBefore: Int
    ) async -> String? {
        let settings = job.settings
        let waited = ElapsedTime(on: settings.clock)
        while true {
            if await job.shouldStop() { return await job.isStopping ? "stopped" : "no row is left to write" }
            if reconnects.value != reconnectsBefore { return nil }
            do {
                try await session.waitForRemoval(of: tag, timeout: slice(settings.tagWait, waited))
                return nil
            } catch {
                switch error.code {
                case .timeout:
                    // A reconnect during the wait counts before the time does: the tag on the
                    // reader is then a new arrival, whatever the wait took.
                    if reconnects.value != reconnectsBefore { return nil }
                    if let wait = settings.tagWait, waited.duration >= wait {
                        return "the tag stayed at the reader and no other came within \(Self.text(wait))"
                    }
                case .readerUnavailable, .cancelled: return "the reader is gone: \(error.reason)"
                default: return nil
                }
            }
        }
    }

    /// How long the next call to the session waits: the check interval, or what is left of the
    /// tag wait when that is less (zero when it is up: the session then polls once).
    private func slice(_ tagWait: Duration?, _ waited: ElapsedTime) -> Duration {
        let interval = job.settings.checkInterval
        guard let tagWait else { return interval }
        return min(interval, max(.zero, tagWait - waited.duration))
    }

    /// Shows `signal` on readers with lights and a buzzer; never fails the job.
    private func signal(_ signal: NFCReaderSignal) async {
        guard let signalling = station.reader as? any NFCReaderSignalling, signalling.supportsSignals else { return }
        await signalling.signal(signal)
    }

    /// `2.5 s`.
    static func text(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }
}

extension ProvisioningWorker {
    /// A count of reconnects, shared by a worker and its session's event handler.
    final class ReconnectCount: Sendable {
        private let count = Atomic<Int>(0)

        /// Counts one reconnect.
        func increment() { count.add(1, ordering: .relaxed) }

        /// The reconnects so far.
        var value: Int { count.load(ordering: .relaxed) }
    }
}
