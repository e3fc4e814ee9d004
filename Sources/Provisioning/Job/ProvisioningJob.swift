import NDEF
import NFCSession
import Synchronization
import SystemSupport
import TagMemory

/// A batch provisioning job run on one or more readers: each tag presented gets the next row
/// of the plan (or finishes the row it holds), written, verified, then locked and given a
/// password when the settings ask, every step recorded in the job's ledger before and after it
/// happens, so the job is exactly-once across crashes.
///
/// The ledger is the file journal (``init(plan:journal:settings:build:onEvent:)``, see
/// ``ProvisioningJournal``) or any other ``ProvisioningLedger``, such as a database that
/// stations on many machines share (``init(ledger:settings:build:onEvent:)``).
///
/// One `ProvisioningWorker` per station (reader), each on a task executor of its own, asks
/// the ledger for a row when a tag comes (``ProvisioningLedger/assign(uid:station:)``): it
/// refuses a tag already done in this job, hands a tag that holds an unfinished row that row
/// again, and gives any other tag the next row, so two readers never get the same row. A row is
/// bound to its tag before the first write: from then on only that tag can finish it.
///
/// The job ends when every row is done and no tag is in progress, when ``stop(reason:)`` is
/// called (each station finishes the tag in hand first), when every station stopped (no tag
/// within the wait, no more tags, a reader gone), or when the ledger fails.
public final class ProvisioningJob: Sendable {
    /// Builds the message of a row for the tag with a UID; throws when the row cannot be built.
    public typealias MessageBuilder = @Sendable (ProvisioningRow, _ uid: [UInt8]) throws -> NFCNDEFMessage
    /// Builds the message of a row for the tag with a UID, with the UID or NFC counter mirror it
    /// sets up (NTAG213/215/216 8.7); throws when the row cannot be built.
    public typealias MirroredMessageBuilder = @Sendable (ProvisioningRow, _ uid: [UInt8]) throws -> ProvisioningMessage
    /// Receives the job's events, in order per station; called on the workers' tasks: keep it short.
    public typealias EventHandler = @Sendable (ProvisioningJobEvent) -> Void

    /// The ledger every step is recorded in.
    public let ledger: any ProvisioningLedger
    /// The journal, when the ledger is the file journal.
    public let journal: ProvisioningJournal?
    /// What is done to each tag.
    public let settings: ProvisioningJobSettings
    let build: MirroredMessageBuilder
    let onEvent: EventHandler
    private let stopRequest = Mutex<String?>(nil)
    private let tally = Mutex(Tally())

    /// What this run did, counted as the stations report it.
    struct Tally {
        var done = 0
        var locked = 0
        var passwords = 0
        var refusedTags = 0
        var alreadyDoneTags = 0
    }

    /// A job over `journal` (created or resumed for `plan`), building each row's message with
    /// `build` and reporting to `onEvent`.
    public convenience init(
        plan: ProvisioningPlan, journal: ProvisioningJournal, settings: ProvisioningJobSettings,
        build: @escaping MessageBuilder, onEvent: @escaping EventHandler = { _ in }
    ) {
        self.init(
            plan: plan, journal: journal, settings: settings,
            buildMirrored: { row, uid in ProvisioningMessage(try build(row, uid)) }, onEvent: onEvent)
    }

    /// A job over `journal` whose messages may set up the UID or NFC counter mirror.
    public convenience init(
        plan: ProvisioningPlan, journal: ProvisioningJournal, settings: ProvisioningJobSettings,
        buildMirrored: @escaping MirroredMessageBuilder, onEvent: @escaping EventHandler = { _ in }
    ) {
        self.init(
            ledger: JournalLedger(plan: plan, journal: journal), journal: journal, settings: settings,
            build: buildMirrored, onEvent: onEvent)
    }

    /// A job over `ledger`, building each row's message with `build` and reporting to `onEvent`.
    public convenience init(
        ledger: any ProvisioningLedger, settings: ProvisioningJobSettings, build: @escaping MessageBuilder,
        onEvent: @escaping EventHandler = { _ in }
    ) {
        self.init(
            ledger: ledger, journal: nil, settings: settings,
            build: { row, uid in ProvisioningMessage(try build(row, uid)) }, onEvent: onEvent)
    }

    /// A job over `ledger` whose messages may set up the UID or NFC counter mirror.
    public convenience init(
        ledger: any ProvisioningLedger, settings: ProvisioningJobSettings,
        buildMirrored: @escaping MirroredMessageBuilder, onEvent: @escaping EventHandler = { _ in }
    ) {
        self.init(ledger: ledger, journal: nil, settings: settings, build: buildMirrored, onEvent: onEvent)
    }

