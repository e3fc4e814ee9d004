import Foundation
import NTAG424
import TestSupport
import Testing

/// `ndeftool sdm verify --database` through the built binary: one tag's URLs accepted once,
/// the usage it refuses, a database out of reach, and four processes sharing one store while
/// the server runs on or restarts. Verdicts count URLs and rows, never time.
@Suite(.enabled(if: PostgresTest.isAvailable, PostgresTest.skipReason))
struct SDMVerifyDatabaseTests {
    /// A folder with the master key of ``SUNTestTags`` in `master.hex`.
    static func folder() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory("sdm-db")
        _ = try folder.file("master.hex", text: hexText(SUNTestTags.masterKey) + "\n")
        return folder
    }

    /// Runs `sdm verify --master-key-file master.hex` with `arguments` in `folder`.
    static func verify(
        _ arguments: [String], in folder: TemporaryDirectory, input: [UInt8] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RunResult {
        try await BinaryRunner.run(
            ["sdm", "verify", "--master-key-file", "master.hex"] + arguments, input: input, directory: folder.url,
            sourceLocation: sourceLocation)
    }

    @Test("A URL accepted once, then a replay (83) whoever sends it; a lower counter too; key sets apart")
    func acceptedOnce() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        try await TestDatabase.with { database in
            let tags = try SUNTestTags(count: 1)
            let (three, four, two) = (
                try tags.read(tag: 0, counter: 3), try tags.read(tag: 0, counter: 4), try tags.read(tag: 0, counter: 2)
            )
            let uid = hexText(three.uid)
            let store = ["--database", database.uri]
            let first = try await Self.verify(store + [three.url], in: folder)
            #expect(first.status == 0 && first.outputText == "valid: UID \(uid), counter 3\n", "\(first.error)")
            let again = try await Self.verify(store + [three.url], in: folder)
            #expect(again.status == 83)
            #expect(
                again.outputText
                    == "NOT VALID: replayed: counter 3 is not above the last one accepted, 3 (UID \(uid), counter 3)\n")
            let lower = try await Self.verify(store + ["--json", two.url], in: folder)
            #expect(lower.status == 83)
            var validator = JSONSchemaValidator()
            #expect(try validator.problems(lower.outputText, schema: "sdm-verify.schema.json").isEmpty)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(lower.output)) as? [String: Any])
            #expect(object["problem"] as? String == "replayed: counter 2 is not above the last one accepted, 3")
            #expect(object["valid"] as? Bool == false && object["counter"] as? Int == 2)
            // A URL that does not verify never reaches the store, whatever its counter.
            let forged = String(four.url.dropLast()) + (four.url.hasSuffix("0") ? "1" : "0")
            let refused = try await Self.verify(store + [forged], in: folder)
            #expect(refused.status == 83 && refused.outputText.hasPrefix("NOT VALID: the SDMMAC does not verify"))
            let master = try NTAG424MasterKey(SUNTestTags.masterKey)
            let keySet = "master-" + hexText(try master.keyCheckValue())
            #expect(
                try await database.psql("SELECT key_set, upper(encode(uid, 'hex')), counter FROM ndeftool_sun_counters")
                    == ["\(keySet)|\(uid)|3"])
            #expect(try await Self.verify(store + [four.url], in: folder).status == 0)
            // Another key set counts apart: counter 3 is new there.
            let other = try await Self.verify(store + ["--key-set", "hall-b", three.url], in: folder)
            #expect(other.status == 0, "\(other.outputText)")
            #expect(
                try await database.psql("SELECT key_set, counter FROM ndeftool_sun_counters ORDER BY key_set")
                    == ["hall-b|3", "\(keySet)|4"])
        }
    }

    @Test("With key files, the counters are kept under file-read- and the SDMFileRead key's check value")
    func fileReadKeySet() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        _ = try folder.file("zero.hex", text: String(repeating: "0", count: 32) + "\n")
        try await TestDatabase.with { database in
            // A tag that mirrors its UID and counter in plain (zero keys).
            let url = "https://x/?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3"
            let arguments = ["sdm", "verify", "--file-read-key-file", "zero.hex", "--database", database.uri, url]
            let first = try await BinaryRunner.run(arguments, directory: folder.url)
            #expect(first.status == 0 && first.outputText == "valid: UID 041E3C8A2D6B80, counter 6\n", "\(first.error)")
            let again = try await BinaryRunner.run(arguments, directory: folder.url)
            #expect(again.status == 83 && again.outputText.contains("replayed: counter 6"))
            #expect(
                try await database.psql("SELECT key_set, upper(encode(uid, 'hex')), counter FROM ndeftool_sun_counters")
                    == ["file-read-66E94B|041E3C8A2D6B80|6"])
        }
    }

    @Test(
        "Usage errors (64): --database with --last-counter, --key-set or --accept-log alone, a bad key set, a password")
    func usage() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let url = try SUNTestTags(count: 1).read(tag: 0, counter: 1).url
        for arguments in [
            ["--database", "host=/nonexistent", "--last-counter", "3"], ["--key-set", "a"], ["--accept-log"],
            ["--database", "host=/nonexistent", "--key-set", ""],
            ["--database", "host=/nonexistent", "--key-set", String(repeating: "k", count: 201)],
            ["--database", "postgresql://ndeftool:secret@localhost/db"],
        ] {
            let result = try await Self.verify(arguments + [url], in: folder)
            #expect(result.status == 64, "\(arguments): \(result.error)")
            #expect(!result.error.contains("secret"), "the password is never shown")
        }
    }

    @Test("A database out of reach: a URL that verifies is not accepted (69); one that does not is 83 at once")
    func unreachable() async throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let url = try SUNTestTags(count: 1).read(tag: 0, counter: 1).url
        let forged = String(url.dropLast()) + (url.hasSuffix("0") ? "1" : "0")
        let store = ["--database", "host=\(folder.path) port=1 dbname=none"]
        let refused = try await Self.verify(store + [forged], in: folder)
        #expect(refused.status == 83 && !refused.error.contains("counter store"), "\(refused.error)")
        let result = try await Self.verify(store + ["-"], in: folder, input: Array((url + "\n" + forged + "\n").utf8))
        #expect(result.status == 69, "\(result.error)")
        let lines = result.outputText.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("NOT VALID: not accepted: the counter store could not decide: ") == true)
        #expect(lines.last?.hasPrefix("NOT VALID: the SDMMAC does not verify") == true)
        #expect(result.error.components(separatedBy: "Warning: the counter store did not decide").count == 2)
    }

    @Test("4 processes, overlapping streams of 50 tags x 40 counters: each counter once, in commit order per tag")
    func fourProcesses() async throws {
        try await TestDatabase.with { database in try await SharedStoreRun(database: database).run(restarting: nil) }
    }

    @Test("The same with the server restarted half-way: every process finishes, and the same holds")
    func fourProcessesThroughARestart() async throws {
        try await PostgresTestServer.with { server, database in
            try await SharedStoreRun(database: database).run(restarting: server)
        }
    }
}
