import Foundation
import TestSupport
import Testing

/// The built `ndeftool` on a pseudo-terminal (util-linux `script`), as a person at a terminal
/// sees it: colour, the progress line of a long write, "Done: remove the tag."; and the same
/// commands in a pipe, without any of it.
@Suite(.timeLimit(.minutes(5))) struct TerminalBinaryTests {
    static let script = URL(fileURLWithPath: "/usr/bin/script")

    /// Runs `arguments` on a terminal; standard output and error arrive together.
    static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) async throws -> RunResult? {
        guard FileManager.default.isExecutableFile(atPath: script.path),
            let executable = BinaryRunner.executable
        else { return nil }
        let command = ([executable.path] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        // A terminal that shows colour, whatever the test's own environment says.
        let terminal = ["TERM": "xterm", "NO_COLOR": ""].merging(environment) { $1 }
        return try await BinaryRunner.run(["-qec", command, "/dev/null"], environment: terminal, program: script)
    }

    @Test("A long write on a terminal: an updating progress line, ended before the report; Done in green")
    func progressAndDone() async throws {
        let folder = try TemporaryDirectory("cli")
        let reader = "sim:ntag215?file=\(folder.path("tag.nfc"))"
        let long = String(repeating: "x", count: 300)
        guard
            let result = try await Self.onTerminal(
                ["write", "--reader", reader, "--wait", "0", "text", long], environment: ["NDEFTOOL_READER": ""])
        else { return }
        #expect(result.status == 0, "\(result.outputText)")
        let text = result.outputText
        #expect(
            text.hasPrefix("\rWriting: 8 of 80 page writes\u{1B}[K\rWriting: 9 of 80 page writes\u{1B}[K"),
            "\(Array(text.utf8.prefix(40)))")
        #expect(text.contains("Writing: 80 of 80 page writes\u{1B}[K\r\nWrote tag "))
        #expect(text.contains("\u{1B}[32mDone: remove the tag.\u{1B}[0m"))

        let plain = try #require(
            try await Self.onTerminal(
                ["read", "--reader", reader, "--wait", "0", "--hex"],
                environment: ["NDEFTOOL_READER": "", "NO_COLOR": "1"]))
        #expect(plain.outputText.hasSuffix("\r\nDone: remove the tag.\r\n"))
        #expect(!plain.outputText.contains("\u{1B}["))

        // In a pipe: no progress, no Done, no colour.
        let piped = try await BinaryRunner.run(
            ["write", "--reader", reader, "--wait", "0", "text", long], environment: ["NDEFTOOL_READER": ""])
        #expect(piped.status == 0)
        #expect(piped.error.isEmpty, "\(piped.error)")
    }

    @Test("A usage error on a terminal: Error in red, the suggestion; NO_COLOR leaves it plain")
    func colouredUsageError() async throws {
        guard let result = try await Self.onTerminal(["wrte"]) else { return }
        #expect(result.status == 64)
        #expect(result.outputText.hasPrefix("\u{1B}[31mError:\u{1B}[0m Unknown command 'wrte'. Did you mean 'write'?"))
        let plain = try #require(try await Self.onTerminal(["wrte"], environment: ["NO_COLOR": "1"]))
        #expect(plain.outputText.hasPrefix("Error: Unknown command 'wrte'. Did you mean 'write'?"))
    }
}
