import NFCSession

/// What a station (one reader of a job) is doing, for a status line.
public enum ProvisioningStationState: Sendable, Hashable, CustomStringConvertible {
    /// Waiting for a tag.
    case waitingForTag
    /// Writing `row` to a tag.
    case writing(row: Int)
    /// Finishing `row`, which a tag brought back (its write was interrupted before).
    case finishing(row: Int)
    /// Locking the tag of `row`.
    case locking(row: Int)
    /// Setting the password of the tag of `row`.
    case settingPassword(row: Int)
    /// Done with the tag: it should be taken away.
    case removeTag
    /// The reader went away; it is being reconnected.
    case reconnecting
    /// The station stopped, for `reason`.
    case stopped(reason: String)

    public var description: String {
        switch self {
        case .waitingForTag: "waiting for tag"
        case .writing(let row): "writing row \(row)"
        case .finishing(let row): "finishing row \(row)"
        case .locking(let row): "locking row \(row)"
        case .settingPassword(let row): "setting password, row \(row)"
        case .removeTag: "remove tag"
        case .reconnecting: "reconnecting"
        case .stopped(let reason): "stopped: \(reason)"
        }
    }
}

/// What happens during a job, in order per station, for a person to follow.
public enum ProvisioningJobEvent: Sendable, Hashable {
    /// A station changed what it is doing.
    case stationState(station: String, ProvisioningStationState)
    /// `row` is finished on the tag `uid`: `outcome` is `written`, `written+locked`, ...
    case rowDone(row: Int, uid: [UInt8], station: String, outcome: String)
    /// The write (or a later step) of `row` on the tag `uid` did not complete: the row stays
    /// with that tag. When `canFinish` (the tag or the reader went away), the tag finishes it
    /// when it is brought back to any reader of the job; otherwise the tag refused a step (a
    /// lock or a password it cannot take) and the row is left for the report.
    case rowInterrupted(row: Int, uid: [UInt8], station: String, reason: String, canFinish: Bool)
    /// `row` cannot be provisioned (its message cannot be built): it is left for the report.
    case rowFailed(row: Int, station: String, reason: String)
    /// The tag `uid` was not given a row, for `reason`: it is already done in this job (as row
    /// `doneRow`), it refused the write before anything was written (too small, read-only...),
    /// or no row is left for it.
    case tagRefused(uid: [UInt8], station: String, reason: String, doneRow: Int?)
    /// The reader failed while looking for a tag (the station tries again, and stops after
    /// several failures in a row).
    case readerError(station: String, reason: String)
    /// A reader's session reported a change (reconnect started, succeeded or failed; several
    /// tags in the field).
    case session(station: String, NFCSessionEvent)
    /// A station's connection to the job's database went away (`reconnectStarted`), came back
    /// (`reconnectSucceeded`, with the database's description), or was given up
    /// (`reconnectFailed`): the events a reader's connection gives.
    case database(station: String, NFCReaderLifecycleEvent)
}
