import Foundation
import TagMemory
import TestSupport
import Testing

extension BatchDatabaseTests {
    /// A station that loses the database for longer than its lease, between binding a row to
    /// its tag and the next step, through the binary and a server of the test's own.
    @Suite(.serialized, .timeLimit(.minutes(5))) struct LeaseTests {
        /// Holds a station in its first statement after the bind: a trigger makes every UPDATE of
        /// a row in `writing` wait for the advisory lock 4242, which a psql session of the test
        /// holds until the server stops.
        static let holdAfterBind = """
            CREATE FUNCTION test_hold() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF OLD.state = 'writing' THEN
                    PERFORM pg_advisory_lock_shared(4242);
                    PERFORM pg_advisory_unlock_shared(4242);
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER test_hold BEFORE UPDATE ON ndeftool_rows FOR EACH ROW EXECUTE FUNCTION test_hold();
            """

        @Test(
            "The server down for longer than the lease after the bind: the station does not lock that tag; run again, it finishes it"
        )
        func serverDownLongerThanTheLease() async throws {
            try await PostgresTestServer.with { server, database in
                try await run(DatabaseBatch(folder: try BatchFolder(), database: database), server: server)
            }
        }

        func run(_ batch: DatabaseBatch, server: PostgresTestServer) async throws {
            let tags = try batch.folder.tagDirectory()
            let plan = [
                "batch", "uri", BatchDatabaseTests.template, "--from", "1", "--to", "3", "--job", "lease", "--lock",
                "--lease", "3600",
            ]
            let code = try await batch.lockCode(plan)
            // The schema first (a database check upgrades it), then the trigger, then the lock held.
            #expect(try await batch.run(["batch", "db", "check", "--upgrade"]).status == 0)
            try await batch.database.psql(Self.holdAfterBind)
            let holder = try ChildProcess(
                URL(fileURLWithPath: (PostgresTest.binaries ?? "") + "/psql"),
                ["-X", "-q", "-d", batch.database.url, "-c", "SELECT pg_advisory_lock(4242), pg_sleep(600)"])
            #expect(
                await eventually {
                    (try? await batch.database.value("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"))
                        == "1"
                })
            let reader = "sim:ntag215?supply=1&seed=7&file=\(tags)"
            let station = try batch.start(plan + ["--confirm", code, "--reader", reader])
            // The station bound row 1 to its tag and waits in its next statement.
            let waiting = await eventually(within: .seconds(120)) {
                let state = try? await batch.database.value(
                    "SELECT (SELECT state FROM ndeftool_rows WHERE row_number = 1) || ' ' || (SELECT count(*) "
                        + "FROM pg_stat_activity WHERE application_name = 'ndeftool station' AND wait_event_type = 'Lock')"
                )
                return state == "writing 1"
            }
            #expect(waiting, "the station did not stop after its bind")
            // The database goes away for longer than the lease: the lease (an hour, which no
            // scheduling delay uses up) runs out while the server is down, by an update of the
            // server's own record that no client can race with.
            try await server.stop(mode: "immediate")
            _ = await holder.finish()
            try await server.runWhileStopped(
                "UPDATE ndeftool_rows SET lease_expires_at = now() - interval '1 second' WHERE row_number = 1",
                database: batch.database.name)
            try await server.startAgain()
            let stopped = await station.finish()
            #expect(stopped.status == 80, "\(stopped.output)\(stopped.error)")
            #expect(stopped.error.contains("before locking"), "\(stopped.error)")
            let uid = try #require(try BatchFiles.tagFiles(in: tags).keys.first)
            let file = tags + uid + ".nfc"
            try BatchFiles.expectTag(
                file, holds: try BatchFiles.uriMessage("https://example.com/t/1"), "the tag of row 1")
            #expect(try BatchFiles.memory(ofTagFile: file).ndefStatus.status != .readOnly, "locked on a lost lease")
            #expect(
                try await batch.database.value(
                    "SELECT state, upper(encode(uid, 'hex')), cardinality(steps) FROM ndeftool_rows WHERE row_number = 1"
                )
                    == "writing|\(uid)|0")

            // The same station again: the tag finishes its row, and only now is it locked.
            try await batch.database.psql("DROP TRIGGER test_hold ON ndeftool_rows")
            let again = try await batch.run(["batch", "--join", "lease", "--confirm", code, "--reader", reader])
            #expect(again.status == 75, "\(again.output)\(again.error)")
            #expect(try BatchFiles.memory(ofTagFile: file).ndefStatus.status == .readOnly)
            #expect(try await batch.doneRows(job: "lease") == [1: uid])
            // A job whose stored digest of the lock code is not its code is refused before any reader.
            try await batch.database.psql("UPDATE ndeftool_jobs SET lock_code_sha256 = '\\x00'")
            let tampered = try await batch.run(["batch", "--join", "lease", "--confirm", code, "--reader", reader])
            #expect(tampered.status == 65, "\(tampered.error)")
            #expect(tampered.error.contains("digest of its lock code"))
        }
    }
}
