import Foundation
import TestSupport
import Testing

@testable import CommandLineKit
@testable import NDEFCommandLine

/// Every `--json` output against its schema in `Fixtures/schemas/` (one file per command, the
/// shared shapes in `definitions.schema.json`): the commands run with the built ndeftool on
/// simulated tags and the dumps of the fixtures, in the situations that change what they print.
@Suite struct JSONSchemaTests {
    /// One command line and the schema its standard output must follow.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var schema: String
        /// The exit status expected (a failure prints the error object).
        var status: Int32 = 0

        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let dumps = PackagePaths.fixtures.appendingPathComponent("dumps").path

    /// In order, in one folder holding `Fixtures/examples`: each case may rely on the ones before.
    static let cases: [Case] = [
        Case(arguments: ["decode", "--json", "message.ndef"], schema: "decode"),
        Case(arguments: ["encode", "--from-json", "message.json", "-o", "copy.ndef"], schema: "", status: 0),
        Case(arguments: ["read", "--json"], schema: "read"),
        Case(arguments: ["info", "--json"], schema: "info"),
        Case(arguments: ["info", "--json", "--reader", "sim:type4?file=t4.txt"], schema: "info"),
        Case(arguments: ["info", "--json", "--reader", "sim:ultralight-c"], schema: "info"),
        Case(arguments: ["info", "--json", "--reader", "sim:ultralight-ev1"], schema: "info"),
        Case(arguments: ["inspect", "--json", "tag.nfc"], schema: "inspect"),
        Case(arguments: ["inspect", "--json", "\(dumps)/mifare-classic-1k-ndef-libnfc.mfd"], schema: "inspect"),
        Case(arguments: ["inspect", "--json", "\(dumps)/ntag213-uri-libnfc-pw.mfd"], schema: "inspect"),
        Case(arguments: ["inspect", "--json", "\(dumps)/ntag213-uri-proxmark.json"], schema: "inspect"),
        Case(arguments: ["inspect", "--json", "\(dumps)/ultralight-flipper-v2.nfc"], schema: "inspect"),
        Case(arguments: ["inspect", "--json", "key.txt"], schema: "error", status: 65),
        Case(arguments: ["write", "--json", "--dry-run", "uri", "https://example.com"], schema: "write"),
        Case(arguments: ["write", "--json", "uri", "https://example.com", "text", "Hi"], schema: "write"),
        Case(
            arguments: ["write", "--json", "--reader", "sim:type4?file=t4.txt", "uri", "https://x.test"],
            schema: "write"),
        Case(arguments: ["write", "--json", "--resume", "uri", "https://example.com", "text", "Hi"], schema: "write"),
        Case(
            arguments: ["write", "--json", "--dry-run", "--reader", "sim:type4?file=t4.txt", "text", "Hi"],
            schema: "write"),
        Case(
            arguments: ["lock", "--json", "--dry-run", "--reader", "sim:type4?file=t4-open.txt&cc-writable=1"],
            schema: "lock"),
        Case(arguments: ["erase", "--json", "--dry-run", "--reader", "sim:type4?file=t4.txt"], schema: "erase"),
        Case(arguments: ["erase", "--json", "--dry-run"], schema: "erase"),
        Case(arguments: ["erase", "--json"], schema: "erase"),
        Case(arguments: ["format", "--json", "--dry-run", "--force"], schema: "format"),
        Case(arguments: ["format", "--json", "--force"], schema: "format"),
        Case(arguments: ["password", "status", "--json"], schema: "password"),
        Case(arguments: ["password", "set", "--json", "--password-file", "pw.txt"], schema: "password"),
        Case(arguments: ["password", "auth", "--json", "--password-file", "pw.txt"], schema: "password"),
        Case(arguments: ["password", "auth", "--json", "--password-file", "new.txt"], schema: "password", status: 78),
        Case(arguments: ["password", "remove", "--json", "--password-file", "pw.txt"], schema: "password"),
        Case(arguments: ["dump", "-o", "copy.nfc", "--json"], schema: "dump"),
        Case(arguments: ["raw", "--json", "60", "3000", "30FF"], schema: "raw"),
        Case(arguments: ["readers", "--json"], schema: "readers"),
        Case(arguments: ["lock", "--dry-run", "--json"], schema: "lock"),
        Case(arguments: ["lock", "--confirm", "000-000", "--json"], schema: "error", status: 79),
        Case(
            arguments: ["batch", "uri", "https://x.test/{counter}", "--from", "1", "--to", "3", "--dry-run", "--json"],
            schema: "batch"),
        Case(
            arguments: [
                "batch", "uri", "https://x.test/{counter}", "--from", "1", "--to", "3", "--json", "--reader",
                "sim:ntag215?supply=3",
            ], schema: "batch"),
        Case(
            arguments: [
                "batch", "uri", "https://x.test/{serial}", "--plan", "tags.csv", "--json", "--reader",
                "sim:ntag215?supply=1",
            ],
            schema: "batch", status: 75),
        Case(
            arguments: ["read", "--json", "--reader", "sim:ntag215?file=missing/tag.nfc"], schema: "error", status: 66),
    ]

