/// Where a job stands, from any machine (``JobDatabase/status(of:)``): its rows by state and
/// its stations.
public struct DatabaseJobStatus: Sendable, Hashable {
    /// One station of the job.
    public struct Station: Sendable, Hashable {
        /// Its name in the job (`host/reader` unless given).
        public var name: String
        /// The machine it runs on.
        public var host: String
        /// Its reader.
        public var reader: String
        /// What it said it was doing when last seen (`waiting for tag`, `writing row 12`, `stopped: ...`).
        public var state: String
        /// Seconds since it was last heard of.
        public var secondsSinceSeen: Double
        /// The rows it finished.
        public var tagsDone: Int
        /// The rows it finished in the last minute: its rate, in tags per minute.
        public var tagsLastMinute: Int
        /// When it started (ISO 8601 UTC).
        public var started: String
    }

    /// The job.
    public var job: DatabaseJob
    /// The rows in the plan.
    public var rows: Int
    /// Rows finished.
    public var done: Int
    /// Rows a station holds now under a live claim.
    public var claimed: Int
    /// Rows in the pool (never given to a tag, or claimed under a lease that ran out before a
    /// tag was bound).
    public var pending: Int
    /// Rows bound to a tag and not finished, with no station working on them: they wait for
    /// their tag to come back to a reader of the job.
    public var waitingForTag: Int
    /// Rows that failed for good (their message cannot be built, no tag could take it).
    public var failed: Int
    /// The job's stations, by name.
    public var stations: [Station]

    /// Whether every row is done or failed for good.
    public var isComplete: Bool { done + failed == rows }

    /// The status of `job` on `connection`.
    static func read(job: DatabaseJob, _ connection: isolated PostgresConnection) throws(DatabaseError)
        -> DatabaseJobStatus
    {
        let counts = try connection.execute(
            """
            SELECT count(*) AS rows,
                   count(*) FILTER (WHERE state = 'done') AS done,
                   count(*) FILTER (WHERE state NOT IN ('done', 'failed', 'pending') AND station IS NOT NULL
                                    AND lease_expires_at > now()) AS claimed,
                   count(*) FILTER (WHERE state = 'pending' OR (state = 'claimed' AND lease_expires_at <= now()))
                       AS pending,
                   count(*) FILTER (WHERE uid IS NOT NULL AND state <> 'done'
                                    AND NOT (station IS NOT NULL AND lease_expires_at > now())) AS waiting,
                   count(*) FILTER (WHERE state = 'failed' AND uid IS NULL) AS failed
            FROM ndeftool_rows WHERE job_id = $1
            """, [String(job.id)])
        guard let row = counts.first else { throw DatabaseError(.unexpectedData, "no counts for job \(job.name)") }
        let stations = try connection.execute(
            """
            SELECT s.name, s.host, s.reader, s.state, s.tags_done,
                   extract(epoch FROM now() - s.last_seen) AS seen,
                   to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS started,
                   (SELECT count(*) FROM ndeftool_rows r
                    WHERE r.job_id = s.job_id AND r.station = s.name AND r.state = 'done'
                      AND r.done_at > now() - interval '1 minute') AS last_minute
            FROM ndeftool_stations s WHERE s.job_id = $1 ORDER BY s.name
            """, [String(job.id)])
        return DatabaseJobStatus(
            job: job, rows: row.int("rows") ?? 0, done: row.int("done") ?? 0, claimed: row.int("claimed") ?? 0,
            pending: row.int("pending") ?? 0, waitingForTag: row.int("waiting") ?? 0, failed: row.int("failed") ?? 0,
            stations: stations.rows.map { station in
                Station(
                    name: station.text("name") ?? "", host: station.text("host") ?? "",
                    reader: station.text("reader") ?? "", state: station.text("state") ?? "",
                    secondsSinceSeen: station.double("seen") ?? 0, tagsDone: station.int("tags_done") ?? 0,
                    tagsLastMinute: station.int("last_minute") ?? 0, started: station.text("started") ?? "")
            })
    }
}
