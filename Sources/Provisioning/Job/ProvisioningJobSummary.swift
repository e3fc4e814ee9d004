/// How a run of a job ended: what it did, and what is left for a resume or for the report.
public struct ProvisioningJobSummary: Sendable, Hashable {
    /// The rows in the plan.
    public var rowCount: Int
    /// The rows done, in this run and earlier runs of the journal.
    public var doneRows: Int
    /// The rows this run finished.
    public var doneThisRun: Int
    /// The tags this run locked.
    public var lockedThisRun: Int
    /// The tags this run gave a password.
    public var passwordsThisRun: Int
    /// Tags this run refused (refused the write, not genuine, no row left for them).
    public var refusedTags: Int
    /// Tags this run found already done in this job (brought back after their row was
    /// finished, as a resume over the same supply does): left as they are, not refusals.
    public var alreadyDoneTags: Int = 0
    /// Rows whose message cannot be built, in order.
    public var failedRows: [Int]
    /// Rows bound to a tag and not done: that tag must come back to finish them.
    public var unfinishedRows: [Int]
    /// Rows never given to a tag.
    public var pendingRows: Int
    /// Rows another station is writing as this run ends (a database job): neither waiting for
    /// their tag nor left to a resume.
    public var rowsInProgressElsewhere: [Int] = []
    /// Why the run stopped before every row was done (nil when the job is complete).
    public var stopReason: String?
    /// The journal failure that stopped the run, if one did.
    public var journalFailure: ProvisioningError?
    /// How long the run took.
    public var elapsed: Duration

    /// Whether every row is done.
    public var isComplete: Bool { doneRows == rowCount }

    /// Whether every row is done or failed for good (``failedRows``): no run can write anything
    /// more unless the failed rows are given back (`retryFailedRows()` of the journal or the
    /// database).
    public var isSettled: Bool { pendingRows == 0 && unfinishedRows.isEmpty && rowsInProgressElsewhere.isEmpty }
}
