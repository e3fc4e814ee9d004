import Foundation
import Provisioning
import TagMemory
import TestSupport
import Testing

extension BatchBinaryTests {
    /// `ndeftool batch --derive-passwords`: each tag gets HMAC-SHA256(master secret, UID) as its
    /// password (NTAG213/215/216 datasheet 8.8), and neither the master secret nor any tag's
    /// password reaches the journal, the reports or the command's output.
    @Suite struct BatchSecretTests {
        /// A master secret of 31 printable bytes, so that it can be looked for as text too.
        static let secret = "batch secret: correct horse 42!"

        /// The forms a secret could take in a file: as text, and its hex in upper and lower case,
        /// with or without separators.
        static func forms(_ bytes: [UInt8]) -> [String] {
            let upper = bytes.map { String(format: "%02X", $0) }
            let lower = bytes.map { String(format: "%02x", $0) }
            return [upper.joined(), lower.joined(), upper.joined(separator: " "), upper.joined(separator: ":")]
        }

        /// Checks that none of `texts` holds the secret or the password or PACK of the tags in `uids`,
        /// and that each tag file holds its derived password (so the passwords looked for are the
        /// ones the tags got).
        static func expectNoSecret(in texts: [String: String], uids: [String], tags: String) throws {
            let derivation = try TagPasswordDerivation(masterSecret: Array(secret.utf8))
            var needles = [secret] + forms(Array(secret.utf8))
            for uid in uids {
                let derived = try derivation.derive(uid: hex(uid))
                needles += forms(derived.password) + forms(derived.passwordAcknowledge)
                let dump = try BatchFiles.dump(ofTagFile: tags + uid + ".nfc")
                #expect(dump.password == derived.password, "tag \(uid) does not have its derived password")
                #expect(
                    dump.passwordAcknowledge == derived.passwordAcknowledge, "tag \(uid) does not have its derived PACK"
                )
                // The search finds a password where one is: the tag file's PWD page.
                let tagFile = try String(contentsOfFile: tags + uid + ".nfc", encoding: .utf8)
                #expect(
                    tagFile.contains(": " + forms(derived.password)[2] + "\n"), "the search misses PWD in \(uid).nfc")
            }
            for (name, text) in texts {
                for needle in needles {
                    #expect(!text.contains(needle), "\(name) holds \(needle)")
                }
            }
        }

        /// The journal, both reports and the output of the runs, by name. The job's folder, whose
        /// name holds a random UUID (a PACK is only 4 hex digits: a UUID holds one now and then),
        /// is written `FOLDER` wherever they name it.
        static func files(_ job: BatchFolder, _ runs: [BatchResult]) throws -> [String: String] {
            var texts: [String: String] = [:]
            for name in ["job.journal", "job.report.csv", "job.report.json"] {
                texts[name] = try String(contentsOfFile: job.path(name), encoding: .utf8)
                #expect(texts[name]?.isEmpty == false, "\(name) is empty")
            }
            for (index, run) in runs.enumerated() {
                texts["run \(index + 1) stdout"] = run.output
                texts["run \(index + 1) stderr"] = run.error
            }
            return texts.mapValues { $0.replacing(job.root, with: "FOLDER") }
        }

        @Test("--master-secret-file: each tag its derived password; no secret, password or PACK in any file")
        func secretFromFile() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            // The final line break is not part of the secret.
            _ = try job.file("secret.txt", Self.secret + "\n")
            let arguments = [
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--journal",
                "job.journal",
                "--derive-passwords", "--master-secret-file", "secret.txt", "-v",
            ]
            // Two tags, then the resume on a third: the resume needs the secret again.
            let first = try await job.run(arguments + ["--reader", "sim:ntag215?supply=2&seed=31&file=\(tags)"])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let bare = try await job.run(["batch", "--resume", "job.journal", "--reader", "sim:ntag215"])
            #expect(bare.status == 64)
            #expect(bare.error.contains("--derive-passwords needs the master secret"), "\(bare.error)")
            let resumed = try await job.run([
                "batch", "--resume", "job.journal", "--master-secret-file", "secret.txt", "--reader",
                "sim:ntag215?supply=1&seed=32&file=\(tags)",
            ])
            #expect(resumed.status == 0, "\(resumed.output)\(resumed.error)")
            #expect(
                resumed.output.contains("Done: 3 of 3 rows (1 in this run; 1 given a password"), "\(resumed.output)")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("job.journal"), rows: 3)
            let journal = try String(contentsOfFile: job.path("job.journal"), encoding: .utf8)
            #expect(journal.contains(#""password":"derived""#))
            #expect(journal.components(separatedBy: #""outcome":"written+password""#).count == 4)
            try Self.expectNoSecret(
                in: try Self.files(job, [first, bare, resumed]), uids: Array(byRow.values), tags: tags)
        }

        @Test("The 'Continue with:' line after a stop, pasted as printed, goes on with the secret and the lock code")
        func continueLineAsPrinted() async throws {
            let job = try BatchFolder()
            _ = try job.file("secret.txt", Self.secret)
            let base = [
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--journal",
                "job.journal", "--derive-passwords", "--master-secret-file", "secret.txt", "--lock",
            ]
            let plan = try await job.run(base + ["--dry-run"])
            let code = try #require(
                plan.output.split(separator: "\n").first { $0.hasPrefix("Job code") }?.split(separator: " ").last)
            let first = try await job.run(
                base + ["--confirm", String(code), "--reader", "sim:ntag215?supply=2&seed=41"])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let line = try #require(
                (first.output + first.error).split(separator: "\n").first { $0.hasPrefix("Continue with: ") })
            #expect(line.contains("--master-secret-file secret.txt") && line.contains("--confirm \(code)"), "\(line)")
            // As a person pastes it: through a shell, in the job's folder, with another supply of tags.
            let pasted = String(line.dropFirst("Continue with: ndeftool ".count))
                .replacingOccurrences(of: "seed=41", with: "seed=42")
            let words = try #require(BinaryRunner.executable).path + " " + pasted
            let shell = try ChildProcess(
                URL(fileURLWithPath: "/bin/sh"), ["-c", words], environment: [:], directory: job.folder.url)
            let resumed = await shell.finish(timeout: .seconds(180))
            let output = String(decoding: resumed.output, as: UTF8.self)
            #expect(resumed.status == 0, "\(output)\(resumed.error)")
            #expect(output.contains("Done: 3 of 3 rows"), "\(output)")
        }

        @Test("A resume with another master secret is refused (65) before any tag is touched; the job's resumes")
        func resumeWithAnotherSecret() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            _ = try job.file("secret.txt", Self.secret)
            _ = try job.file("other.txt", "another secret, also 16+ bytes")
            let first = try await job.run([
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--journal",
                "job.journal", "--derive-passwords", "--master-secret-file", "secret.txt",
                "--attempt-limit", "2", "--reader", "sim:ntag215?supply=2&seed=34&file=\(tags)",
            ])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let journal = try job.folder.read("job.journal")
            let tagsBefore = try BatchFiles.tagFiles(in: tags).mapValues {
                try Data(contentsOf: URL(fileURLWithPath: $0))
            }
            // The same supply seed: the two tags done come back first, then a fresh one.
            let reader = "sim:ntag215?supply=3&seed=34&file=\(tags)"
            let wrong = try await job.run([
                "batch", "--resume", "job.journal", "--master-secret-file", "other.txt", "--reader", reader,
            ])
            #expect(wrong.status == 65, "\(wrong.output)\(wrong.error)")
            #expect(
                wrong.error.contains("the master secret given is not the one this job started with"), "\(wrong.error)")
            #expect(try job.folder.read("job.journal") == journal, "the journal changed")
            let tagsAfter = try BatchFiles.tagFiles(in: tags).mapValues {
                try Data(contentsOf: URL(fileURLWithPath: $0))
            }
            #expect(tagsAfter == tagsBefore, "a tag was touched")
            let right = try await job.run([
                "batch", "--resume", "job.journal", "--master-secret-file", "secret.txt", "--reader", reader,
            ])
            #expect(right.status == 0, "\(right.output)\(right.error)")
            try BatchFiles.expectEveryRowDoneOnce(job.path("job.journal"), rows: 3)
        }

        @Test("A job with --attempt-limit 2: the 'Continue with' line runs as pasted (the journal's options count)")
        func continueLineWorksAsPasted() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            _ = try job.file("secret.txt", Self.secret)
            let first = try await job.run([
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "3", "--journal",
                "job.journal", "--derive-passwords", "--master-secret-file", "secret.txt", "--attempt-limit", "2",
                "--reader", "sim:ntag215?supply=2&seed=35&file=\(tags)",
            ])
            #expect(first.status == 75, "\(first.output)\(first.error)")
            let line = try #require(
                first.output.split(separator: "\n").first { $0.hasPrefix("Continue with: ") }, "\(first.output)")
            let words = Self.shellWords(String(line.dropFirst("Continue with: ".count)))
            #expect(words.prefix(4) == ["ndeftool", "batch", "--resume", "job.journal"], "\(words)")
            #expect(words.contains("--master-secret-file"), "\(words)")
            // The same supply brings only the two tags done: the pasted command runs, finds no
            // new tag and stops with the row left (75), not with a usage or data error.
            let pasted = try await job.run(Array(words.dropFirst()))
            #expect(pasted.status == 75, "\(pasted.output)\(pasted.error)")
            #expect(pasted.output.contains("Done: 2 of 3 rows"), "\(pasted.output)")
        }

        /// The words of a command line as `ShellQuoting` writes them (single quotes only).
        static func shellWords(_ line: String) -> [String] {
            var words: [String] = []
            var word = ""
            var quoted = false
            var started = false
            for character in line {
                if character == "'" {
                    quoted.toggle()
                    started = true
                } else if character == " ", !quoted {
                    if started { words.append(word) }
                    word = ""
                    started = false
                } else {
                    word.append(character)
                    started = true
                }
            }
            if started { words.append(word) }
            return words
        }

        @Test("NDEFTOOL_MASTER_SECRET: the same passwords, and no secret in any file")
        func secretFromEnvironment() async throws {
            let job = try BatchFolder()
            let tags = try job.tagDirectory()
            let result = try await job.run(
                [
                    "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "2", "--journal",
                    "job.journal", "--derive-passwords", "--reader", "sim:ntag215?supply=2&seed=33&file=\(tags)",
                    "--json",
                ], environment: ["NDEFTOOL_MASTER_SECRET": Self.secret])
            #expect(result.status == 0, "\(result.output)\(result.error)")
            #expect(result.output.contains(#""passwords" : 2"#), "\(result.output)")
            let byRow = try BatchFiles.expectEveryRowDoneOnce(job.path("job.journal"), rows: 2)
            try Self.expectNoSecret(in: try Self.files(job, [result]), uids: Array(byRow.values), tags: tags)
        }

        @Test(
            "A binary master secret is used whole, its last byte 0Ah or 0Dh too; a text secret loses its final line break"
        )
        func binarySecretWhole() async throws {
            // Found by the exploration (seed 7200212): a random secret ending in 0Dh lost that byte,
            // and its tags got passwords that HMAC-SHA256 over the file does not give.
            let random: [UInt8] = [0x0A, 0x6B, 0xCC, 0x98, 0xB7, 0x86, 0x10, 0x1B, 0x92, 0xB5, 0xA2, 0xFC, 0x35, 0x67]
            let text = Array("a text secret, typed in an editor".utf8)
            let cases: [(bytes: [UInt8], secret: [UInt8])] = [
                (random + [0x21, 0x65, 0x84, 0x72, 0xD2, 0x0D], random + [0x21, 0x65, 0x84, 0x72, 0xD2, 0x0D]),
                (random + [0x21, 0x65, 0x84, 0x72, 0x0D, 0x0A], random + [0x21, 0x65, 0x84, 0x72, 0x0D, 0x0A]),
                (text + [0x0A], text), (text + [0x0D, 0x0A], text), (text + [0x0D], text + [0x0D]),
            ]
            for (index, item) in cases.enumerated() {
                let job = try BatchFolder()
                let tags = try job.tagDirectory()
                let path = job.path("secret.bin")
                #expect(FileManager.default.createFile(atPath: path, contents: Data(item.bytes)))
                let run = try await job.run([
                    "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "1", "--journal",
                    "job.journal", "--derive-passwords", "--master-secret-file", path, "--reader",
                    "sim:ntag215?supply=1&seed=41&file=\(tags)",
                ])
                #expect(run.status == 0, "case \(index): \(run.error)")
                let (uid, file) = try #require(try BatchFiles.tagFiles(in: tags).first)
                let derived = try TagPasswordDerivation(masterSecret: item.secret).derive(uid: hex(uid))
                let memory = try BatchFiles.memory(ofTagFile: file)
                #expect(memory.page(0x85) == derived.password, "case \(index): PWD")
                #expect(
                    memory.page(0x86).map { Array($0.prefix(2)) } == derived.passwordAcknowledge, "case \(index): PACK")
            }
        }

        @Test("A master secret shorter than 16 bytes is refused with 64, its value not shown")
        func shortSecret() async throws {
            let job = try BatchFolder()
            let short = "fifteen-bytes!!"
            _ = try job.file("short.txt", short)
            let arguments = [
                "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "2", "--journal",
                "job.journal",
                "--derive-passwords", "--reader", "sim:ntag215",
            ]
            let file = try await job.run(arguments + ["--master-secret-file", "short.txt"])
            #expect(file.status == 64)
            #expect(
                file.error.contains("The master secret in 'short.txt' has 15 bytes: use at least 16"), "\(file.error)")
            let variable = try await job.run(arguments, environment: ["NDEFTOOL_MASTER_SECRET": short])
            #expect(variable.status == 64)
            #expect(variable.error.contains("$NDEFTOOL_MASTER_SECRET has 15 bytes"), "\(variable.error)")
            for result in [file, variable] {
                #expect(!result.error.contains(short) && !result.output.contains(short))
            }
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
        }

        @Test(
            "--master-secret on the command line is an unknown option (64), its value never echoed",
            arguments: [
                ["--master-secret", "hunter2-but-longer-than-16"], ["--master-secret=hunter2-but-longer-than-16"],
            ])
        func secretOnTheCommandLine(words: [String]) async throws {
            let job = try BatchFolder()
            let result = try await job.run(
                [
                    "batch", "uri", "https://example.com/t/{counter}", "--from", "1", "--to", "2", "--journal",
                    "job.journal", "--derive-passwords",
                ] + words + ["--reader", "sim:ntag215"])
            #expect(result.status == 64)
            #expect(result.error.contains("Unknown option '--master-secret'"), "\(result.error)")
            #expect(!result.error.contains("hunter2") && !result.output.contains("hunter2"), "\(result.error)")
            #expect(!FileManager.default.fileExists(atPath: job.path("job.journal")))
        }
    }
}
