import Foundation
import TestSupport
import Testing

/// ndeftool against libfreefare 0.4.0 (Debian's libfreefare-bin), an implementation of NXP
/// AN1304/AN10787 that is not ours, on simulated MIFARE Classic 1K and 4K cards served as a
/// PN532 (`ndeftool sim serve --pn532`) and reached by both through libnfc's real `pn532_uart`
/// driver: `mifare-classic-read-ndef` reads what `ndeftool format` and `ndeftool write`
/// made, and `ndeftool read` reads what `mifare-classic-format` and
/// `mifare-classic-write-ndef` made. Runs when the tools are installed; Scripts/test installs
/// them and sets NDEFTOOL_REQUIRE_LIBFREEFARE=1, which turns the skip into a failure.
@Suite(.enabled(if: LibfreefareTools.isEnabled, LibfreefareTools.skipNote), .timeLimit(.minutes(5)))
struct LibfreefareCrossCheckTests {
    /// A served PN532 with a factory card kept in a `.mfd` file.
    final class Bench {
        let directory: TemporaryDirectory
        let link: String
        let server: ServeProcess

        init(_ chip: String) async throws {
            directory = try TemporaryDirectory("libfreefare")
            link = directory.path("pn532")
            server = try ServeProcess([
                "sim", "serve", "--pn532", link, "sim:\(chip)?file=\(directory.path("card.mfd"))",
            ])
            #expect(await server.waitForError(containing: "Press Ctrl-C"))
            try Data("key-b 0F1E2D3C4B5A\n".utf8).write(to: URL(fileURLWithPath: keys))
        }

        var reader: String { "libnfc:pn532_uart:\(link)" }
        var keys: String { directory.path("keys.txt") }

        func stop() async throws {
            server.terminate()
            #expect(try await server.waitForExit() == 0)
        }

        /// `ndeftool arguments --reader ...`.
        func ndeftool(_ arguments: [String]) async throws -> RunResult {
            try await BinaryRunner.run(
                arguments + ["--reader", reader, "--wait", "5"],
                environment: ["NDEFTOOL_READER": "", "XDG_STATE_HOME": directory.path("state")])
        }

        /// Formats the card with ndeftool (the dry run's confirmation code, then the format).
        func formatWithNdeftool() async throws {
            let dryRun = try await ndeftool(["format", "--dry-run", "--keys-file", keys])
            #expect(dryRun.status == 0, "\(dryRun.error)")
            let match = try #require(dryRun.outputText.firstRange(of: /[0-9]{3}-[0-9]{3}/))
            let code = String(dryRun.outputText[match])
            let format = try await ndeftool(["format", "--keys-file", keys, "--confirm", code])
            #expect(format.status == 0, "\(format.error)")
        }

        /// Runs libfreefare's `tool` with `arguments` against the served PN532.
        func libfreefare(_ tool: String, _ arguments: [String], logging: Bool = false) async throws -> RunResult {
            let program = URL(fileURLWithPath: try #require(LibfreefareTools.path(of: tool)))
            var environment = ["LIBNFC_DEVICE": "pn532_uart:\(link)", "LIBNFC_AUTO_SCAN": "false"]
            environment["LIBNFC_INTRUSIVE_SCAN"] = "false"
            if logging { environment["LIBNFC_LOG_LEVEL"] = "3" }
            return try await BinaryRunner.run(arguments, environment: environment, program: program)
        }

        /// The message `mifare-classic-read-ndef` extracts, or nil (with its output) when it
        /// finds none. libnfc gives the PN532 a fixed time to answer (made for a chip) and a
        /// busy machine may schedule the served one later: the read only reads, so a failed
        /// one is run again, three runs at most.
        func readWithLibfreefare(logging: Bool = false) async throws -> (message: [UInt8]?, log: String) {
            let output = directory.path("libfreefare-\(UUID().uuidString).ndef")
            defer { try? FileManager.default.removeItem(atPath: output) }
            var log = ""
            for _ in 0..<3 {
                let run = try await libfreefare(
                    "mifare-classic-read-ndef", ["-y", "-o", output], logging: logging)
                log = run.outputText + run.error
                if run.status == 0, let bytes = FileManager.default.contents(atPath: output), !bytes.isEmpty {
                    return ([UInt8](bytes), log)
                }
                if log.contains("No NFC Forum application") { break }
            }
            return (nil, log)
        }

        /// Writes `message` with `mifare-classic-format` and `mifare-classic-write-ndef`.
        func writeWithLibfreefare(_ message: [UInt8]) async throws {
            let input = directory.path("message.ndef")
            try Data(message).write(to: URL(fileURLWithPath: input))
            let format = try await libfreefare("mifare-classic-format", ["-y"])
            #expect(format.status == 0 && format.outputText.contains("done"), "\(format.outputText) \(format.error)")
            let write = try await libfreefare("mifare-classic-write-ndef", ["-y", "-i", input])
            #expect(write.status == 0, "\(write.outputText) \(write.error)")
        }

        /// The message `ndeftool read --raw` reads.
        func readWithNdeftool() async throws -> [UInt8] {
            let read = try await ndeftool(["read", "--raw"])
            #expect(read.status == 0, "\(read.error)")
            return read.output
        }
    }

    /// The binary NDEF message `ndeftool encode` makes of `records`.
    static func encoded(_ records: [String]) async throws -> [UInt8] {
        let result = try await BinaryRunner.run(["encode"] + records)
        #expect(result.status == 0, "\(result.error)")
        return result.output
    }

