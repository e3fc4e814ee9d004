import Foundation
import TagMemory
import TestSupport
import Testing

@testable import NDEFCommandLine

/// One JSON form of a tag's UID across every command: upper-case hex without separators
/// (`UIDText`); text output keeps colons.
@Suite struct UIDJSONTests {
    static let uid = "04A1B2C3D4E5F6"

    /// The JSON object a command printed.
    static func object(_ result: RunResult) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.error)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
    }

    @Test("info, write, lock, erase, format, raw, dump, password and inspect give the same uid string")
    func sameFormEverywhere() async throws {
        let folder = try TemporaryDirectory("cli")
        let reader = "sim:ntag215?uid=\(Self.uid)&file=\(folder.path("tag.nfc"))"
        let variables = ["XDG_CONFIG_HOME": folder.path("config")]
        func run(_ arguments: [String]) async throws -> [String: Any] {
            try Self.object(
                await runInProcess(arguments + ["--reader", reader, "--wait", "0", "--json"], variables: variables))
        }
        let commands: [[String]] = [
            ["info"], ["write", "uri", "https://example.com"], ["lock", "--dry-run"], ["erase", "--dry-run"],
            ["format", "--dry-run", "--force"], ["raw", "30 00"], ["dump", "-o", folder.path("tag.json")],
            ["password", "status"],
        ]
        for command in commands {
            #expect(try await run(command)["uid"] as? String == Self.uid, "\(command)")
        }
        let inspected = try Self.object(await runInProcess(["inspect", "--json", folder.path("tag.json")]))
        #expect(inspected["uid"] as? String == Self.uid)
        let details = try #require(inspected["uidDetails"] as? [String: Any])
        #expect(details["value"] as? String == Self.uid)
        // Text for people keeps the colons.
        let text = await runInProcess(["info", "--reader", reader, "--wait", "0"], variables: variables)
        #expect(text.outputText.contains("UID: 04:A1:B2:C3:D4:E5:F6"))
    }

    @Test func form() {
        #expect(UIDText.json([0x04, 0xA1, 0x0B]) == "04A10B")
        #expect(UIDText.json([]) == "")
    }
}
