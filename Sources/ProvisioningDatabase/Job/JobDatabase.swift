import JSONSupport
import NFCCrypto
import Provisioning

/// A PostgreSQL database that holds batch jobs, which stations on many machines share: create
/// or join a job, see where it stands, make its report, and open its ledger for stations.
///
/// Every call here opens a connection of its own and closes it; a ``DatabaseLedger`` keeps one
/// per station. The schema is created and upgraded on first use (``migrate()``).
public struct JobDatabase: Sendable {
    /// Where the database is.
    public let target: DatabaseTarget

    /// The database at `target`.
    public init(_ target: DatabaseTarget) { self.target = target }

    /// Where the schema stands, changing nothing.
    public func schemaStatus() async throws(DatabaseError) -> DatabaseSchemaStatus {
        try await withConnection("schema") { connection throws(DatabaseError) in
            let status = try DatabaseSchema.status(connection)
            return DatabaseSchemaStatus(
                version: status.version, latestVersion: DatabaseSchema.latestVersion,
                applied: status.applied.map { .init(version: $0.version, description: $0.description, time: $0.time) })
        }
    }

    /// Creates the schema or brings it up to date; returns the version it was at (0: none).
    ///
    /// - Throws: ``DatabaseError/Code/schemaTooNew`` for a database a later ndeftool upgraded.
    @discardableResult
    public func migrate() async throws(DatabaseError) -> Int {
        try await withConnection("migrate") { connection throws(DatabaseError) in
            try DatabaseSchema.migrate(connection)
        }
    }

    /// Creates the job `name` for `plan` as `header` describes it (plan rows loaded in the same
    /// transaction), or finds it when it exists and is the same job.
    ///
    /// - Parameters:
    ///   - name: the job's name, unique in the database.
    ///   - plan: the plan, whose rows are loaded with the job.
    ///   - header: what the job is: the plan's digest and size, the template, the options.
    ///   - leaseSeconds: how long a station's claim on a row lasts without renewal.
    ///   - lockCode: the job's lock confirmation code when it locks tags (only its SHA-256 is
    ///     stored).
    /// - Returns: the job, and whether this call created it.
    /// - Throws: ``DatabaseError/Code/jobMismatch`` when a job of that name exists with another
    ///   plan, template or options (its reason says what differs; nothing is changed).
    public func createJob(
        named name: String, plan: ProvisioningPlan, header: JournalHeader,
        leaseSeconds: Int = DatabaseJob.defaultLeaseSeconds, lockCode: String? = nil
    ) async throws(DatabaseError) -> (job: DatabaseJob, created: Bool) {
        try await migrate()
        let lockDigest: [UInt8]?
        do {
            lockDigest = try lockCode.map { code throws(CryptoError) in try SHA256.hash(Array(code.utf8)) }
        } catch {
            throw DatabaseError(.queryFailed, "the lock code's digest: \(error.reason)")
        }
        let result = try await withConnection("create") { connection throws(DatabaseError) in
            try connection.transaction { connection throws(DatabaseError) -> (DatabaseJob, Bool) in
                let options = JSONText.object(
                    header.options.sorted { $0.key < $1.key }.map { ($0.key, JSONText.quoted($0.value)) })
                let fields = "[" + plan.fields.map(JSONText.quoted).joined(separator: ",") + "]"
                let inserted = try connection.execute(
                    """
                    INSERT INTO ndeftool_jobs (name, plan_sha256, plan_rows, plan_fields, plan_source, template,
                        options, lock_code_sha256, lease_seconds)
                    VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7::jsonb, $8, $9)
                    ON CONFLICT (name) DO NOTHING
                    RETURNING \(DatabaseJob.columns)
                    """,
                    [
                        name, DatabaseBytes.encode(header.planDigest), String(header.planRowCount), fields,
                        header.planSource, header.template, options, lockDigest.map(DatabaseBytes.encode),
                        String(leaseSeconds),
                    ])
                if let row = inserted.first {
                    let job = try DatabaseJob(row)
                    try Self.insertRows(of: plan, job: job.id, connection)
                    return (job, true)
                }
                let job = try Self.job(named: name, connection)
                return (job, false)
            }
        }
        let differences = result.0.differences(from: header)
        guard differences.isEmpty else {
            throw DatabaseError(
                .jobMismatch,
                "the database has a job named \(name) that is not this one: " + differences.joined(separator: "; ")
                    + ". Join it with 'ndeftool batch --join \(name)', or give this job another --job name")
        }
        return result
    }

    /// The job named `name`.
    ///
    /// - Throws: ``DatabaseError/Code/jobNotFound``; ``DatabaseError/Code/schemaOutdated`` when
    ///   the database has no ndeftool schema at the current version.
    public func job(named name: String) async throws(DatabaseError) -> DatabaseJob {
        try await withConnection("job") { connection throws(DatabaseError) in
            if try DatabaseSchema.status(connection).version == 0 {
                throw DatabaseError(
                    .jobNotFound,
                    "the database has no job named \(name): it has no ndeftool jobs at all (the first 'ndeftool "
                        + "batch ... --job NAME' creates them)")
            }
            try Self.requireCurrentSchema(connection)
            return try Self.job(named: name, connection)
        }
    }

