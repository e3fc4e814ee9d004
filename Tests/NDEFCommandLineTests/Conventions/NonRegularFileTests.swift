import Foundation
import SystemSupport
import TestSupport
import Testing

/// Files named on the command line that are not regular files: a FIFO nobody writes to or reads
/// from would block `open(2)` (and a report's write after a whole job). Every input, output,
/// journal, plan, password, secret and key file goes through one check: refused with 65 at
/// once, naming the option and what the path is, and nothing else happens (no tag command, no
/// journal, the FIFO left as it is).
@Suite(.timeLimit(.minutes(5))) struct NonRegularFileTests {
    /// A folder holding the FIFO `fifo`, a password file, and a simulated NTAG215's file.
    final class Bench: Sendable {
        let folder: TemporaryDirectory
        let fifo: String

        init() throws {
            folder = try TemporaryDirectory("fifo")
            fifo = folder.path("fifo")
            #expect(mkfifo(fifo, 0o600) == 0)
            try folder.file("password.txt", text: "DEADBEEF\n")
            try folder.file("message.ndef", Array(hex("D1010855016578616D706C65")))
        }

        var tag: String { folder.path("tag.nfc") }
        var reader: String { "sim:ntag215?file=\(tag)" }

        /// Runs `ndeftool` in the folder; a command that blocked on the FIFO would be killed after
        /// a minute (and the test fail on its status).
        func run(_ arguments: [String]) async throws -> RunResult {
            try await BinaryRunner.run(
                arguments, environment: ["NDEFTOOL_READER": "", "XDG_STATE_HOME": folder.path("state")],
                directory: folder.url, timeout: .seconds(60))
        }
    }

    /// Each command with the FIFO in one place, and the words its refusal holds.
    static let cases: [(arguments: [String], says: String)] = [
        (["decode", "fifo"], "'fifo': it is a FIFO, not a regular file"),
        (["inspect", "fifo"], "'fifo': it is a FIFO, not a regular file"),
        (["encode", "text", "hello", "-o", "fifo"], "'fifo': it is a FIFO, not a regular file"),
        (["encode", "message", "fifo"], "it is a FIFO, not a regular file"),
        (["encode", "mime", "text/plain", "--file", "fifo"], "it is a FIFO, not a regular file"),
        (["write", "--from", "fifo", "--reader", "$READER", "--wait", "0"], "it is a FIFO, not a regular file"),
        (["read", "-o", "fifo", "--reader", "$READER", "--wait", "0"], "--output 'fifo': it is a FIFO"),
        (["dump", "-o", "fifo", "--reader", "$READER", "--wait", "0"], "--output 'fifo': it is a FIFO"),
        (
            ["password", "set", "--password-file", "fifo", "--reader", "$READER", "--wait", "0"],
            "it is a FIFO, not a regular file"
        ),
        (
            [
                "password", "set", "--password-file", "password.txt", "--old-password-file", "fifo", "--reader",
                "$READER", "--wait", "0",
            ],
            "it is a FIFO, not a regular file"
        ),
        (["batch", "uri", "https://example.com/{counter}", "--plan", "fifo", "--reader", "$READER"], "it is a FIFO"),
        (
            [
                "batch", "uri", "https://example.com/{counter}", "--from", "1", "--to", "2", "--journal", "fifo",
                "--reader", "$READER",
            ],
            "the journal 'fifo': it is a FIFO, not a regular file"
        ),
        (["batch", "--resume", "fifo", "--reader", "$READER"], "the journal 'fifo': it is a FIFO, not a regular file"),
        (
            [
                "batch", "uri", "https://example.com/{counter}", "--from", "1", "--to", "2", "--report", "fifo",
                "--reader", "$READER",
            ],
            "--report 'fifo': it is a FIFO, not a regular file"
        ),
        (
            [
                "batch", "uri", "https://example.com/{counter}", "--from", "1", "--to", "2", "--report-json", "fifo",
                "--reader", "$READER",
            ],
            "--report-json 'fifo': it is a FIFO, not a regular file"
        ),
        (
            [
                "batch", "uri", "https://example.com/{counter}", "--from", "1", "--to", "2", "--derive-passwords",
                "--master-secret-file", "fifo", "--reader", "$READER",
            ],
            "it is a FIFO, not a regular file"
        ),
        (
            [
                "batch", "uri", "https://x.example/t?p={picc}&m={mac}", "--from", "1", "--to", "2",
                "--sdm-master-key-file", "fifo", "--reader", "sim:ntag424",
            ],
            "it is a FIFO, not a regular file"
        ),
        (
            ["info", "--signature-key", "fifo", "--reader", "$READER", "--wait", "0"],
            "it is a FIFO, not a regular file"
        ),
        (
            [
                "sdm", "setup", "--url", "https://x.example/t?p={picc}&m={mac}", "--keys-file", "fifo", "--reader",
                "sim:ntag424", "--wait", "0",
            ],
            "it is a FIFO, not a regular file"
        ),
        (
            [
                "sdm", "verify", "https://x.example/t?picc_data=00&cmac=00", "--meta-read-key-file", "fifo",
                "--file-read-key-file", "fifo",
            ],
            "it is a FIFO, not a regular file"
        ),
    ]

    @Test(
        "A FIFO as an input, output, journal, report, plan, password, secret or key file: 65 at once", arguments: cases)
    func fifoRefused(arguments: [String], says: String) async throws {
        let bench = try Bench()
        let result = try await bench.run(arguments.map { $0 == "$READER" ? bench.reader : $0 })
        #expect(result.status == 65, "\(arguments): \(result.error)")
        #expect(result.error.contains(says), "\(arguments): \(result.error)")
        // Nothing happened: no tag file (the simulated reader makes one at its first command),
        // no journal, no report; the FIFO is still a FIFO.
        #expect(!FileManager.default.fileExists(atPath: bench.tag), "\(arguments): a tag command was sent")
        let left = try bench.folder.contents().filter {
            !["fifo", "password.txt", "message.ndef", "state"].contains($0)
        }
        #expect(left.isEmpty, "\(arguments): \(left)")
        var status = stat()
        #expect(stat(bench.fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("A folder or a device as an input or an output: 65, what it is named")
    func folderAndDevice() async throws {
        let bench = try Bench()
        try bench.folder.directory("folder")
        for (arguments, says) in [
            (["decode", "folder"], "it is a folder, not a regular file"),
            (["decode", "/dev/zero"], "it is a device, not a regular file"),
            (["encode", "text", "hi", "-o", "/dev/null"], "it is a device, not a regular file"),
            (["encode", "text", "hi", "-o", "folder"], "it is a folder, not a regular file"),
        ] {
            let result = try await bench.run(arguments)
            #expect(result.status == 65, "\(arguments): \(result.error)")
            #expect(result.error.contains(says), "\(arguments): \(result.error)")
        }
    }
}
