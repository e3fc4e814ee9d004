extension DatabaseSchema {
    /// Where a database's schema stands.
    struct Status: Sendable, Hashable {
        /// The version it is at (0: no ndeftool schema yet).
        var version: Int
        /// The migrations applied, oldest first: version, description, time.
        var applied: [(version: Int, description: String, time: String)]

        static func == (lhs: Status, rhs: Status) -> Bool { lhs.version == rhs.version }
        func hash(into hasher: inout Hasher) { hasher.combine(version) }
    }

    /// The table that records the migrations applied.
    static let versionTable = """
        CREATE TABLE IF NOT EXISTS ndeftool_schema_version (
            version integer PRIMARY KEY,
            description text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
        )
        """

    /// The schema's status on `connection`'s database, changing nothing.
    static func status(_ connection: isolated PostgresConnection) throws(DatabaseError) -> Status {
        let present = try connection.execute("SELECT to_regclass('ndeftool_schema_version') IS NOT NULL AS present")
        guard present.first?.bool("present") == true else { return Status(version: 0, applied: []) }
        let rows = try connection.execute(
            "SELECT version, description, to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS time "
                + "FROM ndeftool_schema_version ORDER BY version")
        let applied = rows.rows.compactMap { row -> (Int, String, String)? in
            guard let version = row.int("version") else { return nil }
            return (version, row.text("description") ?? "", row.text("time") ?? "")
        }
        return Status(version: applied.map(\.0).max() ?? 0, applied: applied)
    }

    /// Brings `connection`'s database to ``latestVersion``, in one transaction under the
    /// migration lock; returns the version it was at.
    ///
    /// - Throws: ``DatabaseError/Code/schemaTooNew`` when the database is at a later version
    ///   than this ndeftool knows (nothing is changed).
    @discardableResult
    static func migrate(_ connection: isolated PostgresConnection) throws(DatabaseError) -> Int {
        // The common case, a current schema, takes no lock.
        let before = try status(connection).version
        if before == latestVersion { return before }
        if before > latestVersion { throw tooNew(before) }
        return try connection.transaction { connection throws(DatabaseError) -> Int in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(migrationLock)])
            try connection.executeScript(versionTable)
            // Another station may have migrated while this one waited for the lock.
            let current = try status(connection).version
            if current > latestVersion { throw tooNew(current) }
            for migration in migrations where migration.version > current {
                try connection.executeScript(migration.sql)
                try connection.execute(
                    "INSERT INTO ndeftool_schema_version (version, description) VALUES ($1, $2)",
                    [String(migration.version), migration.description])
            }
            return current
        }
    }

    /// The refusal of a database whose schema is at `version`, later than this ndeftool's.
    static func tooNew(_ version: Int) -> DatabaseError {
        DatabaseError(
            .schemaTooNew,
            "the database's ndeftool schema is at version \(version), newer than this ndeftool's (\(latestVersion)): "
                + "use the ndeftool that upgraded it; nothing was changed")
    }
}