    /// Where the job stands now: rows by state, and each station.
    public func status(of job: DatabaseJob) async throws(DatabaseError) -> DatabaseJobStatus {
        try await withConnection("status") { connection throws(DatabaseError) in
            try DatabaseJobStatus.read(job: job, connection)
        }
    }

    /// Gives every row of `job` that failed for good before a tag was bound to it (too large for
    /// every tag, values that cannot be rendered) back to the pool, for the stations to try again
    /// (`batch --join NAME --retry-failed`). Rows failed on a tag stay bound to it.
    ///
    /// - Returns: the rows given back, in order.
    public func retryFailedRows(of job: DatabaseJob) async throws(DatabaseError) -> [Int] {
        let rows = try await withConnection("retry") { connection throws(DatabaseError) in
            try connection.execute(
                """
                UPDATE ndeftool_rows SET state = 'pending', reason = NULL, station = NULL, lease_expires_at = NULL,
                    updated_at = now()
                WHERE job_id = $1 AND state = 'failed' AND uid IS NULL
                RETURNING row_number
                """, [String(job.id)])
        }
        return rows.rows.compactMap { $0.int("row_number") }.sorted()
    }

    /// The job's report: one entry per row (row, UID, outcome, time, station, reason), with the
    /// plan values of `fields`.
    public func report(of job: DatabaseJob, fields: [String] = []) async throws(DatabaseError) -> ProvisioningReport {
        try await withConnection("report") { connection throws(DatabaseError) in
            try DatabaseReport.read(job: job, fields: fields, connection)
        }
    }

    /// Runs `body` on a new connection, closed afterwards.
    func withConnection<Value: Sendable>(
        _ purpose: String, _ body: @Sendable (isolated PostgresConnection) throws(DatabaseError) -> Value
    ) async throws(DatabaseError) -> Value {
        let connection = PostgresConnection(target, applicationName: "ndeftool \(purpose)")
        do {
            let value = try await connection.run(body)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }

    /// The job named `name` on `connection`.
    static func job(named name: String, _ connection: isolated PostgresConnection) throws(DatabaseError) -> DatabaseJob
    {
        let rows = try connection.execute("SELECT \(DatabaseJob.columns) FROM ndeftool_jobs WHERE name = $1", [name])
        guard let row = rows.first else {
            throw DatabaseError(.jobNotFound, "the database has no job named \(name)")
        }
        return try DatabaseJob(row)
    }

    /// Refuses a database whose schema is missing or not this ndeftool's version.
    static func requireCurrentSchema(_ connection: isolated PostgresConnection) throws(DatabaseError) {
        let version = try DatabaseSchema.status(connection).version
        if version > DatabaseSchema.latestVersion { throw DatabaseSchema.tooNew(version) }
        guard version == DatabaseSchema.latestVersion else {
            throw DatabaseError(
                .schemaOutdated,
                version == 0
                    ? "the database has no ndeftool jobs (its schema is created by the first 'ndeftool batch "
                        + "... --database URL --job NAME')"
                    : "the database's ndeftool schema is at version \(version), this ndeftool needs "
                        + "\(DatabaseSchema.latestVersion): run 'ndeftool batch db check --database URL --upgrade'")
        }
    }

    /// How many plan rows one INSERT carries.
    static let rowsPerInsert = 2_000

    /// Inserts the rows of `plan` for the job `job`, a few thousand per statement.
    static func insertRows(
        of plan: ProvisioningPlan, job: Int64, _ connection: isolated PostgresConnection
    ) throws(DatabaseError) {
        var number = 1
        while number <= plan.count {
            let last = min(plan.count, number + rowsPerInsert - 1)
            var elements: [String] = []
            elements.reserveCapacity(last - number + 1)
            for row in number...last {
                guard let values = plan.row(row) else { continue }
                let object = JSONText.object(
                    plan.fields.map { ($0, JSONText.quoted(values.values[$0] ?? "")) })
                elements.append("[\(row),\(values.line),\(object)]")
            }
            try connection.execute(
                """
                INSERT INTO ndeftool_rows (job_id, row_number, plan_line, plan_values)
                SELECT $1, (e->>0)::integer, (e->>1)::integer, e->2 FROM jsonb_array_elements($2::jsonb) AS e
                """, [String(job), "[" + elements.joined(separator: ",") + "]"])
            number = last + 1
        }
    }
}

/// Where a database's ndeftool schema stands (``JobDatabase/schemaStatus()``).
public struct DatabaseSchemaStatus: Sendable, Hashable {
    /// One migration applied.
    public struct Migration: Sendable, Hashable {
        /// Its version.
        public var version: Int
        /// What it did.
        public var description: String
        /// When it was applied (ISO 8601 UTC).
        public var time: String
    }

    /// The version the database is at (0: no ndeftool schema).
    public var version: Int
    /// The version this ndeftool writes and reads.
    public var latestVersion: Int
    /// The migrations applied, oldest first.
    public var applied: [Migration]

    /// Whether the database is at this ndeftool's version.
    public var isCurrent: Bool { version == latestVersion }
}