    @Test("Every --json output follows its schema")
    func outputsFollowTheirSchemas() async throws {
        let folder = try ExampleRun.exampleFolder("json-schema")
        defer { folder.remove() }
        let environment = [
            "NDEFTOOL_READER": "sim:ntag215?file=tag.nfc", "XDG_CONFIG_HOME": folder.path(".config"),
            "NDEFTOOL_PASSWORD": "",
        ]
        var validator = JSONSchemaValidator()
        for item in Self.cases {
            let result = try await BinaryRunner.run(item.arguments, environment: environment, directory: folder.url)
            #expect(result.status == item.status, "\(item.testDescription): \(result.error)")
            guard !item.schema.isEmpty else { continue }
            let problems = try validator.problems(result.outputText, schema: item.schema + ".schema.json")
            #expect(problems.isEmpty, "\(item.testDescription):\n\(problems.joined(separator: "\n"))")
        }
    }

    /// The commands that take --json, by the schema file that describes their output: the
    /// command's own (`batch-status` for `batch status`) when there is one, else its top
    /// command's (`password` for `password set`).
    static func commandsWithJSON(files: Set<String>) -> [String] {
        ManPage.commandPaths(RootCommand.spec).compactMap { path in
            guard let command = path.last, command.options.contains(where: { $0.long == "json" }) else { return nil }
            let own = path.dropFirst().map(\.name).joined(separator: "-")
            return files.contains("\(own).schema.json") ? own : path.dropFirst().first?.name
        }
    }

    @Test("Each command with --json has its schema, and the schemas name nothing else")
    func everyCommandHasASchema() throws {
        let files = Set(
            try FileManager.default.contentsOfDirectory(
                atPath: PackagePaths.fixtures.appendingPathComponent("schemas").path))
        let commands = Set(Self.commandsWithJSON(files: files))
        for command in commands {
            #expect(files.contains("\(command).schema.json"), "no schema for \(command) --json")
        }
        let shared: Set = ["definitions.schema.json", "error.schema.json"]
        for file in files.subtracting(shared) {
            #expect(commands.contains(String(file.dropLast(".schema.json".count))), "\(file) describes no command")
        }
        #expect(commands.isSuperset(of: ["info", "inspect", "read", "decode", "write", "batch", "readers"]))
    }

    @Test("The validator finds what is wrong: a wrong type, a missing or unknown key, a bad UID")
    func validatorCatchesMistakes() throws {
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(#"{"records":[]}"#, schema: "decode.schema.json").isEmpty)
        #expect(
            try validator.problems(
                #"{"records":[{"tnf":9,"typeHex":"","idHex":"","payloadHex":""}]}"#,
                schema: "decode.schema.json") == ["$.records[0].tnf: 9 is over 7"])
        #expect(
            try validator.problems(#"{"records":{}}"#, schema: "decode.schema.json")
                == ["$.records: an object is not array"])
        #expect(try validator.problems(#"{}"#, schema: "decode.schema.json") == ["$: records is missing"])
        #expect(
            try validator.problems(#"{"records":[],"extra":1}"#, schema: "decode.schema.json")
                == ["$.extra: not allowed"])
        let dump = #"{"uid":"04:51:7C","chip":{"name":"NTAG215"},"pages":135,"format":"flipper","path":"x"}"#
        #expect(
            try validator.problems(dump, schema: "dump.schema.json")
                == [#"$.uid: "04:51:7C" does not match ^([0-9A-F]{2}){4,10}$"#])
    }
}
