import HexText

/// What a job's journal says, event by event: which rows are done and on which tag, which are
/// in flight, which tags are used, and which rows are left to hand out.
///
/// The rules it enforces (an event breaking one is refused live and, on replay, makes the
/// journal inconsistent):
/// - a row is claimed by one reader at a time, and only while it is not done;
/// - `writing` binds a row to one tag UID for good: a different tag never gets that row, and
///   a tag bound to (or done with) one row never gets another;
/// - `written`, `locked`, `password` and `done` name the row's bound tag, and need a claim;
/// - `released` gives a claim back (a row not yet bound returns to the pool);
/// - `refused` undoes a `writing` binding after which nothing was written (the tag refused the
///   row in the checks before the first write) and gives the row back to the pool;
/// - `resumed` gives back every claim of the previous run.
public struct ProvisioningState: Sendable {
    /// How far a row has come.
    public enum Stage: String, Sendable, Hashable {
        /// Never claimed, or given back: in the pool.
        case pending
        /// Claimed by a reader, no tag chosen yet.
        case claimed
        /// Bound to a tag; the write may or may not have happened.
        case writing
        /// Written and verified.
        case written
        /// Made read-only.
        case locked
        /// Password set.
        case password
        /// Finished.
        case done
        /// The last attempt failed (the row stays bound if it had a tag).
        case failed
    }

    /// One row's progress.
    public struct RowStatus: Sendable, Hashable {
        /// The row number.
        public var row: Int
        /// How far it has come.
        public var stage: Stage = .pending
        /// The reader holding the claim, if claimed.
        public var reader: String?
        /// The tag the row is bound to (from its `writing` event on).
        public var uid: [UInt8]?
        /// The SHA-256 of the message being written to that tag (dropped once the row is done).
        public var digest: [UInt8]?
        /// The outcome of `done`.
        public var outcome: String?
        /// The reason of the last `failed` or `refused`, until the row is done.
        public var reason: String?
        /// The time of the row's last event.
        public var time: String?
        /// The steps taken since the last write began, in order (`written`, `locked`, `password`).
        public var steps: [Stage] = []

        /// A status of `row` from its parts.
        public init(
            row: Int, stage: Stage = .pending, reader: String? = nil, uid: [UInt8]? = nil, digest: [UInt8]? = nil,
            steps: [Stage] = []
        ) {
            self.row = row
            self.stage = stage
            self.reader = reader
            self.uid = uid
            self.digest = digest
            self.steps = steps
        }

        /// How to finish this unfinished row on its tag, given the SHA-256 of the NDEF message
        /// the tag holds now (nil when it holds none or could not be read).
        public func resumeAction(currentDigest: [UInt8]?) -> ResumeAction {
            if steps.contains(.written) { return .continueSteps(completed: steps) }
            if let digest, let currentDigest, digest == currentDigest { return .markWritten }
            return .rewrite
        }
    }

    /// What to do with a tag that has just been presented.
    public enum TagAssignment: Sendable, Hashable {
        /// The tag was already provisioned in this job (row given): refuse it.
        case alreadyDone(row: Int)
        /// The tag holds (or may hold) an unfinished row: finish that row on this tag.
        case unfinished(row: Int)
        /// The tag is new to this job: give it the next row.
        case fresh
    }

    /// How to finish an unfinished row on its own tag.
    public enum ResumeAction: Sendable, Hashable {
        /// The tag holds the intended message: record `written` and take the remaining steps.
        case markWritten
        /// The tag does not hold it (half-written, or never written): write the row again.
        case rewrite
        /// The message was verified before; take the steps after those in `completed`.
        case continueSteps(completed: [Stage])
    }

    /// The job's identity.
    public let header: JournalHeader
    /// Rows some event named that are not kept in `done`.
    private var statuses: [Int: RowStatus] = [:]
    /// Rows done, compactly (see ``DoneRow``): a long job's index stays small.
    private var done: [Int: DoneRow] = [:]
    /// The outcomes of done rows, each once; `DoneRow.outcome` indexes it.
    private var outcomes: [String] = []
    private var outcomeIndex: [String: UInt16] = [:]
    private var tags: [TagKey: Int] = [:]

    /// An empty state for the job `header` describes.
    public init(header: JournalHeader) { self.header = header }

    /// The number of rows in the plan.
    public var rowCount: Int { header.planRowCount }

