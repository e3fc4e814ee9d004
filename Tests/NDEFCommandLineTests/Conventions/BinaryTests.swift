import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The built `ndeftool` executable, run as a separate process: standard output, standard
/// error and exit status as a user or a script sees them.
@Suite(.timeLimit(.minutes(5))) struct BinaryTests {
    static let proxmark = "d1010d550270726f786d61726b2e636f6d"

    @Test func encodeURIAsHex() async throws {
        let result = try await BinaryRunner.run(["encode", "uri", "https://www.proxmark.com", "--hex"])
        #expect(result.status == 0)
        #expect(result.outputText == Self.proxmark + "\n")
        #expect(result.error.isEmpty)
    }

    @Test func encodeTextAndRawToBinary() async throws {
        let result = try await BinaryRunner.run([
            "encode", "text", "Hello", "raw", "--tnf", "5", "--payload-hex", "0102",
        ])
        #expect(result.status == 0)
        #expect(result.output == hex("9101085402656e48656c6c6f" + "5500020102"))
    }

    @Test func encodeToAFileThenDecodeIt() async throws {
        let folder = try TemporaryDirectory("cli")
        let path = folder.path("tag.ndef")
        let encoded = try await BinaryRunner.run(["encode", "uri", "https://www.proxmark.com", "-o", path])
        #expect(encoded.status == 0)
        #expect(encoded.output.isEmpty)
        let decoded = try await BinaryRunner.run(["decode", path])
        #expect(decoded.status == 0)
        #expect(
            decoded.outputText == """
                NDEF message: 1 record, 17 bytes
                record 0: well-known (TNF 1), type "U", payload 13 bytes
                  URI: https://www.proxmark.com

                """
        )
    }

    @Test func encodeMessageAndJSONFromStandardInput() async throws {
        var result = try await BinaryRunner.run(
            ["encode", "message", "-", "text", "B", "--hex"], input: hex(Self.proxmark))
        #expect(result.status == 0)
        #expect(result.outputText == "91010d550270726f786d61726b2e636f6d" + "5101045402656e42\n")
        let json = #"{"records":[{"tnf":1,"type":"T","value":{"text":"hi","language":"en"}}]}"#
        result = try await BinaryRunner.run(["encode", "--from-json", "-", "--hex"], input: Array(json.utf8))
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText == "d101055402656e6869\n")
    }

    @Test func decodeHexJSONAndLenient() async throws {
        var result = try await BinaryRunner.run(
            ["decode", "--hex-input", "--json"], input: Array((Self.proxmark + "\n").utf8))
        #expect(result.status == 0)
        #expect(result.outputText.contains("\"uri\" : \"https://www.proxmark.com\""))
        #expect(result.outputText.hasPrefix("{\n  \"records\" : [\n"))
        result = try await BinaryRunner.run(
            ["decode", "--hex-input", "--lenient"], input: Array((Self.proxmark + "00").utf8))
        #expect(result.status == 0)
        #expect(result.error == "warning: skipped at byte 17: 1 bytes follow the last (ME) record (trailing-bytes)\n")
        #expect(result.outputText.hasPrefix("NDEF message: 1 record, 18 bytes\n"))
    }

    @Test func decodeFixture() async throws {
        let path = PackagePaths.root.appendingPathComponent("Fixtures/ndef/text-two-records.hex").path
        guard FileManager.default.fileExists(atPath: path) else { return }
        let result = try await BinaryRunner.run(["decode", "--hex-input", path])
        #expect(result.status == 0)
        #expect(result.outputText.contains("Text (en): \"TXT2\""))
    }

    @Test func usageErrorExits64() async throws {
        let result = try await BinaryRunner.run(["encode", "--foo"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(
            result.error == "Error: Unknown option '--foo'\n"
                + "Usage: ndeftool encode [--output <file>] [--hex] [--chunk-size <n>] [--from-json <file>] [--quiet] "
                + "[--verbose] "
                + "[<record> ...]\n  See 'ndeftool encode --help' for more information.\n"
        )
        let missing = try await BinaryRunner.run(["encode", "message"])
        #expect(missing.status == 64)
        #expect(missing.error.hasPrefix("Error: Missing expected argument '<file>' for record 0 (message)\n"))
        let invalid = try await BinaryRunner.run(["encode", "--chunk-size", "x", "uri", "u"])
        #expect(invalid.status == 64)
        #expect(invalid.error.hasPrefix("Error: The value 'x' is invalid for '--chunk-size <n>'"))
        #expect(try await BinaryRunner.run(["bogus"]).status == 64)
    }

    @Test func malformedInputExits65() async throws {
        let result = try await BinaryRunner.run(["decode"], input: hex(Self.proxmark + "00"))
        #expect(result.status == 65)
        #expect(
            result.error
                == "Error: malformed NDEF message in standard input at byte 17: 1 bytes follow the last (ME) record (trailing-bytes)\n"
        )
        #expect(try await BinaryRunner.run(["decode", "--hex-input"], input: Array("zz".utf8)).status == 65)
    }

    @Test func missingInputExits66() async throws {
        let result = try await BinaryRunner.run(["decode", "/nonexistent/tag.ndef"])
        #expect(result.status == 66)
        #expect(result.error == "Error: cannot read '/nonexistent/tag.ndef': No such file or directory\n")
    }

    @Test func unwritableOutputExits74() async throws {
        let folder = try TemporaryDirectory("cli")
        let path = folder.path("missing/tag.ndef")
        let result = try await BinaryRunner.run(["encode", "uri", "x", "-o", path])
        #expect(result.status == 74)
        #expect(result.error == "Error: cannot write '\(path)': No such file or directory\n")
    }

    @Test func helpAndVersion() async throws {
        let help = try await BinaryRunner.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputText == HelpSnapshotTests.topLevel)
        let encodeHelp = try await BinaryRunner.run(["help", "encode"])
        #expect(encodeHelp.outputText == HelpSnapshotTests.encode)
        let version = try await BinaryRunner.run(["--version"])
        #expect(version.status == 0)
        #expect(version.outputText == "0.1.0\n")
    }

    @Test func relativePathsAndDash() async throws {
        let folder = try TemporaryDirectory("cli")
        _ = try folder.file("m.hex", text: Self.proxmark)
        let result = try await BinaryRunner.run(
            ["encode", "--hex", "message", "m.hex", "--hex", "-o", "-"], directory: folder.url)
        #expect(result.status == 0)
        #expect(result.outputText == Self.proxmark + "\n")
    }
}