    private init(
        ledger: any ProvisioningLedger, journal: ProvisioningJournal?, settings: ProvisioningJobSettings,
        build: @escaping MirroredMessageBuilder, onEvent: @escaping EventHandler
    ) {
        self.ledger = ledger
        self.journal = journal
        self.settings = settings
        self.build = build
        self.onEvent = { event in
            if case .stationState(let station, let state) = event { ledger.stationState(state, station: station) }
            onEvent(event)
        }
    }

    /// Runs one worker per station until the job ends; returns how it went.
    public func run(_ stations: [ProvisioningStation]) async -> ProvisioningJobSummary {
        let clock = ContinuousClock()
        let start = clock.now
        await withTaskGroup(of: Void.self) { group in
            for station in stations {
                let worker = ProvisioningWorker(job: self, station: station)
                // Each station on a queue of its own: a saturated cooperative pool slows it, never stalls it.
                let executor = QueueTaskExecutor(label: "ndeftool.provisioning.station")
                group.addTask(executorPreference: executor) { await worker.run() }
            }
        }
        let counts = await ledger.counts()
        let failure = await ledger.failure
        let reason: String? =
            counts.doneRows == ledger.rowCount
            ? nil
            : failure.map { "the \(journal == nil ? "database" : "journal") failed: \($0.reason)" }
                ?? stopRequest.withLock { $0 } ?? "every reader stopped"
        let tally = self.tally.withLock { $0 }
        var summary = ProvisioningJobSummary(
            rowCount: ledger.rowCount, doneRows: counts.doneRows, doneThisRun: tally.done,
            lockedThisRun: tally.locked, passwordsThisRun: tally.passwords, refusedTags: tally.refusedTags,
            alreadyDoneTags: tally.alreadyDoneTags,
            failedRows: counts.failedRows, unfinishedRows: counts.unfinishedRows, pendingRows: counts.pendingRows,
            stopReason: reason, journalFailure: failure, elapsed: start.duration(to: clock.now))
        summary.rowsInProgressElsewhere = counts.rowsInProgressElsewhere
        return summary
    }

    /// Stops the job: every station finishes the tag in hand, records it, and stops; stations
    /// waiting for a tag stop at once.
    public func stop(reason: String = "stopped") {
        stopRequest.withLock { request in
            if request == nil { request = reason }
        }
    }

    /// Whether stations should stop: stop was asked, the ledger failed, or nothing is left to do.
    func shouldStop() async -> Bool {
        if await isStopping { return true }
        return await ledger.isComplete()
    }

    /// Whether a stop was asked or the ledger failed (stations then skip waiting for removal).
    var isStopping: Bool {
        get async {
            if stopRequest.withLock({ $0 != nil }) { return true }
            return await ledger.failure != nil
        }
    }

    /// Whether a stop was asked (not counting a failed ledger).
    var isStopRequested: Bool { stopRequest.withLock { $0 != nil } }

    /// The message of `claim`'s row for the tag `uid`, its bytes' SHA-256.
    func message(_ claim: ProvisioningClaim, uid: [UInt8]) throws(ProvisioningError) -> (ProvisioningMessage, [UInt8]) {
        let message: ProvisioningMessage
        let bytes: [UInt8]
        do {
            message = try build(claim.values, uid)
            bytes = try message.message.encoded()
        } catch {
            throw ProvisioningError(.refusedEvent, "row \(claim.row) (plan line \(claim.values.line)): \(error)")
        }
        return (message, try ProvisioningDigest.sha256(bytes))
    }

    /// Counts what a station did with a tag.
    func count(_ update: (inout Tally) -> Void) { tally.withLock { update(&$0) } }
}

/// A row's message and the UID or NFC counter mirror its write sets up (NTAG213/215/216 8.7;
/// see `NFCSession/NFCMiFareTag/writeNDEF(_:mirror:)`).
public struct ProvisioningMessage: Sendable, Hashable {
    /// The message, with the mirror's placeholder text where the mirror goes.
    public var message: NFCNDEFMessage
    /// The mirror; nil for a plain message.
    public var mirror: Type2MirrorRequest?
    /// For an NTAG 424 DNA secure message: the URL with `{picc}` and `{mac}`, from which
    /// `NTAG424/NTAG424SDMTemplate` makes the file and the SDM offsets; nil otherwise.
    public var secureMessageURL: String?
    /// For an NTAG 424 DNA secure message with `{enc:FIELD}`: the file data the tag encrypts on
    /// every read (the row's FIELD); nil otherwise.
    public var secureMessageFileData: [UInt8]?

    /// A message, with a mirror or not.
    public init(_ message: NFCNDEFMessage, mirror: Type2MirrorRequest? = nil) {
        self.message = message
        self.mirror = mirror
    }
}
