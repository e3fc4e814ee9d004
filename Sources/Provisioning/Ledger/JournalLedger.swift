import SystemSupport

/// The ledger of a job kept in its file journal (``ProvisioningJournal``): one process runs
/// the job, its stations share this actor, and rows are handed out by a ``RowDispenser``.
///
/// Every call appends its events to the journal (each `fsync`ed) before it returns; the journal's
/// rules (``ProvisioningState``) refuse an event that would break the job's guarantees, which
/// stops the job. The file is the job's own while the process holds its lock, so claims are
/// never lost and the fencing token is always 0.
actor JournalLedger: ProvisioningLedger {
    /// The plan.
    nonisolated let plan: ProvisioningPlan
    /// The journal every step is recorded in.
    nonisolated let journal: ProvisioningJournal
    private let dispenser: RowDispenser
    /// The actor's own serial executor, a dispatch queue: the journal's `fsync`s block it, never
    /// Swift's cooperative thread pool, where the stations' sessions run.
    private nonisolated let executor = SerialQueueExecutor(label: "ndeftool.provisioning.journal")
    /// Rows claimed now, and by which station.
    private var active: [Int: String] = [:]
    private var unfinished: Set<Int>
    private var failed: Set<Int>
    private var doneRows: Int
    private var journalFailure: ProvisioningError?
    /// How many tags refused each row as too large, in this run.
    private var sizeRefusals: [Int: Int] = [:]

    /// The ledger of `journal`, created or resumed for `plan`.
    init(plan: ProvisioningPlan, journal: ProvisioningJournal) {
        self.plan = plan
        self.journal = journal
        let state = journal.state
        dispenser = RowDispenser(rows: state.pendingRows())
        unfinished = Set(state.unfinishedRows)
        failed = Set(state.failedRows.filter { state.status(of: $0).uid == nil })
        doneRows = state.doneCount
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    nonisolated var rowCount: Int { plan.count }

    var failure: ProvisioningError? { journalFailure }

    func isComplete() async -> Bool {
        guard active.isEmpty, unfinished.isEmpty else { return false }
        return await dispenser.remaining == 0
    }

    func counts() async -> ProvisioningLedgerCounts {
        ProvisioningLedgerCounts(
            doneRows: doneRows, failedRows: failed.sorted(), unfinishedRows: unfinished.sorted(),
            pendingRows: await dispenser.remaining)
    }

    func assign(uid: [UInt8], station: String) async throws(ProvisioningError) -> ProvisioningAssignment {
        switch journal.state.assignment(forUID: uid) {
        case .alreadyDone(let row):
            return .refuse(reason: "it is already done in this job (row \(row))", doneRow: row)
        case .unfinished(let row):
            if let holder = active[row] {
                return .refuse(reason: "its row \(row) is being finished at \(holder)", doneRow: nil)
            }
            let claim = try claim(row, station: station)
            try record(.claimed(row: row, reader: station, time: JournalClock.now()))
            active[row] = station
            return .finish(claim, progress: journal.state.status(of: row))
        case .fresh:
            guard let row = await dispenser.next(for: station) else {
                let reason =
                    unfinished.isEmpty
                    ? "every row of the job has a tag" : "every row left is waiting for the tag it was started on"
                return .refuse(reason: reason + ": this tag was not written", doneRow: nil)
            }
            do {
                let claim = try claim(row, station: station)
                try record(.claimed(row: row, reader: station, time: JournalClock.now()))
                active[row] = station
                return .provision(claim)
            } catch {
                await dispenser.release(row, from: station)
                throw error
            }
        }
    }

    /// The claim of `row` for `station`, with its values from the plan.
    private func claim(_ row: Int, station: String) throws(ProvisioningError) -> ProvisioningClaim {
        guard let values = plan.row(row) else {
            throw ProvisioningError(.refusedEvent, "row \(row) is not in the plan")
        }
        return ProvisioningClaim(row: row, values: values, station: station)
    }

    func bind(_ claim: ProvisioningClaim, uid: [UInt8], digest: [UInt8]) async throws(ProvisioningError) {
        try record(.writing(row: claim.row, uid: uid, digest: digest, time: JournalClock.now()))
        unfinished.insert(claim.row)
    }

    func advance(
        _ claim: ProvisioningClaim, uid: [UInt8], recording: ProvisioningState.Stage?, next: ProvisioningNextStep
    ) async throws(ProvisioningError) {
        let row = claim.row
        switch recording {
        case .locked?: try record(.locked(row: row, uid: uid, time: JournalClock.now()))
        case .password?: try record(.password(row: row, uid: uid, time: JournalClock.now()))
        case nil: break
        default: try record(.written(row: row, uid: uid, time: JournalClock.now()))
        }
        guard case .done(let outcome) = next else { return }
        try record(.done(row: row, uid: uid, outcome: outcome, time: JournalClock.now()))
        unfinished.remove(row)
        active[row] = nil
        doneRows += 1
        await dispenser.finish(row, by: claim.station)
    }

    func refusedBeforeWrite(_ claim: ProvisioningClaim, uid: [UInt8], reason: String) async throws(ProvisioningError) {
        try unbind(row: claim.row, uid: uid, reason: reason)
        await dispenser.release(claim.row, from: claim.station)
    }

    func refusedAsTooLarge(
        _ claim: ProvisioningClaim, uid: [UInt8], length: Int, reason: String, largestCapacity: Int?,
        refusalLimit: Int
    ) async throws(ProvisioningError) -> String? {
        let row = claim.row
        try unbind(row: row, uid: uid, reason: reason)
        let refusals = sizeRefusals[row, default: 0] + 1
        sizeRefusals[row] = refusals
        guard
            let failure = ProvisioningSizeRefusal.failure(
                length: length, refusals: refusals, reason: reason, largestCapacity: largestCapacity,
                refusalLimit: refusalLimit)
        else {
            await dispenser.release(row, from: claim.station)
            return nil
        }
        // The refusal gave the claim back in the journal: claimed again, then failed, while the
        // dispenser never let the row go.
        try record(.claimed(row: row, reader: claim.station, time: JournalClock.now()))
        try record(.failed(row: row, uid: nil, reason: failure, time: JournalClock.now()))
        failed.insert(row)
        await dispenser.finish(row, by: claim.station)
        return failure
    }

    /// Records the refusal in the journal: the tag `uid` is no longer bound to `row`, whose
    /// claim is given back there (the dispenser is told by the caller).
    private func unbind(row: Int, uid: [UInt8], reason: String) throws(ProvisioningError) {
        active[row] = nil
        try record(.refused(row: row, uid: uid, reason: reason, time: JournalClock.now()))
        unfinished.remove(row)
    }

    func interrupted(_ claim: ProvisioningClaim, uid: [UInt8], reason: String) async throws(ProvisioningError) {
        active[claim.row] = nil
        try record(.failed(row: claim.row, uid: uid, reason: reason, time: JournalClock.now()))
        await dispenser.finish(claim.row, by: claim.station)
    }

    func cannotBuild(_ claim: ProvisioningClaim, reason: String) async throws(ProvisioningError) {
        active[claim.row] = nil
        failed.insert(claim.row)
        try record(.failed(row: claim.row, uid: nil, reason: reason, time: JournalClock.now()))
        await dispenser.finish(claim.row, by: claim.station)
    }

    func giveBack(_ claim: ProvisioningClaim) async throws(ProvisioningError) {
        active[claim.row] = nil
        try record(.released(row: claim.row, time: JournalClock.now()))
        await dispenser.release(claim.row, from: claim.station)
    }

    func stationStopped(_ station: String, reason: String) async {}

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

/// When a row refused as too large fails for good.
public enum ProvisioningSizeRefusal {
    /// Why a row whose message has `length` bytes, refused `refusals` times so far (the last for
    /// `reason`), fails for good: it is larger than any tag the readers can bring
    /// (`largestCapacity`, when known), or `refusalLimit` tags refused it. Nil: it goes back to
    /// the pool for a larger tag.
    public static func failure(
        length: Int, refusals: Int, reason: String, largestCapacity: Int?, refusalLimit: Int
    ) -> String? {
        if let largestCapacity, length > largestCapacity {
            return "too large for any tag of the readers: the message has \(length) bytes, the largest tag holds "
                + "\(largestCapacity)"
        }
        if refusals >= refusalLimit {
            return "too large: \(refusals) tags refused its \(length)-byte message (\(reason)); shorten the row or "
                + "resume the job with larger tags"
        }
        return nil
    }
}
