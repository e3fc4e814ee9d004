import NDEF
import NFCSession
import Synchronization
import SystemSupport

/// A batch provisioning job run on one or more readers: each tag presented gets the next row
/// of the plan (or finishes the row it holds), written, verified, then locked and given a
/// password when the settings ask, every step recorded in the journal before and after it
/// happens, so the job is exactly-once across crashes (see ``ProvisioningJournal``).
///
/// One `ProvisioningWorker` per station (reader), each on a task executor of its own, asks
/// the job for a row when a tag comes (`assign(uid:station:)`): the job refuses a tag already
/// done in this job, hands a tag that holds an unfinished row that row again, and gives any
/// other tag the next row from the ``RowDispenser``, so two readers never get the same row. A
/// row is bound to its tag by the journal's `writing` event before the first write: from then
/// on only that tag can finish it.
///
/// The job ends when every row is done and no tag is in progress, when ``stop(reason:)`` is
/// called (each station finishes the tag in hand first), when every station stopped (no tag
/// within the wait, no more tags, a reader gone), or when the journal cannot be written.
public actor ProvisioningJob {
    /// Builds the message of a row for the tag with a UID; throws when the row cannot be built.
    public typealias MessageBuilder = @Sendable (ProvisioningRow, _ uid: [UInt8]) throws -> NFCNDEFMessage
    /// Receives the job's events, in order per station; called on the workers' tasks: keep it short.
    public typealias EventHandler = @Sendable (ProvisioningJobEvent) -> Void

    /// What a tag gets.
    enum Assignment: Sendable {
        /// A fresh row to write.
        case provision(row: Int)
        /// The unfinished row it is bound to.
        case finish(row: Int)
        /// Nothing: the reason, and the row it was done with when it was.
        case refuse(reason: String, doneRow: Int?)
    }

    /// The plan.
    public nonisolated let plan: ProvisioningPlan
    /// The journal every step is recorded in.
    public nonisolated let journal: ProvisioningJournal
    /// What is done to each tag.
    public nonisolated let settings: ProvisioningJobSettings
    nonisolated let build: MessageBuilder
    nonisolated let onEvent: EventHandler
    private let dispenser: RowDispenser
    /// The job's own serial executor, a dispatch queue: the journal's `fsync`s block it, never
    /// Swift's cooperative thread pool, where the stations' sessions run.
    private nonisolated let executor = SerialQueueExecutor(label: "ndeftool.provisioning.job")
    private var active: [Int: String] = [:]
    private var unfinished: Set<Int>
    private var failed: Set<Int>
    private var doneRows: Int
    private let stopRequest = Mutex<String?>(nil)
    private var journalFailure: ProvisioningError?
    private var doneThisRun = 0
    private var lockedThisRun = 0
    private var passwordsThisRun = 0
    private var refusedTags = 0
    /// How many tags refused each row as too large, in this run.
    private var sizeRefusals: [Int: Int] = [:]

    /// A job over `journal` (created or resumed for `plan`), building each row's message with
    /// `build` and reporting to `onEvent`.
    public init(
        plan: ProvisioningPlan, journal: ProvisioningJournal, settings: ProvisioningJobSettings,
        build: @escaping MessageBuilder, onEvent: @escaping EventHandler = { _ in }
    ) {
        self.plan = plan
        self.journal = journal
        self.settings = settings
        self.build = build
        self.onEvent = onEvent
        let state = journal.state
        dispenser = RowDispenser(rows: state.pendingRows())
        unfinished = Set(state.unfinishedRows)
        failed = Set(state.failedRows.filter { state.status(of: $0).uid == nil })
        doneRows = state.doneCount
    }

    /// The job's own serial executor (see `executor`).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

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
        let pending = await dispenser.remaining
        let reason: String? =
            doneRows == plan.count
            ? nil
            : journalFailure.map { "the journal could not be written: \($0.reason)" } ?? stopRequest.withLock { $0 }
                ?? "every reader stopped"
        return ProvisioningJobSummary(
            rowCount: plan.count, doneRows: doneRows, doneThisRun: doneThisRun, lockedThisRun: lockedThisRun,
            passwordsThisRun: passwordsThisRun, refusedTags: refusedTags, failedRows: failed.sorted(),
            unfinishedRows: unfinished.sorted(), pendingRows: pending, stopReason: reason,
            journalFailure: journalFailure, elapsed: start.duration(to: clock.now))
    }

    /// Stops the job: every station finishes the tag in hand, records it, and stops; stations
    /// waiting for a tag stop at once.
    public nonisolated func stop(reason: String = "stopped") {
        stopRequest.withLock { request in
            if request == nil { request = reason }
        }
    }

    /// Whether stations should stop: stop was asked, the journal failed, or nothing is left to do.
    func shouldStop() async -> Bool {
        if isStopping { return true }
        return await isComplete()
    }

    /// Whether a stop was asked or the journal failed (stations then skip waiting for removal).
    var isStopping: Bool { stopRequest.withLock { $0 != nil } || journalFailure != nil }

    /// Every row is done or failed for good, and no tag is in progress.
    func isComplete() async -> Bool {
        guard active.isEmpty, unfinished.isEmpty else { return false }
        return await dispenser.remaining == 0
    }

    /// What the tag `uid` at `station` gets; claims the row in the journal.
    func assign(uid: [UInt8], station: String) async throws(ProvisioningError) -> Assignment {
        switch journal.state.assignment(forUID: uid) {
        case .alreadyDone(let row):
            refusedTags += 1
            return .refuse(reason: "it is already done in this job (row \(row))", doneRow: row)
        case .unfinished(let row):
            if let holder = active[row] {
                refusedTags += 1
                return .refuse(reason: "its row \(row) is being finished at \(holder)", doneRow: nil)
            }
            try record(.claimed(row: row, reader: station, time: JournalClock.now()))
            active[row] = station
            return .finish(row: row)
        case .fresh:
            guard let row = await dispenser.next(for: station) else {
                refusedTags += 1
                let reason =
                    unfinished.isEmpty
                    ? "every row of the job has a tag" : "every row left is waiting for the tag it was started on"
                return .refuse(reason: reason + ": this tag was not written", doneRow: nil)
            }
            do {
                try record(.claimed(row: row, reader: station, time: JournalClock.now()))
            } catch {
                await dispenser.release(row, from: station)
                throw error
            }
            active[row] = station
            return .provision(row: row)
        }
    }

    /// The message of `row` for the tag `uid`, its bytes and their SHA-256.
    func message(row: Int, uid: [UInt8]) throws(ProvisioningError) -> (NFCNDEFMessage, [UInt8]) {
        guard let values = plan.row(row) else {
            throw ProvisioningError(.refusedEvent, "row \(row) is not in the plan")
        }
        let message: NFCNDEFMessage
        let bytes: [UInt8]
        do {
            message = try build(values, uid)
            bytes = try message.encoded()
        } catch {
            throw ProvisioningError(.refusedEvent, "row \(row) (plan line \(values.line)): \(error)")
        }
        return (message, try ProvisioningDigest.sha256(bytes))
    }

    /// The state of `row` in the journal.
    func status(of row: Int) -> ProvisioningState.RowStatus { journal.state.status(of: row) }

    /// Records that `row`'s message (SHA-256 `digest`) is about to be written to the tag `uid`.
    func willWrite(row: Int, uid: [UInt8], digest: [UInt8]) throws(ProvisioningError) {
        try record(.writing(row: row, uid: uid, digest: digest, time: JournalClock.now()))
        unfinished.insert(row)
    }

    /// Records a completed step (`written`, `locked` or `password`) of `row` on the tag `uid`.
    func completed(_ step: ProvisioningState.Stage, row: Int, uid: [UInt8]) throws(ProvisioningError) {
        let time = JournalClock.now()
        switch step {
        case .locked:
            try record(.locked(row: row, uid: uid, time: time))
            lockedThisRun += 1
        case .password:
            try record(.password(row: row, uid: uid, time: time))
            passwordsThisRun += 1
        default:
            try record(.written(row: row, uid: uid, time: time))
        }
    }

    /// Records that `row` is finished on the tag `uid`.
    func finished(row: Int, uid: [UInt8], outcome: String, station: String) async throws(ProvisioningError) {
        try record(.done(row: row, uid: uid, outcome: outcome, time: JournalClock.now()))
        unfinished.remove(row)
        active[row] = nil
        doneRows += 1
        doneThisRun += 1
        await dispenser.finish(row, by: station)
    }

    /// Records that the tag `uid` refused `row` before anything was written: the row returns
    /// to the pool.
    func refusedBeforeWrite(row: Int, uid: [UInt8], reason: String, station: String) async throws(ProvisioningError) {
        try unbind(row: row, uid: uid, reason: reason)
        await dispenser.release(row, from: station)
    }

    /// Records the refusal in the journal: the tag `uid` is no longer bound to `row`, whose
    /// claim is given back there (the dispenser is told by the caller).
    private func unbind(row: Int, uid: [UInt8], reason: String) throws(ProvisioningError) {
        refusedTags += 1
        active[row] = nil
        try record(.refused(row: row, uid: uid, reason: reason, time: JournalClock.now()))
        unfinished.remove(row)
    }

    /// Records that the tag `uid` refused `row` because its message (`length` bytes) is larger
    /// than the tag holds, before anything was written: the row goes back to the pool for a
    /// larger tag, unless it is larger than any tag the readers can bring
    /// (``ProvisioningJobSettings/largestTagCapacity``) or ``ProvisioningJobSettings/sizeRefusalLimit``
    /// tags refused it: then it is marked failed with the reason, and the job goes on without it.
    ///
    /// - Returns: the reason the row failed, or nil when it went back to the pool.
    func refusedAsTooLarge(
        row: Int, uid: [UInt8], length: Int, reason: String, station: String
    ) async throws(ProvisioningError) -> String? {
        try unbind(row: row, uid: uid, reason: reason)
        let refusals = sizeRefusals[row, default: 0] + 1
        sizeRefusals[row] = refusals
        var failure: String?
        if let largest = settings.largestTagCapacity, length > largest {
            failure =
                "too large for any tag of the readers: the message has \(length) bytes, the largest tag holds "
                + "\(largest)"
        } else if refusals >= settings.sizeRefusalLimit {
            failure =
                "too large: \(refusals) tags refused its \(length)-byte message (\(reason)); shorten the row or "
                + "resume the job with larger tags"
        }
        guard let failure else {
            await dispenser.release(row, from: station)
            return nil
        }
        // The refusal gave the claim back in the journal: claimed again, then failed, while the
        // dispenser never let the row go.
        try record(.claimed(row: row, reader: station, time: JournalClock.now()))
        try record(.failed(row: row, uid: nil, reason: failure, time: JournalClock.now()))
        failed.insert(row)
        await dispenser.finish(row, by: station)
        return failure
    }

    /// Records that `row` did not complete on the tag `uid`: it stays bound to that tag.
    func interrupted(row: Int, uid: [UInt8], reason: String, station: String) async throws(ProvisioningError) {
        active[row] = nil
        try record(.failed(row: row, uid: uid, reason: reason, time: JournalClock.now()))
        await dispenser.finish(row, by: station)
    }

    /// Records that `row` cannot be built: it is left for the report.
    func cannotBuild(row: Int, reason: String, station: String) async throws(ProvisioningError) {
        active[row] = nil
        failed.insert(row)
        try record(.failed(row: row, uid: nil, reason: reason, time: JournalClock.now()))
        await dispenser.finish(row, by: station)
    }

    /// Gives `row` back to the pool before any tag was bound to it (the tag cannot take it).
    func giveBack(row: Int, station: String) async throws(ProvisioningError) {
        refusedTags += 1
        active[row] = nil
        try record(.released(row: row, time: JournalClock.now()))
        await dispenser.release(row, from: station)
    }

    /// Appends `event`. Any failure stops the job: a journal that cannot be written, or an event
    /// the job's rules refuse (which would mean the job lost track of a row), leaves no tag to
    /// be touched until a resume has read the journal again.
    private func record(_ event: JournalEvent) throws(ProvisioningError) {
        if let journalFailure { throw journalFailure }
        do {
            try journal.append(event)
        } catch {
            journalFailure = error
            throw error
        }
    }
}