    /// The status of `row` (pending if no event names it).
    public func status(of row: Int) -> RowStatus {
        if let compact = done[row] {
            let outcome = Int(compact.outcome) < outcomes.count ? outcomes[Int(compact.outcome)] : ""
            return compact.status(row: row, outcome: outcome)
        }
        return statuses[row] ?? RowStatus(row: row)
    }

    /// Every row some event named, in row order.
    public var touchedRows: [RowStatus] {
        (Array(statuses.keys) + Array(done.keys)).sorted().map { status(of: $0) }
    }

    /// The rows done, in order.
    public var doneRows: [Int] { (done.keys + statuses.values.filter { $0.stage == .done }.map(\.row)).sorted() }

    /// The number of rows done.
    public var doneCount: Int { done.count + statuses.values.count { $0.stage == .done } }

    /// The rows whose last attempt failed, in order.
    public var failedRows: [Int] { rows { $0.stage == .failed } }

    /// Rows bound to a tag but not done: they wait for that tag to come back.
    public var unfinishedRows: [Int] { rows { $0.uid != nil && $0.stage != .done } }

    /// Rows claimed by a reader and not bound to a tag.
    public var claimedRows: [Int] { rows { $0.stage == .claimed } }

    /// Rows to hand out, in order: never claimed or given back; with `includingFailed`, also
    /// rows that failed before being bound to a tag.
    public func pendingRows(includingFailed: Bool = false) -> [Int] {
        guard rowCount > 0 else { return [] }
        return (1...rowCount).filter { number in
            guard done[number] == nil else { return false }
            guard let status = statuses[number] else { return true }
            if status.stage == .pending { return true }
            return includingFailed && status.stage == .failed && status.uid == nil && status.reader == nil
        }
    }

    /// The row the tag `uid` is bound to or done with, if any.
    public func row(forUID uid: [UInt8]) -> Int? { tags[TagKey(uid)] }

    /// What to do with the tag `uid`.
    public func assignment(forUID uid: [UInt8]) -> TagAssignment {
        guard let row = tags[TagKey(uid)] else { return .fresh }
        return status(of: row).stage == .done ? .alreadyDone(row: row) : .unfinished(row: row)
    }

    /// How to finish unfinished `row` on its tag, given the SHA-256 of the NDEF message the
    /// tag holds now (nil when it holds none or could not be read).
    public func resumeAction(row: Int, currentDigest: [UInt8]?) -> ResumeAction {
        status(of: row).resumeAction(currentDigest: currentDigest)
    }

    private func rows(where predicate: (RowStatus) -> Bool) -> [Int] {
        statuses.values.filter(predicate).map(\.row).sorted()
    }

    /// What an event changes: every claim given back, or one row's status and the tag index.
    enum Change: Sendable {
        /// `resumed`: every claim is given back.
        case releaseAllClaims
        /// The row's new status; the tag bound to it, or unbound from it.
        case row(RowStatus, bind: [UInt8]?, unbind: [UInt8]?)
    }

    /// Applies `event`, or throws `inconsistentJournal` (at `line`) if it breaks a rule.
    public mutating func apply(_ event: JournalEvent, line: Int = 0) throws(ProvisioningError) {
        commit(try change(for: event, line: line))
    }

    /// Makes `change` (from ``change(for:line:)`` on this state).
    mutating func commit(_ change: Change) {
        switch change {
        case .releaseAllClaims:
            releaseAllClaims()
        case .row(let status, let bind, let unbind):
            if let unbind { tags[TagKey(unbind)] = nil }
            if let bind { tags[TagKey(bind)] = status.row }
            if status.stage == .done, let compact = compact(status) {
                done[status.row] = compact
                statuses[status.row] = nil
            } else {
                statuses[status.row] = status
            }
        }
    }

