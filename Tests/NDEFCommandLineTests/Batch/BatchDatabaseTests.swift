import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

/// `ndeftool batch --job/--join` with the job in a real PostgreSQL server, through the built
/// binary: stations in separate processes, the job's guarantees across them.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct BatchDatabaseTests {
    static let template = "https://example.com/t/{counter}"

    /// Runs `body` with a folder and a database of its own.
    func withBatch(_ body: (DatabaseBatch) async throws -> Void) async throws {
        let folder = try BatchFolder()
        try await TestDatabase.with { database in try await body(DatabaseBatch(folder: folder, database: database)) }
    }

    @Test("Created on one station, the same command joins it, another plan is refused; status, report and db check")
    func createJoinStatusReport() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            let create = [
                "batch", "uri", Self.template, "--from", "1", "--to", "30", "--job", "tags", "-q", "--reader",
                "sim:ntag215?supply=20&seed=1&file=\(tags)",
            ]
            let first = try await batch.run(create)
            #expect(first.status == 75, "\(first.output)\(first.error)")
            #expect(first.output.contains("Job tags: 20 of 30 rows done"), "\(first.output)")
            #expect(first.output.contains("Continue with: ndeftool batch --join tags --reader"), "\(first.output)")

            // The same plan and options again: the job is joined, and finished.
            var again = create
            again[again.count - 1] = "sim:ntag215?supply=20&seed=2&file=\(tags)"
            let second = try await batch.run(again + ["--json"])
            #expect(second.status == 0, "\(second.error)")
            var validator = JSONSchemaValidator()
            #expect(try validator.problems(second.output, schema: "batch.schema.json").isEmpty)
            let summary = try #require(
                try JSONSerialization.jsonObject(with: Data(second.output.utf8)) as? [String: Any])
            #expect(summary["job"] as? String == "tags" && summary["done"] as? Int == 30)
            #expect(summary["doneThisRun"] as? Int == 10)

            // Another template under the same name: refused, saying what differs.
            var other = create
            other[2] = "https://example.com/other/{counter}"
            let refused = try await batch.run(other)
            #expect(refused.status == 65)
            #expect(refused.error.contains("the template differs"), "\(refused.error)")
            // Another plan too.
            var longer = create
            longer[6] = "31"
            let refusedPlan = try await batch.run(longer)
            #expect(refusedPlan.status == 65)
            #expect(refusedPlan.error.contains("the plan differs"), "\(refusedPlan.error)")

            // Every row on exactly one tag.
            let byRow = try await batch.doneRows(job: "tags")
            #expect(byRow.count == 30)
            try DatabaseBatch.expectTags(in: tags, match: byRow, rows: 30)

            // Status, report and db check, against their schemas.
            let status = try await batch.run(["batch", "status", "--job", "tags", "--json"])
            #expect(try validator.problems(status.output, schema: "batch-status.schema.json").isEmpty)
            let object = try await batch.json(["batch", "status", "--job", "tags", "--json"])
            #expect(object["done"] as? Int == 30 && object["complete"] as? Bool == true)
            #expect((object["stations"] as? [[String: Any]])?.count == 2)
            let report = try await batch.run(["batch", "report", "--job", "tags", "--json"])
            #expect(try validator.problems(report.output, schema: "batch-report.schema.json").isEmpty)
            let csv = try await batch.run(["batch", "report", "--job", "tags", "-o", "tags.csv"])
            #expect(csv.status == 0)
            let text = try String(contentsOfFile: batch.folder.path("tags.csv"), encoding: .utf8)
            let lines = text.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            #expect(lines.first?.joined(separator: ",") == "row,uid,outcome,time,station,reason,counter")
            let rows = lines.dropFirst().map { $0.map(String.init) }
            #expect(rows.count == 30)
            for cells in rows {
                let row = try #require(Int(cells[0]))
                #expect(
                    cells[1] == byRow[row] && cells[2] == "written" && cells[4].contains("/sim:ntag215"), "\(cells)")
            }
            let check = try await batch.run(["batch", "db", "check", "--json"])
            #expect(check.status == 0)
            #expect(try validator.problems(check.output, schema: "batch-db-check.schema.json").isEmpty)
        }
    }

    @Test("NTAG 424 DNA secure messages in a database job: two stations, each tag's URL verifies with its own keys")
    func secureMessages() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            let keyFile = try batch.folder.file("master.hex", hexText(BatchSDMTests.master))
            let create = [
                "batch", "uri", BatchSDMTests.template, "--from", "1", "--to", "4", "--job", "sun", "-q",
                "--sdm-master-key-file", keyFile,
            ]
            let code = try await batch.lockCode(create)
            let first = try await batch.run(
                create + ["--confirm", code, "--reader", "sim:ntag424?supply=2&seed=1&file=\(tags)"])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            // Joining needs the master key again: the database holds only its check value.
            let withoutKey = try await batch.run([
                "batch", "--join", "sun", "--reader", "sim:ntag424?supply=2&seed=2&file=\(tags)", "--confirm", code,
            ])
            #expect(
                withoutKey.status == 64 && withoutKey.error.contains("--sdm-master-key-file"), "\(withoutKey.error)")
            let second = try await batch.run([
                "batch", "--join", "sun", "--sdm-master-key-file", keyFile, "--reader",
                "sim:ntag424?supply=2&seed=2&file=\(tags)", "--confirm", code, "-q",
            ])
            #expect(second.status == 0, "\(second.output)\(second.error)")
            let byRow = try await batch.doneRows(job: "sun")
            #expect(byRow.count == 4)
            let urls = try await BatchSDMTests.urls(batch.folder, tags: tags)
            #expect(Set(urls.keys) == Set(byRow.values))
            for (row, uid) in byRow {
                let url = try #require(urls[uid])
                #expect(url.hasPrefix("https://x.example/t/\(row)?picc_data="), "row \(row): \(url)")
                let checked = try await BinaryRunner.run(["sdm", "verify", "--master-key-file", keyFile, url])
                #expect(checked.outputText.hasPrefix("valid: UID \(uid),"), "\(checked.outputText)")
            }
        }
    }

    @Test("MIFARE Classic cards in a database job: a join needs the keys file, and its key B; every card formatted")
    func classicCards() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            let keys = try batch.folder.file("keys.txt", "key-b \(BatchClassicTests.keyB)\n")
            let create = [
                "batch", "uri", "https://x.test/c/{counter}", "--from", "1", "--to", "4", "--job", "classic", "-q",
                "--keys-file", keys, "--lock",
            ]
            let code = try await batch.lockCode(create)
            let first = try await batch.run(
                create + ["--confirm", code, "--reader", "sim:classic1k?supply=2&seed=1&file=\(tags)"])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let join = ["batch", "--join", "classic", "--confirm", code, "-q"]
            let reader = ["--reader", "sim:classic1k?supply=2&seed=2&file=\(tags)"]
            let withoutKeys = try await batch.run(join + reader)
            #expect(withoutKeys.status == 64 && withoutKeys.error.contains("--keys-file"), "\(withoutKeys.error)")
            let other = try batch.folder.file("other.txt", "key-b 111111111111\n")
            let wrongKey = try await batch.run(join + ["--keys-file", other] + reader)
            #expect(wrongKey.status == 65 && wrongKey.error.contains("key B"), "\(wrongKey.error)")
            let second = try await batch.run(join + ["--keys-file", keys] + reader)
            #expect(second.status == 0, "\(second.output)\(second.error)")
            let byRow = try await batch.doneRows(job: "classic")
            #expect(byRow.count == 4)
            try await BatchClassicTests.checkCards(batch.folder, tags: tags, byRow: byRow, locked: true)
            let options = try await batch.database.psql(
                "SELECT options::text FROM ndeftool_jobs WHERE name = 'classic'")
            #expect(
                options.joined().contains("classic-key-b-check") && !options.joined().contains(BatchClassicTests.keyB))
        }
    }

    @Test("A database URL with a password on the command line is refused (64); a job not there is 66")
    func refusals() async throws {
        try await withBatch { batch in
            for url in ["postgresql://user:secret@localhost/db", "host=localhost password=secret dbname=x"] {
                let result = try await batch.run(["batch", "status", "--job", "tags", "--database", url])
                #expect(result.status == 64, "\(result.error)")
                #expect(result.error.contains("--database holds a password") && !result.error.contains("secret"))
            }
            let missing = try await batch.run(["batch", "--join", "nope", "--reader", "sim:ntag215?supply=1"])
            #expect(missing.status == 66, "\(missing.error)")
            let journal = try await batch.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "3", "--job", "j", "--journal", "x.journal",
            ])
            #expect(journal.status == 64)
        }
    }

    @Test(
        "A station that ends while another still writes a row: 75, the row said to be written at another station, not 80"
    )
    func rowWrittenElsewhere() async throws {
        // Seen on a loaded machine: a station ended 80 ("rows 400 wait for their tags") while
        // another station was writing row 400 under its live lease.
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            // Station A takes row 1 and halts (SIGSTOP) in the middle of writing it; its lease holds.
            let first = try batch.start([
                "batch", "uri", Self.template, "--from", "1", "--to", "3", "--job", "elsewhere", "-q", "--reader",
                "sim:ntag215?supply=1&seed=51&file=\(tags)&signal-after=8&signal=STOP",
            ])
            #expect(await eventually { first.child.isStopped || !first.isRunning }, "station A did not halt")
            let bound = try await batch.database.psql(
                """
                SELECT r.state FROM ndeftool_rows r JOIN ndeftool_jobs j ON j.id = r.job_id
                WHERE j.name = 'elsewhere' AND r.row_number = 1 AND r.uid IS NOT NULL AND r.state <> 'done'
                """)
            #expect(bound.count == 1, "row 1 is not being written at station A: \(bound)")
            // Station B does rows 2 and 3 and ends while A holds row 1.
            let second = try await batch.run([
                "batch", "--join", "elsewhere", "--reader", "sim:ntag215?supply=3&seed=52&file=\(tags)", "--wait",
                "0.3",
            ])
            #expect(second.status == 75, "\(second.output)\(second.error)")
            #expect(second.output.contains("row 1 is being written at another station"), "\(second.output)")
            #expect(!second.output.contains("wait for their tags"), "\(second.output)")
            // The same in JSON, valid under the summary's schema.
            let json = try await batch.run([
                "batch", "--join", "elsewhere", "--json", "--reader", "sim:ntag215?supply=1&seed=53&file=\(tags)",
                "--wait", "0.3",
            ])
            #expect(json.status == 75, "\(json.error)")
            var validator = JSONSchemaValidator()
            #expect(try validator.problems(json.output, schema: "batch.schema.json").isEmpty, "\(json.output)")
            let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
            #expect(object?["rowsInProgressElsewhere"] as? [Int] == [1], "\(json.output)")
            #expect(object?["unfinishedRows"] as? [Int] == [], "\(json.output)")
            first.send(SIGCONT)
            let resumed = await first.finish()
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(try await batch.doneRows(job: "elsewhere").count == 3)
        }
    }

    @Test("Four station processes on one 400-row job with lock and derived passwords: every row on exactly one tag")
    func fourStations() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            let secret = "four stations: 0123456789abcdef"
            let environment = ["NDEFTOOL_MASTER_SECRET": secret]
            let plan = [
                "batch", "uri", Self.template, "--from", "1", "--to", "400", "--job", "big", "--lock",
                "--derive-passwords",
            ]
            let code = try await batch.lockCode(plan, environment: environment)
            // The job is created by a station with one tag; four others join it.
            let creator = try await batch.run(
                plan + ["--confirm", code, "-q", "--reader", "sim:ntag215?supply=1&seed=100&file=\(tags)"],
                environment: environment)
            #expect(creator.status == 75, "\(creator.output)\(creator.error)")
            let stations = try (1...4).map { number in
                try batch.start(
                    [
                        "batch", "--join", "big", "--confirm", code, "-q", "--reader",
                        "sim:ntag215?supply=120&seed=\(number)&file=\(tags)",
                    ], environment: environment)
            }
            for station in stations {
                let result = await station.finish(timeout: .seconds(300))
                #expect([0, 75].contains(result.status) && !result.signalled, "\(result.output)\(result.error)")
            }
            let byRow = try await batch.doneRows(job: "big")
            #expect(byRow.count == 400)
            try DatabaseBatch.expectTags(in: tags, match: byRow, rows: 400)
            let derivation = try TagPasswordDerivation(masterSecret: Array(secret.utf8))
            for (row, uid) in byRow.sorted(by: { $0.key < $1.key }) where row % 20 == 1 {
                let file = tags + uid + ".nfc"
                #expect(try BatchFiles.memory(ofTagFile: file).ndefStatus.status == .readOnly, "row \(row)")
                #expect(
                    try BatchFiles.dump(ofTagFile: file).password == (try derivation.derive(uid: hex(uid))).password,
                    "row \(row): not its derived password")
            }
            // Nothing secret went to the database.
            let options = try await batch.database.value("SELECT options::text FROM ndeftool_jobs")
            #expect(!options.contains(secret))
            let outcomes = try await batch.database.psql("SELECT DISTINCT outcome FROM ndeftool_rows")
            #expect(outcomes == ["written+locked+password"])
        }
    }
}
