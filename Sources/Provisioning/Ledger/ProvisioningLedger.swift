/// The record of a job that its stations share: which row each tag gets, which tag each row is
/// bound to, and every step taken on it, kept so that the job is exactly-once whatever stops
/// (a crash, a kill, a power cut, a lost connection).
///
/// ``ProvisioningJob`` runs its stations against a ledger. This package has one, over the file
/// journal (``ProvisioningJob/init(plan:journal:settings:build:onEvent:)`` makes it: one process,
/// an `flock` keeps others out); the ProvisioningDatabase module has one over PostgreSQL, which
/// stations on many machines share.
///
/// The calls follow a tag through its row ("write-ahead": each irreversible step is announced
/// before it happens, recorded after it is verified):
/// 1. ``assign(uid:station:)`` when a tag is found: a fresh row, the unfinished row the tag is
///    bound to, or a refusal. The row comes with a ``ProvisioningClaim`` that names it in the
///    calls that follow.
/// 2. ``bind(_:uid:digest:)`` before the first WRITE: the row belongs to that tag from then on.
/// 3. ``advance(_:uid:recording:next:)`` after each verified step, which also announces the next
///    (a lock, a password) or records the row done.
///
/// A ledger whose claims can be lost (a lease that expired while a station could not reach the
/// database) throws ``ProvisioningError/Code/leaseLost`` from `bind` and from an `advance` that
/// announces a step: the station then stops working on that tag before touching it again.
public protocol ProvisioningLedger: Sendable {
    /// The number of rows in the plan.
    var rowCount: Int { get }

    /// What the tag `uid`, found at `station`, gets: its row claimed for that station, or a
    /// refusal.
    func assign(uid: [UInt8], station: String) async throws(ProvisioningError) -> ProvisioningAssignment

    /// Binds `claim`'s row to the tag `uid` before its first WRITE, with the SHA-256 `digest` of
    /// the message about to be written: from then on only that tag can finish the row.
    func bind(_ claim: ProvisioningClaim, uid: [UInt8], digest: [UInt8]) async throws(ProvisioningError)

    /// Records `recording` (a step just verified on the tag `uid`: `written`, `locked` or
    /// `password`; nil for none) and announces `next`: a step about to be taken, checked to be
    /// allowed first, or the row done.
    func advance(
        _ claim: ProvisioningClaim, uid: [UInt8], recording: ProvisioningState.Stage?, next: ProvisioningNextStep
    ) async throws(ProvisioningError)

    /// The tag `uid` refused `claim`'s row before anything was written (it cannot take the
    /// message): the binding is undone and the row returns to the pool.
    func refusedBeforeWrite(_ claim: ProvisioningClaim, uid: [UInt8], reason: String) async throws(ProvisioningError)

    /// The tag `uid` refused `claim`'s row as too large (`length` bytes) before anything was
    /// written: the row returns to the pool, unless it is larger than `largestCapacity` (when
    /// known) or `refusalLimit` tags have refused it, when it fails for good.
    ///
    /// - Returns: why the row failed, or nil when it went back to the pool.
    func refusedAsTooLarge(
        _ claim: ProvisioningClaim, uid: [UInt8], length: Int, reason: String, largestCapacity: Int?,
        refusalLimit: Int
    ) async throws(ProvisioningError) -> String?

    /// A step on the tag `uid` did not complete: `claim`'s row stays bound to that tag, to be
    /// finished when it comes back, and the claim ends.
    func interrupted(_ claim: ProvisioningClaim, uid: [UInt8], reason: String) async throws(ProvisioningError)

    /// `claim`'s row cannot be built: it fails for good, for the report.
    func cannotBuild(_ claim: ProvisioningClaim, reason: String) async throws(ProvisioningError)

    /// Gives `claim`'s row back before any tag was bound to it.
    func giveBack(_ claim: ProvisioningClaim) async throws(ProvisioningError)

    /// Whether every row is done or failed for good, and no tag is in progress. A ledger that
    /// cannot tell (its database is out of reach) says false.
    func isComplete() async -> Bool

    /// How the job stands now.
    func counts() async -> ProvisioningLedgerCounts

    /// The ledger failed for good (the journal cannot be written, the database refuses the
    /// job's statements): every station stops, and no tag is touched until the job is resumed.
    var failure: ProvisioningError? { get async }

    /// The station `station` stopped: claims it holds without a tag go back to the pool.
    func stationStopped(_ station: String, reason: String) async

    /// What the station `station` is doing now (for a ledger that shows its stations to others).
    func stationState(_ state: ProvisioningStationState, station: String)
}

extension ProvisioningLedger {
    /// Ignores station states: the file journal shows only the rows.
    public func stationState(_ state: ProvisioningStationState, station: String) {}
}

/// A row claimed for one station and one tag: what the ledger's calls about it name.
public struct ProvisioningClaim: Sendable, Hashable {
    /// The row.
    public var row: Int
    /// Its values from the plan.
    public var values: ProvisioningRow
    /// The station holding it.
    public var station: String
    /// The claim's fencing token: a ledger whose claims can be taken over (a database's lease)
    /// counts them, and refuses a step named by an older one; the file journal gives 0.
    public var generation: Int64

    /// A claim of `row` (`values`) by `station`, with the fencing token `generation`.
    public init(row: Int, values: ProvisioningRow, station: String, generation: Int64 = 0) {
        self.row = row
        self.values = values
        self.station = station
        self.generation = generation
    }
}

/// What a tag gets when it is found at a station.
public enum ProvisioningAssignment: Sendable, Hashable {
    /// A fresh row to write.
    case provision(ProvisioningClaim)
    /// The unfinished row the tag is bound to, and how far it came.
    case finish(ProvisioningClaim, progress: ProvisioningState.RowStatus)
    /// Nothing: the reason, and the row the tag was done with when it was.
    case refuse(reason: String, doneRow: Int?)
}

/// What an ``ProvisioningLedger/advance(_:uid:recording:next:)`` announces.
public enum ProvisioningNextStep: Sendable, Hashable {
    /// The tag is about to be made read-only.
    case lock
    /// The tag is about to get its password.
    case password
    /// The row is finished, with `outcome` (`written`, `written+locked`, ...).
    case done(outcome: String)
}

/// Where a job stands: the ledger's counts at the end of a run.
public struct ProvisioningLedgerCounts: Sendable, Hashable {
    /// The rows done.
    public var doneRows: Int
    /// Rows failed for good (their message cannot be built, or no tag could take it), in order.
    public var failedRows: [Int]
    /// Rows bound to a tag and not done, in order: that tag must come back to finish them.
    public var unfinishedRows: [Int]
    /// Rows never given to a tag.
    public var pendingRows: Int
    /// Rows bound to a tag at another station that still holds them (a database job's live
    /// lease): being written now, not waiting for their tag.
    public var rowsInProgressElsewhere: [Int] = []

    /// Counts from their parts.
    public init(doneRows: Int, failedRows: [Int], unfinishedRows: [Int], pendingRows: Int) {
        self.doneRows = doneRows
        self.failedRows = failedRows
        self.unfinishedRows = unfinishedRows
        self.pendingRows = pendingRows
    }
}
