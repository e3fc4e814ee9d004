import Foundation
import NFCSession
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The stable JSON outputs compared with files under Fixtures/cli/: a change of the JSON contract
/// shows up as a diff of those files. Paths of temporary files are written `$TMP`.
/// With NDEFTOOL_UPDATE_GOLDEN=1 the files are written from the output instead.
@Suite struct GoldenJSONTests {
    /// The UID of the simulated tags: NXP's manufacturer code 04h (ISO/IEC 7816-6) first.
    static let uid = "04A1B2C3D4E5F6"

    /// Compares `text` with Fixtures/cli/`name`, after writing temporary paths as `$TMP`.
    static func compare(_ text: String, golden name: String, temporary: String? = nil) throws {
        var normalised = text
        if let temporary { normalised = normalised.replacingOccurrences(of: temporary, with: "$TMP") }
        let path = PackagePaths.root.appendingPathComponent("Fixtures/cli/\(name)")
        if ProcessInfo.processInfo.environment["NDEFTOOL_UPDATE_GOLDEN"] == "1" {
            try Data(normalised.utf8).write(to: path)
            return
        }
        let expected = try String(contentsOf: path, encoding: .utf8)
        #expect(normalised == expected, "Fixtures/cli/\(name) differs")
    }

    @Test("decode --json of a URI and a Text record")
    func decode() async throws {
        // URI "https://example.com" then Text "Hello" (en): NFC Forum NDEF 1.0 3.2, URI RTD 1.0
        // 3.2.2, Text RTD 1.0 3.2.1 (as in TagCommandTests).
        let hex = "91010c55046578616d706c652e636f6d" + "5101085402656e48656c6c6f"
        let result = await runInProcess(["decode", "--hex-input", "--json"], input: Array(hex.utf8))
        #expect(result.status == 0, "\(result.error)")
        try Self.compare(result.outputText, golden: "decode-uri-text.json")
    }

    @Test("read --json of a simulated NTAG215 after a write")
    func read() async throws {
        let folder = try TemporaryDirectory("cli")
        let reader = "sim:ntag215?uid=\(Self.uid)&file=\(folder.path("tag.nfc"))"
        let variables = ["XDG_CONFIG_HOME": folder.path("config")]
        let written = await runInProcess(
            ["write", "--reader", reader, "--wait", "0", "uri", "https://example.com", "text", "Hello"],
            variables: variables)
        #expect(written.status == 0, "\(written.error)")
        let result = await runInProcess(["read", "--reader", reader, "--wait", "0", "--json"], variables: variables)
        #expect(result.status == 0, "\(result.error)")
        try Self.compare(result.outputText, golden: "read-ntag215-uri-text.json", temporary: folder.url.path)
    }

    @Test("info --json of a factory NTAG215")
    func info() async throws {
        let result = await runInProcess(["info", "--reader", "sim:ntag215?uid=\(Self.uid)", "--wait", "0", "--json"])
        #expect(result.status == 0, "\(result.error)")
        try Self.compare(result.outputText, golden: "info-ntag215-factory.json")
    }

    @Test("readers --json with no PC/SC reader and no libnfc device: the simulated examples")
    func readers() async throws {
        // Kept until the test ends: a folder removed before the command writes in it would come back.
        let folder = try TemporaryDirectory("config")
        defer { folder.remove() }
        let io = TestIO(variables: ["XDG_CONFIG_HOME": folder.path("config")])
        io.pcsc = fakePCSC([])
        #expect(await NDEFCommandLine.run(["readers", "--json"], io: io) == .success)
        try Self.compare(io.outputText, golden: "readers-sim-only.json")
    }
}
