import Foundation
import TagMemory
import TestSupport
import Testing

/// `{uid-mirror}` and `{counter-mirror}` through the built binary (NTAG213/215/216 8.7): the
/// write sets the mirror up, separate `read` processes see the UID and a counter that goes up,
/// `info` shows the mirror, and what the chip cannot mirror is refused before any write.
@Suite struct MirrorCommandTests {
    static let uri = "https://x.example/t?m={uid-mirror}x{counter-mirror}"
    /// The simulator's default UID, as the mirror shows it (upper-case hex).
    static let uidText = "04517CA24B3580"

    /// The tag file's memory as a Type 2 image.
    static func memory(_ tag: PasswordTagFile) throws -> Type2Memory {
        let dump = try TagDump(decoding: Array(tag.contents().utf8), fileName: "tag.nfc")
        return Type2Memory(bytes: dump.memory, chip: .ntag215)
    }

    /// The URI the first record of `read --json` shows.
    static func readURI(_ tag: PasswordTagFile) async throws -> String {
        let read = try await tag.run(["read"])
        #expect(read.status == 0, "\(read.error)")
        return uri(in: read.outputText)
    }

    /// The URI of the first `URI: ` line of `read`'s text output ("" without one).
    static func uri(in output: String) -> String {
        let line = output.split(separator: "\n").first { $0.contains("URI: ") }
        return line.map { String($0.split(separator: " ").last ?? "") } ?? ""
    }

    @Test("write with both mirrors on an NTAG215; two reads by separate processes: the UID, and the counter up by one")
    func writeAndReadTwice() async throws {
        let tag = try PasswordTagFile()
        defer { tag.folder.remove() }
        let write = try await tag.run(["write", "uri", Self.uri])
        #expect(write.status == 0, "\(write.error)")
        #expect(write.outputText.contains("URI: https://x.example/t?m=00000000000000x000000"))
        #expect(write.outputText.contains("Mirror: UID and NFC counter at page 9 byte 1 (21 characters)"))
        let first = try await Self.readURI(tag)
        let second = try await Self.readURI(tag)
        let prefix = "https://x.example/t?m=\(Self.uidText)x"
        #expect(first.hasPrefix(prefix) && second.hasPrefix(prefix), "\(first) \(second)")
        let counters = [first, second].map { Int($0.dropFirst(prefix.count), radix: 16) }
        let before = try #require(counters[0])
        #expect(counters[1] == before + 1, "\(first) then \(second)")
        // Memory keeps the placeholder; CFG0 D4h 00h 09h FFh, CFG1 NFC_CNT_EN.
        let memory = try Self.memory(tag)
        let stored = String(decoding: try #require(memory.ndefMessageBytes), as: UTF8.self)
        #expect(stored.hasSuffix("x.example/t?m=00000000000000x000000"), "\(stored)")
        #expect(tag.page(131) == "D4 00 09 FF" && tag.page(132) == "10 00 00 00")
    }

    @Test("info shows the mirror and the text a reader sees; write and info JSON follow their schemas")
    func infoAndJSON() async throws {
        let tag = try PasswordTagFile()
        defer { tag.folder.remove() }
        let write = try await tag.run(["write", "--json", "uri", Self.uri])
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(write.outputText, schema: "write.schema.json").isEmpty)
        let written = try PasswordTagFile.object(write)
        let mirror = try #require(written["mirror"] as? [String: Any])
        #expect(
            mirror["kind"] as? String == "uidAndCounter" && mirror["page"] as? Int == 9 && mirror["byte"] as? Int == 1)