    /// A text record of about `length` bytes of printable text.
    static func text(_ length: Int, seed: Int) -> [String] {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ")
        return ["text", String((0..<length).map { alphabet[($0 * 7 + seed * 13 + $0 / 5) % alphabet.count] })]
    }

    @Test("1K: mifare-classic-read-ndef reads the message ndeftool formatted the card for, wrote and locked")
    func libfreefareReadsOurs1K() async throws {
        let bench = try await Bench("classic1k")
        try await bench.formatWithNdeftool()
        let records = ["uri", "https://example.com/" + String(repeating: "a", count: 80)]
        let message = try await Self.encoded(records)
        let write = try await bench.ndeftool(["write"] + records)
        #expect(write.status == 0, "\(write.error)")
        let read = try await bench.readWithLibfreefare()
        #expect(read.message == message, "\(read.log)")
        // Locked (AN1305: access bits 07 8F 0F, GPB 43h) through libnfc: still read by libfreefare.
        let dryRun = try await bench.ndeftool(["lock", "--keys-file", bench.keys, "--dry-run"])
        let code = try #require(dryRun.outputText.firstRange(of: /[0-9]{3}-[0-9]{3}/).map { dryRun.outputText[$0] })
        let lock = try await bench.ndeftool(["lock", "--keys-file", bench.keys, "--confirm", String(code)])
        #expect(lock.status == 0, "\(lock.error)")
        let info = try await bench.ndeftool(["info"])
        #expect(info.outputText.contains("NDEF: read-only") && info.outputText.contains("Gen1a backdoor: no answer"))
        let afterLock = try await bench.readWithLibfreefare()
        #expect(afterLock.message == message, "\(afterLock.log)")
        try await bench.stop()
    }

    @Test(
        "1K and 4K: ndeftool reads what libfreefare wrote, and libfreefare what ndeftool wrote over it",
        arguments: [("classic1k", 600), ("classic4k", 1_500), ("classic4k", 80)])
    func ndeftoolReadsLibfreefare(chip: String, length: Int) async throws {
        let bench = try await Bench(chip)
        let theirs = try await Self.encoded(Self.text(length, seed: 1))
        try await bench.writeWithLibfreefare(theirs)
        #expect(try await bench.readWithNdeftool() == theirs)
        // libfreefare gives a 4K's 15-block sectors 32-39 to a long message first, then
        // sectors from 1 on (sectors 1-2 and 32-37 for 1.5 kB): read across the gap, and
        // written across it too, where libfreefare reads it back.
        let records = Self.text(length - 30, seed: 2)
        let ours = try await Self.encoded(records)
        let write = try await bench.ndeftool(["write"] + records)
        #expect(write.status == 0, "\(write.error)")
        let read = try await bench.readWithLibfreefare()
        #expect(read.message == ours, "\(read.log)")
        try await bench.stop()
    }

    /// libfreefare 0.4.0 cannot read a 4K whose NFC application runs through sector 16, as
    /// every card formatted by AN1304's whole-card layout (NXP TagWriter, Android, ndeftool)
    /// does: mifare_application_find() (mifare_application.c) keeps the AID of sector 15 for
    /// sector 16, for which mad_get_aid() returns an error without setting it, so it takes the
    /// MAD2 sector for an NFC sector, authenticates block 64 with the NFC Forum key A, is
    /// refused (the MAD key A A0A1A2A3A4A5 opens it, AN10787) and reports "No NFC Forum
    /// application". The test holds libfreefare to exactly that failure: if a later version
    /// reads the card, it must read our message.
    @Test("4K formatted by ndeftool: libfreefare 0.4.0 fails only on its sector-16 defect, or reads our message")
    func libfreefareOn4KFormattedByUs() async throws {
        let bench = try await Bench("classic4k")
        try await bench.formatWithNdeftool()
        let records = ["uri", "https://example.com/4k"]
        let message = try await Self.encoded(records)
        #expect(try await bench.ndeftool(["write"] + records).status == 0)
        let read = try await bench.readWithLibfreefare(logging: true)
        if read.message == nil {
            let log = read.log.replacingOccurrences(of: "\t", with: " ")
            // InDataExchange Tg 1, AUTH A (60h) of block 64 (40h) with D3F7D3F7D3F7.
            #expect(log.contains("d4 40 01 60 40 d3 f7 d3 f7 d3 f7"), "\(read.log)")
            #expect(log.contains("Mifare Authentication"), "\(read.log)")
            #expect(log.contains("No NFC Forum application"), "\(read.log)")
        } else {
            #expect(read.message == message)
        }
        #expect(try await bench.readWithNdeftool() == message)
        try await bench.stop()
    }
}

/// libfreefare's MIFARE Classic tools (Debian package libfreefare-bin).
enum LibfreefareTools {
    static let names = ["mifare-classic-format", "mifare-classic-write-ndef", "mifare-classic-read-ndef"]

    /// Whether the environment demands the tools (Scripts/test sets it and installs them).
    static let isRequired = ProcessInfo.processInfo.environment["NDEFTOOL_REQUIRE_LIBFREEFARE"] == "1"

    /// The tools that are not installed.
    static let missing: [String] = names.filter { path(of: $0) == nil }

    /// Whether the tests run: the tools are there, or they are required (and then fail).
    static let isEnabled = missing.isEmpty || isRequired

    static let skipNote: Comment = """
        SKIPPED: libfreefare's tools (\(missing.joined(separator: ", "))) are not installed \
        (apt-get install libfreefare-bin; Scripts/test installs them and sets \
        NDEFTOOL_REQUIRE_LIBFREEFARE=1, which turns this skip into a failure).
        """

    /// The full path of tool `name`.
    static func path(of name: String) -> String? {
        ["/usr/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
