import Foundation
import TagMemory
import TestSupport
import Testing

/// A batch job kept in a test database, run through the built binary.
struct DatabaseBatch {
    let folder: BatchFolder
    let database: TestDatabase

    /// The environment of every run: the database, and no master secret unless given.
    var environment: [String: String] { ["NDEFTOOL_DATABASE_URL": database.url] }

    /// Runs `ndeftool` with `arguments` in the folder, with the database in the environment.
    func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(180),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> BatchResult {
        try await folder.run(
            arguments, environment: self.environment.merging(environment) { $1 }, timeout: timeout,
            sourceLocation: sourceLocation)
    }

    /// Starts `ndeftool` with `arguments` in the folder, with the database in the environment.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> BackgroundRun {
        try folder.start(arguments, environment: self.environment.merging(environment) { $1 })
    }

    /// `--json` output of `arguments` as an object.
    func json(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let result = try await run(arguments, sourceLocation: sourceLocation)
        #expect(result.status == 0, "\(arguments): \(result.error)", sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
    }

    /// The lock code of the job `plan` (a `batch` command line with `--lock`) creates, from its
    /// dry run.
    func lockCode(_ plan: [String], environment: [String: String] = [:]) async throws -> String {
        let dry = try await run(plan + ["--dry-run", "--json"], environment: environment)
        return try #require(
            (try JSONSerialization.jsonObject(with: Data(dry.output.utf8)) as? [String: Any])?["lockCode"] as? String,
            "\(dry.output)\(dry.error)")
    }

    /// Done rows and their tags' UIDs, from the database.
    func doneRows(job: String) async throws -> [Int: String] {
        var rows: [Int: String] = [:]
        let lines = try await database.psql(
            """
            SELECT r.row_number, upper(encode(r.uid, 'hex')) FROM ndeftool_rows r JOIN ndeftool_jobs j ON j.id = r.job_id
            WHERE j.name = '\(job)' AND r.state = 'done'
            """)
        for line in lines {
            let parts = line.split(separator: "|")
            if parts.count == 2, let row = Int(parts[0]) { rows[row] = String(parts[1]) }
        }
        return rows
    }

    /// Checks the tags in `directory` against the done rows `byRow` of a `https://example.com/t/{counter}`
    /// job: each done row's tag holds exactly its message (a whole NDEF TLV), and no other tag
    /// holds a message of the job.
    static func expectTags(in directory: String, match byRow: [Int: String], rows: Int) throws {
        let files = try BatchFiles.tagFiles(in: directory)
        var rowOfTag: [String: Int] = [:]
        for (row, uid) in byRow {
            #expect(rowOfTag[uid] == nil, "tag \(uid) holds rows \(rowOfTag[uid] ?? 0) and \(row)")
            rowOfTag[uid] = row
        }
        let messages = try Dictionary(
            uniqueKeysWithValues: (1...rows).map { ($0, try BatchFiles.uriMessage("https://example.com/t/\($0)")) })
        let rowOfMessage = Dictionary(messages.map { ($0.value, $0.key) }) { first, _ in first }
        for (uid, file) in files {
            let memory = try BatchFiles.memory(ofTagFile: file)
            if let row = rowOfTag[uid] {
                try BatchFiles.expectTag(file, holds: messages[row] ?? [], "tag \(uid) (row \(row))")
            } else if let bytes = memory.ndefMessageBytes, !bytes.isEmpty {
                Issue.record("tag \(uid) holds row \(rowOfMessage[bytes] ?? 0)'s message but no row is done on it")
            }
        }
        for (row, uid) in byRow where files[uid] == nil {
            Issue.record("row \(row) is done on tag \(uid), which no supply has")
        }
    }
}