        let info = try await tag.run(["info"])
        let line = info.outputText.split(separator: "\n").first { $0.hasPrefix("mirror: ") }.map(String.init)
        let counter = info.outputText.split(separator: "\n").first { $0.hasPrefix("NFC counter: ") }
            .flatMap { Int($0.dropFirst("NFC counter: ".count)) }
        let value = try #require(counter)
        #expect(
            line == "mirror: UID and NFC counter at page 9 byte 1: a reader sees \(Self.uidText)x"
                + String(format: "%06X", value), "\(info.outputText)")
        let json = try await tag.run(["info", "--json"])
        #expect(try validator.problems(json.outputText, schema: "info.schema.json").isEmpty)
        let state = try #require(try PasswordTagFile.object(json)["mirror"] as? [String: Any])
        #expect(state["applied"] as? Bool == true && state["counterEnabled"] as? Bool == true)
        #expect((state["shown"] as? String)?.hasPrefix(Self.uidText + "x") == true)
    }

    @Test("--counter-password-protected: phones see the UID alone; the counter needs PWD_AUTH")
    func counterProtected() async throws {
        let tag = try PasswordTagFile()
        defer { tag.folder.remove() }
        let write = try await tag.run(["write", "uri", Self.uri, "--counter-password-protected"])
        #expect(write.status == 0, "\(write.error)")
        #expect(tag.page(132) == "18 00 00 00")
        let seen = try await Self.readURI(tag)
        #expect(seen == "https://x.example/t?m=\(Self.uidText)x000000", "\(seen)")
    }

    @Test(
        "Refused before any write, with exit status and reason",
        arguments: [
            (["uri", "https://x/?u={uid-mirror}&c={counter-mirror}"], "ntag215", 64, "{uid-mirror}x{counter-mirror}"),
            (["uri", "https://x/?u={uid-mirror}&v={uid-mirror}"], "ntag215", 64, "appears 2 times"),
            (["uri", "https://x/?u={uid-mirror}"], "ultralight-ev1", 69, "no UID or NFC counter mirror"),
            (
                ["uri", "https://x/" + String(repeating: "a", count: 113) + "?u={uid-mirror}"], "ntag213", 64,
                "past byte 2"
            ),
            (["uri", "https://x/?u={uid-mirror}", "--counter-password-protected"], "ntag215", 64, "{counter-mirror}"),
            (["text", "{uid-mirror}", "--utf16"], "ntag215", 64, "plain ASCII"),
        ])
    func refusals(arguments: [String], chip: String, status: Int32, reason: String) async throws {
        let tag = try PasswordTagFile(chip: chip)
        defer { tag.folder.remove() }
        let result = try await tag.run(["write"] + arguments + ["-v"])
        #expect(result.status == status, "\(result.error)")
        #expect(result.error.contains(reason), "\(result.error)")
        let summary = result.error.split(separator: "\n").filter { $0.contains("tag commands:") }
        #expect(!summary.contains { $0.contains("WRITE") }, "no WRITE: \(result.error)")
    }

    @Test("--dry-run lists CFG1 and CFG0 after the message; a second write sends no WRITE")
    func dryRunAndRewrite() async throws {
        let tag = try PasswordTagFile()
        defer { tag.folder.remove() }
        let plan = try await tag.run(["write", "uri", Self.uri, "--dry-run"])
        let lines = plan.outputText.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("  page 132: 10 00 00 00  (CFG1: NFC_CNT_EN 1") }, "\(plan.outputText)")
        #expect(lines.contains { $0.hasPrefix("  page 131: D4 00 09 FF  (CFG0: UID and NFC counter mirror") })
        #expect(try await tag.run(["write", "uri", Self.uri]).status == 0)
        let again = try await tag.run(["write", "uri", Self.uri, "-v"])
        #expect(again.status == 0)
        #expect(!again.error.contains(" WRITE"), "\(again.error)")
    }

    @Test("Through libnfc's pn532_uart driver and a served PN532: the mirror is set up and reads show the UID")
    func throughLibNFC() async throws {
        let directory = try TemporaryDirectory("mirror")
        defer { directory.remove() }
        let link = directory.path("pn532")
        let server = try ServeProcess([
            "sim", "serve", "--pn532", link, "sim:ntag215?file=\(directory.path("tag.nfc"))",
        ])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let environment = [
            "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": directory.path("config"), "LIBNFC_AUTO_SCAN": "false",
        ]
        let reader = ["--reader", "libnfc:pn532_uart:\(link)", "--wait", "2"]
        let write = try await BinaryRunner.run(["write", "uri", Self.uri] + reader, environment: environment)
        #expect(write.status == 0, "\(write.error)")
        let first = try await BinaryRunner.run(["read"] + reader, environment: environment)
        let second = try await BinaryRunner.run(["read"] + reader, environment: environment)
        for read in [first, second] {
            #expect(read.status == 0, "\(read.error)")
            #expect(read.outputText.contains("URI: https://x.example/t?m=\(Self.uidText)x0000"), "\(read.outputText)")
        }
        server.terminate()
        #expect(try await server.waitForExit() == 0)
    }
}
