import Foundation
import TestSupport
import Testing

/// Arguments are taken as typed or refused, never changed: invalid UTF-8 is refused with 65
/// naming the argument (Swift would turn it into U+FFFD), and a Text record's language and a URI
/// record's URI follow their RTDs (through the built binary).
@Suite(.timeLimit(.minutes(3))) struct ArgumentValidityTests {
    @Test("Invalid UTF-8 in an argument: 65, naming the argument and the byte; valid UTF-8 encodes as typed")
    func invalidUTF8() async throws {
        let executable = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        // Python passes the bytes as they are (Foundation's Process takes Swift strings only).
        let script = """
            import subprocess, sys
            bad = subprocess.run([sys.argv[1], b"encode", b"text", b"caf\\xc3\\xa9 \\xff!"], capture_output=True)
            sys.stdout.write("%d|%s\\n" % (bad.returncode, bad.stderr.decode()))
            good = subprocess.run([sys.argv[1], b"encode", b"--hex", b"text", "café".encode()], capture_output=True)
            sys.stdout.write("%d|%s\\n" % (good.returncode, good.stdout.decode().strip()))
            """
        let run = try ChildProcess(path: "/usr/bin/python3", ["-c", script, executable.path])
        let result = await run.finish(timeout: .seconds(60))
        let lines = result.outputText.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.outputText)\(result.error)")
        #expect(lines.first?.hasPrefix("65|Error: argument 3 is not valid UTF-8") == true, "\(lines)")
        #expect(lines.first?.contains("at byte 6 of it") == true, "\(lines)")
        // Text RTD: status 02 (UTF-8, "en"), then "café" as its UTF-8 bytes, é = C3 A9.
        #expect(lines.last == "0|d101085402656e636166c3a9", "\(lines)")
    }

    @Test(
        "A Text record's language is a language tag of 1 to 63 characters (Text RTD 3.2.1): 64 otherwise",
        arguments: ["", "e", "en_US", "-en", "en-", "toolongsubtag", String(repeating: "a-", count: 32) + "b"])
    func malformedLanguage(language: String) async throws {
        let result = try await BinaryRunner.run(["encode", "text", "hi", "--lang", language])
        #expect(result.status == 64, "\(language): \(result.error)")
        #expect(result.error.contains("is invalid for '--lang'"), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test(
        "Well-formed language tags are taken",
        arguments: ["en", "de-DE", "zh-Hant-TW", "x-klingon", "X-Private", "i-klingon", "es-419"])
    func wellFormedLanguage(language: String) async throws {
        let result = try await BinaryRunner.run(["encode", "text", "hi", "--lang", language])
        #expect(result.status == 0, "\(language): \(result.error)")
    }

    @Test("An empty URI is refused (64)")
    func emptyURI() async throws {
        let result = try await BinaryRunner.run(["encode", "uri", ""])
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.contains("a URI record holds a URI: it cannot be empty"), "\(result.error)")
    }
}
