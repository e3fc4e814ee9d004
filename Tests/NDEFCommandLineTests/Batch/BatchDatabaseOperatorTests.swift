import Foundation
import TestSupport
import Testing

/// A database job as an operator leaves it: rows edited by hand, rows that failed for good, the
/// same desk joining with its reader spelled another way, a report to standard output. Through
/// the built binary and a real PostgreSQL.
@Suite(.serialized, .timeLimit(.minutes(10)), .enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct BatchDatabaseOperatorTests {
    static let template = "https://example.com/t/{counter}"

    func withBatch(_ body: (DatabaseBatch) async throws -> Void) async throws {
        let folder = try BatchFolder()
        try await TestDatabase.with { database in try await body(DatabaseBatch(folder: folder, database: database)) }
    }

    /// `UPDATE` of row `row`'s `plan_values` of job `job` to `json` (SQL text).
    func setValues(_ batch: DatabaseBatch, job: String, row: Int, _ json: String) async throws {
        _ = try await batch.database.psql(
            """
            UPDATE ndeftool_rows r SET plan_values = \(json) FROM ndeftool_jobs j
            WHERE j.id = r.job_id AND j.name = '\(job)' AND r.row_number = \(row)
            """)
    }

    @Test(
        "plan_values edited into [1,2], {}, null or a number: those rows fail with their reason, the job goes on (84); repaired, --retry-failed finishes it"
    )
    func unusableRowsFailAndRetry() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            let create = [
                "batch", "uri", Self.template, "--from", "1", "--to", "6", "--job", "edited", "-q", "--reader",
                "sim:ntag215?supply=1&seed=1&file=\(tags)",
            ]
            let first = try await batch.run(create)
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let original = try await batch.database.psql(
                """
                SELECT r.plan_values::text FROM ndeftool_rows r JOIN ndeftool_jobs j ON j.id = r.job_id
                WHERE j.name = 'edited' AND r.row_number = 2
                """)
            #expect(original == [#"{"counter": "2"}"#], "\(original)")
            for (row, json) in [(2, "'[1,2]'"), (3, "'{}'"), (4, "'null'"), (5, #"'{"counter": 5}'"#)] {
                try await setValues(batch, job: "edited", row: row, json)
            }
            let join = ["batch", "--join", "edited", "-q", "--reader", "sim:ntag215?supply=10&seed=2&file=\(tags)"]
            let second = try await batch.run(join)
            #expect(second.status == 84, "\(second.output)\(second.error)")
            #expect(second.output.contains("Job edited: 2 of 6 rows done"), "\(second.output)")
            #expect(second.output.contains("Failed: rows 2, 3, 4, 5 cannot be built"), "\(second.output)")
            #expect(second.output.contains("--retry-failed"), "\(second.output)")
            let report = try await batch.run(["batch", "report", "--job", "edited"])
            #expect(report.status == 0, "\(report.error)")
            for reason in [
                "row 2 cannot be rendered: its plan_values are not an object of the plan's fields",
                "row 3 cannot be rendered: its plan_values have no counter",
                "row 4 cannot be rendered: its plan_values are not an object of the plan's fields",
                "row 5 cannot be rendered: its plan_values hold a counter that is not a string",
            ] {
                #expect(report.output.contains(reason), "\(report.output)")
            }

            // Repaired by hand, the rows go back with --retry-failed, and the job finishes.
            for row in 2...5 { try await setValues(batch, job: "edited", row: row, "'{\"counter\": \"\(row)\"}'") }
            let retried = try await batch.run(join.filter { $0 != "-q" } + ["--retry-failed"])
            #expect(retried.status == 0, "\(retried.output)\(retried.error)")
            #expect(retried.error.contains("--retry-failed: rows 2, 3, 4, 5 go back to the pool"), "\(retried.error)")
            let byRow = try await batch.doneRows(job: "edited")
            #expect(byRow.count == 6)
            try DatabaseBatch.expectTags(in: tags, match: byRow, rows: 6)
        }
    }

    @Test(
        "A desk joining again with its reader URL spelled another way is the same station; finished tags are no refusals; report -o - is standard output"
    )
    func stationIdentityAndReportToStandardOutput() async throws {
        try await withBatch { batch in
            let tags = try batch.folder.tagDirectory()
            // Ctrl-C at the simulated reader's 40th command, a few rows in.
            let first = try await batch.run([
                "batch", "uri", Self.template, "--from", "1", "--to", "8", "--job", "desk", "-q", "--reader",
                "sim:ntag215?file=\(tags)&supply=8&seed=3&signal-after=40&signal=INT",
            ])
            #expect(first.status == 130, "\(first.output)\(first.error)")
            let doneFirst = try await batch.doneRows(job: "desk").count
            #expect(doneFirst > 0 && doneFirst < 8)
            // The Continue with line, reordered by hand: the same desk, its supply from the first tag.
            let second = try await batch.run([
                "batch", "--join", "desk", "-q", "--reader", "sim:ntag215?seed=3&supply=8&file=\(tags)",
            ])
            #expect(second.status == 0, "\(second.output)\(second.error)")
            let already =
                doneFirst == 1
                ? "1 tag already done, left as it was." : "\(doneFirst) tags already done, left as they were."
            #expect(second.output.contains("0 tags refused; " + already), "\(second.output)")
            let stations = try await batch.database.psql(
                """
                SELECT DISTINCT r.station FROM ndeftool_rows r JOIN ndeftool_jobs j ON j.id = r.job_id
                WHERE j.name = 'desk' AND r.station IS NOT NULL
                """)
            #expect(stations.count == 1, "\(stations)")
            #expect(stations.first?.hasSuffix("/sim:ntag215?file=\(tags)&supply=8&seed=3") == true, "\(stations)")

            let report = try await batch.run(["batch", "report", "--job", "desk", "-o", "-"])
            #expect(report.status == 0, "\(report.error)")
            #expect(report.output.hasPrefix("row,uid,outcome,time"), "\(report.output)")
            #expect(!FileManager.default.fileExists(atPath: batch.folder.path("-")))
        }
    }
}
