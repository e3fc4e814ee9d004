import Foundation
import NTAG424
import TagSimulator
import TestSupport
import Testing

/// TagTamper on a simulated NTAG 424 DNA TT (`sim:ntag424tt`) through the built binary: `sdm
/// setup --tag-tamper` enables it and mirrors its status into the file data, `sdm verify
/// --tag-tamper` and `sdm status` show CC, OO after the loop opens, OC once it closes again; the
/// same through pcscd + vpcd and libnfc's pn532_uart, the loop opened by the served simulator's
/// signal.
@Suite("TagTamper (sim:ntag424tt)", .timeLimit(.minutes(10)))
struct SDMTagTamperCommandTests {
    typealias Setting = SDMSetupCommandTests.Setting
    static let url = "https://x.example/tt?picc_data={picc}&enc={enc}&cmac={mac}"

    static func setUp(_ setting: Setting) -> [String] {
        ["sdm", "setup", "--url", url, "--tag-tamper", "--enc-data", "lot 9", "--keys-file", setting.keysFile]
    }

    static func reader(_ setting: Setting, tamper: String? = nil) -> String {
        "sim:ntag424tt?uid=04518DFAA96180&file=\(setting.folder.path("t424.t4t"))"
            + (tamper.map { "&tamper=\($0)" } ?? "")
    }

    /// The TagTamper status the URL a phone reads now carries (`read`, then `sdm verify
    /// --tag-tamper --json`).
    static func tapped(
        _ setting: Setting, reader: String, environment: [String: String] = SDMSetupCommandTests.environment
    ) async throws -> [String: String]? {
        let read = try await SDMSetupCommandTests.run(["read"], reader: reader, environment: environment)
        let line = read.outputText.split(separator: "\n").first { $0.contains("URI: ") }
        let url = String(try #require(line?.split(separator: "URI: ").last, "\(read.outputText)\(read.error)"))
        let verified = try await BinaryRunner.run(setting.verify(["--tag-tamper", "--json", url]))
        #expect(verified.status == 0, "\(verified.outputText)")
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(verified.outputText, schema: "sdm-verify.schema.json").isEmpty)
        let object = try JSONSerialization.jsonObject(with: Data(verified.output)) as? [String: Any]
        #expect(
            (object?["fileData"] as? String)?.hasSuffix("lot 9" + String(repeating: " ", count: 9)) == true,
            "\(verified.outputText)")
        return object?["tagTamper"] as? [String: String]
    }

    @Test("Set up with --tag-tamper: CC; the loop opened: OO, latched; closed again: OC; status and JSON agree")
    func tamperLoop() async throws {
        let setting = try Setting("sdm-tt")
        defer { setting.folder.remove() }
        let before = try await SDMSetupCommandTests.run(["sdm", "status", "--json"], reader: Self.reader(setting))
        let fresh = try #require(try JSONSerialization.jsonObject(with: Data(before.output)) as? [String: Any])
        #expect(fresh["tagTamper"] as? [String: String] == ["permanent": "invalid", "current": "invalid"])
        let dry = try await SDMSetupCommandTests.run(Self.setUp(setting) + ["--dry-run"], reader: Self.reader(setting))
        #expect(dry.outputText.contains("enable TagTamper (for good)"), "\(dry.outputText)")
        let done = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: Self.reader(setting))
        #expect(done.status == 0 && done.outputText.contains("  enabled TagTamper (for good)\n"), "\(done.error)")
        #expect(
            try await Self.tapped(setting, reader: Self.reader(setting)) == [
                "permanent": "closed", "current": "closed",
            ])
        let opened = try await Self.tapped(setting, reader: Self.reader(setting, tamper: "open"))
        #expect(opened == ["permanent": "open", "current": "open"])
        let closed = try await Self.tapped(setting, reader: Self.reader(setting, tamper: "closed"))
        #expect(closed == ["permanent": "open", "current": "closed"])
        let status = try await SDMSetupCommandTests.run(
            ["sdm", "status", "--keys-file", setting.keysFile], reader: Self.reader(setting))
        #expect(status.outputText.contains("TagTamper: OC (tampered, the loop closed now)\n"), "\(status.outputText)")
        let text = try await SDMSetupCommandTests.run(["read"], reader: Self.reader(setting))
        let url = String(text.outputText.split(separator: "URI: ").last?.prefix { $0 != "\n" } ?? "")
        let line = try await BinaryRunner.run(setting.verify(["--tag-tamper", url]))
        #expect(line.outputText.contains(", TagTamper OC (tampered, the loop closed now)\n"), "\(line.outputText)")
        // Run again: nothing to do (TagTamper stays enabled; the status is the tag's, not the plan's).
        let again = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: Self.reader(setting))
        #expect(again.outputText.contains("Nothing to change"), "\(again.outputText)")
    }

    @Test("--tag-tamper on an NTAG 424 DNA without TagTamper: 76, nothing sent; without {enc}: 64")
    func refused() async throws {
        let setting = try Setting("sdm-tt-refused")
        defer { setting.folder.remove() }
        let plain = try await SDMFileDataCommandTests.confirmed(Self.setUp(setting), reader: setting.reader)
        #expect(plain.status == 76 && plain.error.contains("no TagTamper"), "\(plain.error)")
        #expect(!FileManager.default.fileExists(atPath: setting.folder.path("t424.t4t")))
        let noWindow = try await SDMSetupCommandTests.run(
            setting.setUp + ["--tag-tamper", "--dry-run"], reader: Self.reader(setting))
        #expect(noWindow.status == 64 && noWindow.error.contains("needs {enc}"), "\(noWindow.error)")
    }

    /// Sets the tag served at `reader` up with TagTamper, opens its loop with SIGUSR1 to the
    /// serving process, then closes it with SIGUSR2: CC, OO, OC.
    static func servedLoop(
        _ setting: Setting, server: ServeProcess, reader: String, environment: [String: String]
    ) async throws {
        let done = try await SDMFileDataCommandTests.confirmed(
            Self.setUp(setting), reader: reader, environment: environment)
        #expect(done.status == 0, "\(done.error)")
        #expect(
            try await Self.tapped(setting, reader: reader, environment: environment)
                == ["permanent": "closed", "current": "closed"])
        server.send(SIGUSR1)
        #expect(await server.waitForError(containing: "SIGUSR1: the tamper loops are open"))
        #expect(
            try await Self.tapped(setting, reader: reader, environment: environment)
                == ["permanent": "open", "current": "open"])
        server.send(SIGUSR2)
        #expect(await server.waitForError(containing: "SIGUSR2: the tamper loops are closed"))
        #expect(
            try await Self.tapped(setting, reader: reader, environment: environment)
                == ["permanent": "open", "current": "closed"])
    }
}
