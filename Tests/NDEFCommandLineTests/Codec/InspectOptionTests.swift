import Foundation
import HexText
import NDEF
import TagInspection
import TestSupport
import Testing

/// `ndeftool inspect`: standard input, `--format`, `--chip`, exit statuses and the message
/// description shared with `decode`.
@Suite(.timeLimit(.minutes(5))) struct InspectOptionTests {
    static let hexDump = InspectCommandTests.path("Fixtures/dumps/ntag213-uri.txt")

    /// An NTAG213 image (NTAG213 datasheet 8.5) holding `message` after the factory Lock Control
    /// TLV, as hex text, one page per line.
    static func ntag213(holding message: [UInt8]) -> String {
        var memory = hex("04a1b29f c3d4e5f6 04480000 e1101200 0103a00c 34")
        memory += [0x03, UInt8(message.count)] + message + [0xFE]
        memory += Array(repeating: 0, count: 160 - memory.count)
        memory += hex("00000000 040000ff 00000000 00000000 00000000")
        return stride(from: 0, to: memory.count, by: 4).map { Hex.encode(memory[$0..<$0 + 4]) + "\n" }.joined()
    }

    @Test func standardInputGivesTheSameReport() async throws {
        let file = try await BinaryRunner.run(["inspect", Self.hexDump])
        let input = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.hexDump)))
        let standard = try await BinaryRunner.run(["inspect", "-"], input: input)
        let implicit = try await BinaryRunner.run(["inspect"], input: input)
        #expect(file.status == 0)
        #expect(standard.outputText == file.outputText)
        #expect(implicit.outputText == file.outputText)
    }

    @Test("Nested Smart Poster records print as decode prints them (Smart Poster RTD 1.0)")
    func messageAsDecodeDescribesIt() async throws {
        let message = hex("d1021c53709101095402656e4c69626e666351010b55036c69626e66632e6f7267")
        let inspected = try await BinaryRunner.run(["inspect", "-"], input: Array(Self.ntag213(holding: message).utf8))
        let decoded = try await BinaryRunner.run(["decode"], input: message)
        #expect(inspected.status == 0, "\(inspected.error)")
        #expect(decoded.outputText.contains("    URI: http://libnfc.org\n"))
        #expect(
            inspected.outputText.contains("\nNDEF: read/write, capacity 137 bytes\n" + decoded.outputText + "page map"))
    }

    @Test("A damaged message is reported, exit 0: the dump is fine, the tag is not")
    func damagedMessage() async throws {
        let damaged = hex("d1010d550270726f786d61726b2e636f")  // the URI record one byte short
        let text = try await BinaryRunner.run(["inspect"], input: Array(Self.ntag213(holding: damaged).utf8))
        #expect(text.status == 0)
        #expect(text.outputText.contains("\nNDEF message: not read: the NDEF message at byte 23 is not valid NDEF: "))
        let json = try await BinaryRunner.run(["inspect", "--json"], input: Array(Self.ntag213(holding: damaged).utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(object["ndef"] as? String == Hex.encode(damaged))
        #expect(object["message"] is NSNull)
        #expect((object["problem"] as? [String: Any])?["code"] as? String == "malformed-message")
        #expect((object["problem"] as? [String: Any])?["offset"] as? Int == 23)
    }

    @Test func forcedFormatAndChip() async throws {
        var result = try await BinaryRunner.run(["inspect", "--format", "hex", "--chip", "ntag215", Self.hexDump])
        #expect(result.status == 0)
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines[1] == "chip: NTAG215 (NT2H1511), 135 pages, 504 bytes of user memory")
        #expect(lines[2] == "  chosen with --chip")
        #expect(lines[3] == "  the image has 45 pages: pages 45-134 are not in the dump")
        result = try await BinaryRunner.run(["inspect", "--format", "flipper", Self.hexDump])
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("Error: malformed Flipper NFC file in '\(Self.hexDump)' at byte "))
    }

    @Test("Exit statuses: 64 usage, 65 not a readable dump (naming line or byte), 66 missing file")
    func exitStatuses() async throws {
        var result = try await BinaryRunner.run(["inspect", "/nonexistent/tag.nfc"])
        #expect(result.status == 66)
        #expect(result.error == "Error: cannot read '/nonexistent/tag.nfc': No such file or directory\n")
        result = try await BinaryRunner.run(["inspect", "--chip", "ntag214", Self.hexDump])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: The value 'ntag214' is invalid for '--chip <name>'"))
        result = try await BinaryRunner.run(["inspect", "--format", "nfc", Self.hexDump])
        #expect(result.status == 64)
        result = try await BinaryRunner.run(["inspect", "a", "b"])
        #expect(result.status == 64)
        result = try await BinaryRunner.run(["inspect"], input: [])
        #expect(result.status == 65)
        #expect(
            result.error
                == "Error: malformed tag dump in standard input at byte 0: the file is empty (malformed-dump)\n")
        let flipper = try String(
            contentsOfFile: InspectCommandTests.path("Fixtures/dumps/ntag213-uri-flipper-v4.nfc"), encoding: .utf8)
        result = try await BinaryRunner.run(
            ["inspect"],
            input: Array(flipper.replacingOccurrences(of: "Page 4: 01 03 A0 0C", with: "Page 4: 01 03").utf8))
        #expect(result.status == 65)
        #expect(result.error.contains(" line 27: \"Page 4\" holds 4 bytes, not 2 (malformed-dump)"), "\(result.error)")
        #expect(result.output.isEmpty)
        var proxmark = [UInt8](
            try Data(
                contentsOf: URL(fileURLWithPath: InspectCommandTests.path("Fixtures/dumps/ntag213-uri-proxmark.bin"))))
        proxmark[11] = 50
        result = try await BinaryRunner.run(["inspect", "--format", "proxmark-binary", "-"], input: proxmark)
        #expect(result.status == 65)
        #expect(result.error.hasPrefix("Error: malformed proxmark3 binary dump in standard input at byte 11: "))
    }
}

/// `inspect` never traps, whatever the dump: mutated fixtures, truncations and chips that do
/// not fit, in process so thousands of inputs stay fast.
@Suite struct InspectRobustnessTests {
    @Test func mutatedDumps() async throws {
        var generator = SeededRandom(seed: 0x696E_7370)
        let chips = ["ntag210", "ntag212", "ntag213", "ntag215", "ntag216", "ultralight", "ultralight-c", "mf0ul11"]
        for fixture in InspectCommandTests.fixtures {
            let original = [UInt8](
                try Data(contentsOf: URL(fileURLWithPath: InspectCommandTests.path(fixture))))
            for round in 0..<40 {
                var input = original
                for _ in 0..<Int.random(in: 1...6, using: &generator) where !input.isEmpty {
                    let at = Int.random(in: 0..<input.count, using: &generator)
                    input[at] =
                        round % 2 == 0
                        ? UInt8.random(in: 0...255, using: &generator)
                        : Array("0123456789abcdefF \n:#".utf8).randomElement(using: &generator) ?? 0
                }
                if round % 5 == 0 { input = Array(input.prefix(Int.random(in: 0...input.count, using: &generator))) }
                var arguments = ["inspect"]
                if round % 3 == 0 { arguments.append("--json") }
                if round % 4 == 0, let chip = chips.randomElement(using: &generator) { arguments += ["--chip", chip] }
                let result = await runInProcess(arguments, input: input)
                #expect([0, 65].contains(result.status), "\(fixture) round \(round)")
                if result.status == 65 { #expect(result.error.hasPrefix("Error: malformed ")) }
            }
        }
    }
}