    /// What `event` changes, without changing anything; throws `inconsistentJournal` (at `line`)
    /// if it breaks a rule. Checking first and committing after lets the journal write the event
    /// between the two, and change its state in place.
    func change(for event: JournalEvent, line: Int = 0) throws(ProvisioningError) -> Change {
        func refuse(_ reason: String) -> ProvisioningError {
            ProvisioningError(.inconsistentJournal, line: line, "\(event.name): \(reason)")
        }
        guard let row = event.row else { return .releaseAllClaims }
        var bind: [UInt8]?
        var unbind: [UInt8]?
        guard row >= 1 && row <= rowCount else { throw refuse("row \(row) is not in the plan (1...\(rowCount))") }
        var status = self.status(of: row)
        guard status.stage != .done else { throw refuse("row \(row) is already done") }
        func checkTag(_ uid: [UInt8]) throws(ProvisioningError) {
            guard status.reader != nil else { throw refuse("row \(row) is not claimed") }
            guard status.uid == uid else {
                let bound = status.uid.map { Hex.encode($0, uppercase: true) } ?? "no tag"
                throw refuse("row \(row) is bound to \(bound), not \(Hex.encode(uid, uppercase: true))")
            }
        }
        switch event {
        case .claimed(_, let reader, let time):
            if let holder = status.reader { throw refuse("row \(row) is already claimed by \(holder)") }
            status.reader = reader
            if status.uid == nil { status.stage = .claimed }
            status.time = time
        case .writing(_, let uid, let digest, let time):
            guard status.reader != nil else { throw refuse("row \(row) is not claimed") }
            if let bound = status.uid, bound != uid {
                throw refuse(
                    "row \(row) is bound to \(Hex.encode(bound, uppercase: true)); tag \(Hex.encode(uid, uppercase: true)) may not take it"
                )
            }
            if let other = tags[TagKey(uid)], other != row {
                throw refuse("tag \(Hex.encode(uid, uppercase: true)) already has row \(other)")
            }
            status.uid = uid
            status.digest = digest
            status.stage = .writing
            status.steps = []
            status.time = time
            bind = uid
        case .written(_, let uid, let time), .locked(_, let uid, let time), .password(_, let uid, let time):
            try checkTag(uid)
            let stage: Stage =
                switch event {
                case .written: .written
                case .locked: .locked
                default: .password
                }
            if stage != .written && !status.steps.contains(.written) { throw refuse("row \(row) is not written") }
            status.stage = stage
            status.steps.append(stage)
            status.time = time
        case .done(_, let uid, let outcome, let time):
            try checkTag(uid)
            guard status.steps.contains(.written) else { throw refuse("row \(row) is not written") }
            status.stage = .done
            status.outcome = outcome
            // A failure or refusal before the row was finished is no longer the row's story.
            status.reason = nil
            status.reader = nil
            status.digest = nil  // Not needed once done: a done row is never resumed.
            status.time = time
        case .failed(_, let uid, let reason, let time):
            guard status.reader != nil else { throw refuse("row \(row) is not claimed") }
            if let uid, let bound = status.uid, uid != bound {
                throw refuse(
                    "row \(row) is bound to \(Hex.encode(bound, uppercase: true)), not \(Hex.encode(uid, uppercase: true))"
                )
            }
            status.stage = .failed
            status.reason = reason
            status.reader = nil
            status.time = time
        case .retried(_, let time):
            guard status.stage == .failed, status.uid == nil, status.reader == nil else {
                throw refuse("row \(row) did not fail before a tag was bound to it: it cannot be retried")
            }
            status.stage = .pending
            status.reason = nil
            status.time = time
        case .released(_, let time):
            guard status.reader != nil else { throw refuse("row \(row) is not claimed") }
            status.reader = nil
            if status.stage == .claimed { status.stage = .pending }
            status.time = time
        case .refused(_, let uid, let reason, let time):
            try checkTag(uid)
            guard status.stage == .writing, status.steps.isEmpty else {
                throw refuse(
                    "row \(row) is past its write on \(Hex.encode(uid, uppercase: true)): it cannot be given back")
            }
            unbind = uid
            status.uid = nil
            status.digest = nil
            status.reader = nil
            status.stage = .pending
            status.reason = reason
            status.time = time
        case .resumed:
            break
        }
        return .row(status, bind: bind, unbind: unbind)
    }

    /// The compact form of a done `status`, its outcome added to the table; nil when it would
    /// not give the status back exactly (it is then kept whole).
    private mutating func compact(_ status: RowStatus) -> DoneRow? {
        guard let outcome = status.outcome else { return nil }
        let index: UInt16
        if let known = outcomeIndex[outcome] {
            index = known
        } else {
            guard outcomes.count < Int(UInt16.max) else { return nil }
            index = UInt16(outcomes.count)
            outcomes.append(outcome)
            outcomeIndex[outcome] = index
        }
        return DoneRow(status, outcome: index)
    }

    /// Gives back every claim: rows not bound to a tag return to the pool; bound rows keep
    /// their tag and wait for it. This is what recovery does for the run that stopped.
    mutating func releaseAllClaims() {
        for (row, var status) in statuses where status.reader != nil {
            status.reader = nil
            if status.stage == .claimed { status.stage = .pending }
            statuses[row] = status
        }
    }

    /// Whether any row is claimed.
    var hasClaims: Bool { statuses.values.contains { $0.reader != nil } }
}
