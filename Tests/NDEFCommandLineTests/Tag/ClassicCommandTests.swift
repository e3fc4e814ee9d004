import Foundation
import TestSupport
import Testing

/// `format`, `write`, `read` and `lock` on a simulated MIFARE Classic 1K kept in a `.mfd` file,
/// with keys from a keys file only.
@Suite(.timeLimit(.minutes(5))) struct ClassicCommandTests {
    /// A simulated 1K card in a temporary folder, with a keys file naming key B.
    final class Card {
        let folder: TemporaryDirectory
        init() throws {
            folder = try TemporaryDirectory("classic")
            try Data("# the line's keys\nkey-b 0123456789AB\n".utf8).write(to: URL(fileURLWithPath: keys))
        }
        var path: String { folder.path("card.mfd") }
        var keys: String { folder.path("keys.txt") }
        func run(_ arguments: [String]) async throws -> RunResult {
            try await BinaryRunner.run(
                arguments + ["--reader", "sim:classic1k?file=\(path)", "--wait", "0"],
                environment: ["NDEFTOOL_READER": "", "XDG_STATE_HOME": folder.path("state")])
        }
        func contents() -> Data { (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data() }
        /// The code a dry run shows for `command` (format or lock) with the keys file.
        func code(_ command: String) async throws -> String {
            let result = try await run([command, "--dry-run", "--json", "--keys-file", keys])
            #expect(result.status == 0, "\(result.error)")
            let text = result.outputText
            let match = try #require(text.firstRange(of: /[0-9]{3}-[0-9]{3}/))
            return String(text[match])
        }
    }

    @Test("format: no keys file is a usage error; no terminal and no code is 79; the dry run's code formats")
    func format() async throws {
        let card = try Card()
        let noKeys = try await card.run(["format"])
        #expect(noKeys.status == 64 && noKeys.error.contains("--keys-file"))
        let refused = try await card.run(["format", "--keys-file", card.keys])
        #expect(refused.status == 79 && refused.error.contains("--confirm"))
        #expect(card.contents().isEmpty)
        let code = try await card.code("format")
        let formatted = try await card.run(["format", "--keys-file", card.keys, "--confirm", code])
        #expect(formatted.status == 0, "\(formatted.error)")
        #expect(formatted.outputText.contains("0 of 716 bytes used"))
        // The key B is in every trailer of the image, and nowhere in the output.
        let image = [UInt8](card.contents())
        #expect(image.count == 1024 && Array(image[58..<64]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        #expect(!formatted.outputText.contains("0123456789AB") && !formatted.error.contains("0123456789AB"))
    }

    @Test("write and read with the public keys; lock with key B from the keys file; then writes are refused")
    func writeReadLock() async throws {
        let card = try Card()
        let code = try await card.code("format")
        #expect(try await card.run(["format", "--keys-file", card.keys, "--confirm", code]).status == 0)
        let write = try await card.run(["write", "uri", "https://example.com/classic"])
        #expect(write.status == 0, "\(write.error)")
        let read = try await card.run(["read"])
        #expect(read.outputText.contains("URI: https://example.com/classic"))
        let withoutKeys = try await card.run(["lock", "--dry-run"])
        #expect(withoutKeys.status != 0 && withoutKeys.error.contains("key B"))
        let lockCode = try await card.code("lock")
        let locked = try await card.run(["lock", "--keys-file", card.keys, "--confirm", lockCode])
        #expect(locked.status == 0, "\(locked.error)")
        let refused = try await card.run(["write", "uri", "https://example.org"])
        #expect(refused.status == 77)
        #expect(try await card.run(["read"]).outputText.contains("https://example.com/classic"))
    }

    @Test("info: the MAD, every sector's key and access in words, and the lock code once key B is known")
    func info() async throws {
        let card = try Card()
        let factory = try await card.run(["info"])
        #expect(factory.status == 0, "\(factory.error)")
        #expect(factory.outputText.contains("chip: MIFARE Classic 1K, identified by its SAK"))
        #expect(
            factory.outputText.contains("sectors 0-15: opened with the transport key, access bits FF 07 80, GPB 69h"))
        #expect(factory.outputText.contains("NDEF: not formatted"))
        let code = try await card.code("format")
        #expect(try await card.run(["format", "--keys-file", card.keys, "--confirm", code]).status == 0)
        let formatted = try await card.run(["info", "--keys-file", card.keys])
        #expect(formatted.outputText.contains("MAD: version 1, CRC valid, NFC sectors 1-15"))
        #expect(formatted.outputText.contains("sector 0: opened with the MAD key A, access bits 78 77 88, GPB C1h"))
        #expect(
            formatted.outputText.contains(
                "sectors 1-15: opened with the NFC Forum key A, access bits 7F 07 88, GPB 40h"))
        #expect(formatted.outputText.contains("lock code: \(try await card.code("lock"))"))
        let json = try await card.run(["info", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["tagType"] as? String == "mifare-classic" && object["capacity"] as? Int == 716)
        #expect(!json.outputText.contains("0123456789AB") && !formatted.outputText.contains("0123456789AB"))
    }

    @Test(
        "A keys file that is not one is refused with 65, naming the line or member and never the key",
        arguments: [
            ("0123456789", "line 1"), ("{\"keyB\": \"0123456789\"}", "\"keyB\""), ("{\"other\": 1}", "unknown member"),
            ("{\"sectors\": {\"44\": [\"0123456789AB\"]}}", "\"44\""),
        ])
    func badKeysFiles(text: String, place: String) async throws {
        let card = try Card()
        try Data(text.utf8).write(to: URL(fileURLWithPath: card.keys))
        let result = try await card.run(["format", "--keys-file", card.keys])
        #expect(result.status == 65)
        #expect(result.error.contains(place), "\(result.error)")
        #expect(!result.error.contains("0123456789"))
        let fifo = card.folder.path("keys.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(try await card.run(["format", "--keys-file", fifo]).status == 65)
    }

    @Test("A format cut at any command from the survey's end on: 75 only untouched; after 80 the same command finishes")
    func formatCutNeverClaimsNothingChanged() async throws {
        let card = try Card()
        #expect(try await card.run(["dump", "-o", card.path]).status == 0)
        let factory = card.contents()
        let code = try await card.code("format")
        let format = ["format", "--keys-file", card.keys, "--confirm", code, "--wait", "0", "--reader"]
        let environment = ["NDEFTOOL_READER": "", "XDG_STATE_HOME": card.folder.path("state")]
        var statuses: Set<Int32> = []
        for removeAfter in stride(from: 70, through: 200, by: 3) {
            try factory.write(to: URL(fileURLWithPath: card.path))
            let reader = "sim:classic1k?file=\(card.path)"
            let result = try await BinaryRunner.run(
                format + [reader + "&remove-after=\(removeAfter)&in-flight=complete"], environment: environment)
            statuses.insert(result.status)
            switch result.status {
            case 75: #expect(card.contents() == factory, "cut after \(removeAfter): 75, but the card changed")
            case 80:
                #expect(result.error.contains("repeat the command"), "cut after \(removeAfter): \(result.error)")
                // The same command, code included, finishes it: the code stands for the layout.
                let again = try await BinaryRunner.run(format + [reader], environment: environment)
                #expect(again.status == 0, "cut after \(removeAfter), run again: \(again.error)")
            case 0: break
            default: Issue.record("cut after \(removeAfter): exit status \(result.status): \(result.error)")
            }
            let image = [UInt8](card.contents())
            if result.status != 75 {
                #expect(image.count == 1024 && Array(image[58..<64]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
            }
        }
        #expect(statuses.contains(80) && statuses.contains(0), "\(statuses)")
    }
}
