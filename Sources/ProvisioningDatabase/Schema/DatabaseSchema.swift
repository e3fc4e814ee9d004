/// The tables and functions a job's database holds (and a verification server's counters, in
/// DatabaseSchema+SUNCounters.swift), and the ordered migrations that make them.
///
/// Every object's name begins with `ndeftool_`, so the schema can share a database (and its
/// `search_path`) with other applications. ``DatabaseSchema/migrate(_:)`` brings a database to
/// ``latestVersion``: under a transaction-level advisory lock, so that stations starting at the
/// same moment wait for one another, each missing migration runs, then is recorded in
/// `ndeftool_schema_version`, all in one transaction (PostgreSQL's DDL is transactional: a
/// migration cut short leaves nothing behind). A database newer than this ndeftool is refused,
/// never changed.
///
/// The "Batch jobs on PostgreSQL" article of the NDEFCommandLine documentation describes the
/// tables for people who query them.
enum DatabaseSchema {
    /// One step of the schema.
    struct Migration: Sendable {
        /// Its version: the versions are 1, 2, 3... in order.
        let version: Int
        /// What it does, in the version table.
        let description: String
        /// Its statements.
        let sql: String
    }

    /// The advisory lock key migrations hold: "ndeftool" in ASCII, as a 64-bit number.
    static let migrationLock: Int64 = 0x6E64_6566_746F_6F6C

    /// The version this ndeftool writes and reads.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The migrations, oldest first.
    static let migrations: [Migration] = [
        Migration(version: 1, description: "jobs, plan rows with leases, stations", sql: version1),
        Migration(version: 2, description: "SUN read counters accepted per key set and tag", sql: version2),
    ]

    /// Version 1: jobs, their rows, their stations, and the claim function.
    ///
    /// A row's `state` follows the file journal's stages: `pending` (in the pool), `claimed` (a
    /// station holds it, no tag yet), `writing`, `written`, `locked`, `password` (bound to the tag
    /// `uid`), `done`, or `failed` (bound to its tag when `uid` is set: waiting for it; for good
    /// when not). A claim is a lease: `station` holds it until `lease_expires_at`, and
    /// `lease_generation` is its fencing token, raised by every new claim.
    static let version1 = """
        CREATE TABLE ndeftool_jobs (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            name text NOT NULL UNIQUE,
            plan_sha256 bytea NOT NULL,
            plan_rows integer NOT NULL CHECK (plan_rows > 0),
            plan_fields jsonb NOT NULL,
            plan_source text,
            template text NOT NULL,
            options jsonb NOT NULL,
            lock_code_sha256 bytea,
            lease_seconds integer NOT NULL CHECK (lease_seconds BETWEEN 1 AND 86400),
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE ndeftool_rows (
            job_id bigint NOT NULL REFERENCES ndeftool_jobs (id) ON DELETE CASCADE,
            row_number integer NOT NULL,
            plan_line integer NOT NULL,
            plan_values jsonb NOT NULL,
            state text NOT NULL DEFAULT 'pending' CHECK (state IN
                ('pending', 'claimed', 'writing', 'written', 'locked', 'password', 'done', 'failed')),
            uid bytea,
            digest bytea,
            steps text[] NOT NULL DEFAULT '{}',
            station text,
            lease_generation bigint NOT NULL DEFAULT 0,
            lease_expires_at timestamptz,
            outcome text,
            reason text,
            size_refusals integer NOT NULL DEFAULT 0,
            updated_at timestamptz NOT NULL DEFAULT now(),
            done_at timestamptz,
            PRIMARY KEY (job_id, row_number)
        );
        CREATE UNIQUE INDEX ndeftool_rows_by_tag ON ndeftool_rows (job_id, uid) WHERE uid IS NOT NULL;
        CREATE INDEX ndeftool_rows_to_claim ON ndeftool_rows (job_id, row_number) WHERE state IN ('pending', 'claimed');
        CREATE INDEX ndeftool_rows_open ON ndeftool_rows (job_id)
            WHERE state <> 'done' AND NOT (state = 'failed' AND uid IS NULL);
        CREATE TABLE ndeftool_stations (
            job_id bigint NOT NULL REFERENCES ndeftool_jobs (id) ON DELETE CASCADE,
            name text NOT NULL,
            host text NOT NULL,
            reader text NOT NULL,
            state text NOT NULL,
            started_at timestamptz NOT NULL DEFAULT now(),
            last_seen timestamptz NOT NULL DEFAULT now(),
            tags_done integer NOT NULL DEFAULT 0,
            PRIMARY KEY (job_id, name)
        );
        CREATE FUNCTION ndeftool_claim(p_job bigint, p_uid bytea, p_station text, p_lease_seconds integer)
        RETURNS TABLE (claim_kind text, claim_row integer, claim_generation bigint, claim_line integer,
                       claim_values jsonb, claim_state text, claim_digest bytea, claim_steps text[], claim_holder text)
        LANGUAGE plpgsql AS $$
        DECLARE
            bound ndeftool_rows%ROWTYPE;
        BEGIN
            -- A tag bound to (or done with) a row of the job gets that row, or nothing.
            SELECT * INTO bound FROM ndeftool_rows r WHERE r.job_id = p_job AND r.uid = p_uid FOR UPDATE;
            IF FOUND THEN
                IF bound.state = 'done' THEN
                    RETURN QUERY SELECT 'done'::text, bound.row_number, bound.lease_generation, bound.plan_line,
                        NULL::jsonb, bound.state, NULL::bytea, bound.steps, bound.station;
                ELSIF bound.station IS NOT NULL AND bound.station <> p_station AND bound.lease_expires_at > now() THEN
                    RETURN QUERY SELECT 'busy'::text, bound.row_number, bound.lease_generation, bound.plan_line,
                        NULL::jsonb, bound.state, NULL::bytea, bound.steps, bound.station;
                ELSE
                    RETURN QUERY UPDATE ndeftool_rows r
                        SET station = p_station, lease_generation = r.lease_generation + 1,
                            lease_expires_at = now() + make_interval(secs => p_lease_seconds), updated_at = now()
                        WHERE r.job_id = p_job AND r.row_number = bound.row_number
                        RETURNING 'finish'::text, r.row_number, r.lease_generation, r.plan_line, r.plan_values,
                            r.state, r.digest, r.steps, r.station;
                END IF;
                RETURN;
            END IF;
            -- Any other tag: the first row in the pool, or claimed with no tag bound under a lease
            -- that ran out, or by this station before (its process died, or the claim's answer
            -- was lost): a station works on one tag at a time.
            RETURN QUERY WITH next AS (
                    SELECT r.row_number FROM ndeftool_rows r
                    WHERE r.job_id = p_job
                      AND (r.state = 'pending'
                           OR (r.state = 'claimed' AND (r.lease_expires_at < now() OR r.station = p_station)))
                    ORDER BY r.row_number
                    FOR UPDATE SKIP LOCKED
                    LIMIT 1)
                UPDATE ndeftool_rows r
                SET state = 'claimed', station = p_station, lease_generation = r.lease_generation + 1,
                    lease_expires_at = now() + make_interval(secs => p_lease_seconds), updated_at = now()
                FROM next
                WHERE r.job_id = p_job AND r.row_number = next.row_number
                RETURNING 'provision'::text, r.row_number, r.lease_generation, r.plan_line, r.plan_values, r.state,
                    NULL::bytea, r.steps, r.station;
        END
        $$;
        """
}
