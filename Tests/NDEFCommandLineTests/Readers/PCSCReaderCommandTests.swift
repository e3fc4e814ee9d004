import Foundation
import TestSupport
import Testing

extension SharedVPCDPortTests {
    /// Tag commands on a PC/SC reader through the real pcscd: `ndeftool sim serve --vpcd 35964`
    /// puts a simulated tag on `Virtual PCD 00 01`, and the built binary reads and writes it with
    /// `--reader pcsc:...`, remembers the reader, chooses it by itself, and waits for the tag and
    /// the reader. Needs `NDEFTOOL_PCSCD=1` (Scripts/test starts a private pcscd).
    @Suite(
        .serialized,
        .enabled(
            if: ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1",
            "SKIPPED: no pcscd for the PC/SC CLI tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root."))
    struct PCSCReaderCommandTests {
        let reader = "pcsc:" + SecondVPCDPort.readerName

        /// The environment of every run: the test run's pcscd (pcsc-lite's default socket, not a
        /// private daemon another suite of this process may point PCSCLITE_CSOCK_NAME at), a
        /// configuration folder of the test's own, and no reader from the environment.
        func environment(_ directory: TemporaryDirectory) -> [String: String] {
            [
                "PCSCLITE_CSOCK_NAME": "/run/pcscd/pcscd.comm", "XDG_CONFIG_HOME": directory.path("config"),
                "NDEFTOOL_READER": "",
            ]
        }

        /// Serves an NTAG215 kept in `file` on the second vpcd reader until the result is dropped.
        func serve(_ file: String) async throws -> ServeProcess {
            let server = try ServeProcess([
                "sim", "serve", "--vpcd", String(SecondVPCDPort.port), "sim:ntag215?file=\(file)",
            ])
            #expect(await server.waitForError(containing: "the tag is in the reader's field"))
            // The card connected to vpcd; pcscd notices it at its next check (0.4 s, on a machine
            // that may be busy): the commands' default 15 s wait must not have to cover that.
            await SecondVPCDPort.waitUntilPresent()
            return server
        }

        func stop(_ server: ServeProcess) async throws {
            server.terminate()
            #expect(try await server.waitForExit() == 0)
        }

        @Test(
            "A MIFARE Classic 4K through pcscd (Part 3 storage commands): format, write, read, dump, lock, info",
            arguments: ["", "?profile=acr122u"])
        func classic(profile: String) async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                defer { directory.remove() }
                let env = environment(directory)
                let keys = try directory.file("keys.txt", text: "key-b 0F1E2D3C4B5A\n")
                let server = try ServeProcess([
                    "sim", "serve", "--vpcd", String(SecondVPCDPort.port),
                    "sim:classic4k?file=\(directory.path("card.mfd"))",
                ])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                let target = reader + profile
                func run(_ arguments: [String]) async throws -> RunResult {
                    try await BinaryRunner.run(arguments + ["--reader", target], environment: env)
                }
                let dry = try await run(["format", "--keys-file", keys, "--dry-run"])
                let code = try #require(dry.outputText.firstRange(of: /[0-9]{3}-[0-9]{3}/).map { dry.outputText[$0] })
                let format = try await run(["format", "--keys-file", keys, "--confirm", String(code)])
                #expect(format.status == 0 && format.outputText.contains("of 3356 bytes used"), "\(format.error)")
                // 2,000 bytes run from sector 1 through the MAD2 sector 16 into the 15-block sectors.
                let text = String(repeating: "classic ", count: 250)
                let write = try await run(["write", "text", text])
                #expect(write.status == 0, "\(write.error)")
                let read = try await run(["read", "--json"])
                #expect(read.status == 0 && read.outputText.contains(text), "\(read.error)")
                let dump = try await run(["dump", "-o", directory.path("dump.mfd"), "--keys-file", keys])
                #expect(dump.status == 0, "\(dump.error)")
                let served = try Data(contentsOf: URL(fileURLWithPath: directory.path("card.mfd")))
                #expect(try Data(contentsOf: URL(fileURLWithPath: directory.path("dump.mfd"))) == served)
                let lockDry = try await run(["lock", "--keys-file", keys, "--dry-run"])
                let lockCode = try #require(
                    lockDry.outputText.firstRange(of: /[0-9]{3}-[0-9]{3}/).map { lockDry.outputText[$0] })
                let lock = try await run(["lock", "--keys-file", keys, "--confirm", String(lockCode)])
                #expect(lock.status == 0, "\(lock.error)")
                let info = try await run(["info"])
                #expect(info.outputText.contains("NDEF: read-only"), "\(info.outputText)")
                #expect(info.outputText.contains("Gen1a backdoor: not checked"), "\(info.outputText)")
                let refused = try await run(["write", "text", "again"])
                #expect(refused.status != 0)
                try await stop(server)
            }
        }

        @Test("READ_SIG through pcscd and the ACR122U's pass-through: a genuine tag's signature verifies")
        func originalitySignature() async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                defer { directory.remove() }
                let server = try ServeProcess([
                    "sim", "serve", "--vpcd", String(SecondVPCDPort.port), try OriginalityCommandTests.genuineReader(),
                ])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                let info = try await BinaryRunner.run(
                    ["info", "--reader", reader + "?profile=acr122u"], environment: environment(directory))
                #expect(info.status == 0, "\(info.error)")
                #expect(
                    info.outputText.contains("\noriginality signature: valid (NXP NTAG21x key)\n"), "\(info.outputText)"
                )
                try await stop(server)
            }
        }

        @Test(
            "The UID and counter mirror through pcscd, with the ACR122U's pass-through and with Part 3 storage commands",
            arguments: ["?profile=acr122u", ""])
        func mirror(profile: String) async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                defer { directory.remove() }
                let env = environment(directory)
                let server = try await serve(directory.path("tag.nfc"))
                let write = try await BinaryRunner.run(
                    ["write", "--reader", reader + profile, "uri", MirrorCommandTests.uri], environment: env)
                #expect(write.status == 0, "\(write.error)")
                #expect(write.outputText.contains("Mirror: UID and NFC counter at page 9 byte 1"))
                let read = try await BinaryRunner.run(["read", "--reader", reader + profile], environment: env)
                #expect(read.status == 0, "\(read.error)")
                #expect(
                    read.outputText.contains("URI: https://x.example/t?m=\(MirrorCommandTests.uidText)x0000"),
                    "\(read.outputText)")
                let info = try await BinaryRunner.run(["info", "--reader", reader + profile], environment: env)
                #expect(info.outputText.contains("mirror: UID and NFC counter at page 9 byte 1: a reader sees "))
                try await stop(server)
            }
        }

        @Test("An NTAG 424 DNA through pcscd: native commands (GetVersion's three frames, 91 AE), NDEF write and read")
        func ntag424() async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                defer { directory.remove() }
                let env = environment(directory)
                let server = try ServeProcess([
                    "sim", "serve", "--vpcd", String(SecondVPCDPort.port),
                    "sim:ntag424?uid=04518DFAA96180&file=\(directory.path("t424.t4t"))",
                ])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                let raw = try await BinaryRunner.run(
                    [
                        "raw", "00A4040C07D276000085010100", "9060000000", "90AF000000", "90AF000000", "9051000000",
                        "--reader", reader,
                    ], environment: env)
                #expect(raw.status == 0, "\(raw.error)")
                #expect(raw.outputText.contains("< 04 04 02 30 00 11 05 91 AF"), "\(raw.outputText)")
                #expect(raw.outputText.contains("< 04 51 8D FA A9 61 80 "), "\(raw.outputText)")
                #expect(raw.outputText.contains("< 91 AE  (91AE AUTHENTICATION_ERROR)"), "\(raw.outputText)")
                let write = try await BinaryRunner.run(
                    ["write", "--reader", reader, "uri", "https://example.com/424"], environment: env)
                #expect(write.status == 0, "\(write.error)")
                let read = try await BinaryRunner.run(["read", "--reader", reader], environment: env)
                #expect(read.outputText.contains("URI: https://example.com/424"), "\(read.outputText)\(read.error)")
                try await stop(server)
            }
        }

        @Test("sdm setup through pcscd, then 20 reads by separate processes give 20 URLs that verify")
        func sdmSetUpAndTaps() async throws {
            try await SecondVPCDPort.withPort {
                let setting = try SDMSetupCommandTests.Setting("pcsc-sdm")
                defer { setting.folder.remove() }
                let server = try ServeProcess(["sim", "serve", "--vpcd", String(SecondVPCDPort.port), setting.reader])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                try await SDMSetupCommandTests.twentyTaps(
                    setting, reader: reader, environment: environment(setting.folder))
                try await stop(server)
            }
        }

        @Test(
            "sdm setup through pcscd: set up, moved to new keys and a URL, returned to the factory, set up again; AES, LRP",
            arguments: [false, true])
        func sdmRotationAndReset(lrp: Bool) async throws {
            try await SecondVPCDPort.withPort {
                let setting = try SDMSetupCommandTests.Setting("pcsc-sdm-rotate")
                defer { setting.folder.remove() }
                let server = try ServeProcess(["sim", "serve", "--vpcd", String(SecondVPCDPort.port), setting.reader])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                try await SDMRotationCommandTests.setUpMoveAndReset(
                    setting, reader: reader, environment: environment(setting.folder), lrp: lrp)
                try await stop(server)
            }
        }

        @Test(
            "TagTamper through pcscd: set up with --tag-tamper, the served loop opened by SIGUSR1 and closed by SIGUSR2"
        )
        func tagTamper() async throws {
            try await SecondVPCDPort.withPort {
                let setting = try SDMSetupCommandTests.Setting("pcsc-sdm-tt")
                defer { setting.folder.remove() }
                let server = try ServeProcess([
                    "sim", "serve", "--vpcd", String(SecondVPCDPort.port), SDMTagTamperCommandTests.reader(setting),
                ])
                #expect(await server.waitForError(containing: "the tag is in the reader's field"))
                await SecondVPCDPort.waitUntilPresent()
                try await SDMTagTamperCommandTests.servedLoop(
                    setting, server: server, reader: reader, environment: environment(setting.folder))
                try await stop(server)
            }
        }

        @Test("write, read and info with --reader pcsc:NAME; the reader is remembered and chosen next time")
        func writeReadInfo() async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                let env = environment(directory)
                let server = try await serve(directory.path("tag.nfc"))
                let write = try await BinaryRunner.run(
                    ["write", "--reader", reader, "--json", "uri", "https://example.com/pcsc"], environment: env)
                #expect(write.status == 0, "\(write.error)")
                let remembered = try String(
                    contentsOfFile: directory.path("config/ndeftool/last-reader"), encoding: .utf8)
                #expect(remembered == "pcsc:Virtual%20PCD%2000%2001\n")
                let read = try await BinaryRunner.run(["read", "--reader", "pcsc:1", "--json"], environment: env)
                #expect(read.status == 0, "\(read.error)")
                #expect(read.outputText.contains("https://example.com/pcsc"))
                let info = try await BinaryRunner.run(
                    ["info", "--reader", "pcsc:Virtual PCD 00 01?profile=acr122u"], environment: env)
                #expect(info.status == 0, "\(info.error)")
                #expect(info.outputText.contains("NTAG215"))
                #expect(info.outputText.contains("reader: pcsc:Virtual PCD 00 01?profile=acr122u"))
                // PC/SC reports no ATQA: the identified chip's is shown, and a dump keeps it as Flipper
                // files since version 3 do (00 44).
                #expect(info.outputText.contains("(ATQA 00 44 (the chip's; the reader does not report it), SAK 00)"))
                let dump = try await BinaryRunner.run(
                    ["dump", "-o", directory.path("copy.nfc"), "--reader", reader], environment: env)
                #expect(dump.status == 0, "\(dump.error)")
                let copy = try String(contentsOfFile: directory.path("copy.nfc"), encoding: .utf8)
                #expect(copy.contains("ATQA: 00 44\n"), "\(copy)")
                // No --reader: the remembered one, which is connected.
                let chosen = try await BinaryRunner.run(["read", "--json"], environment: env)
                #expect(chosen.status == 0, "\(chosen.error)")
                #expect(chosen.outputText.contains("https://example.com/pcsc"))
                // The list marks it, with its tag.
                let list = try await BinaryRunner.run(["readers"], environment: env)
                #expect(list.status == 0)
                #expect(list.outputText.contains("pcsc:1  Virtual PCD 00 01  (tag present)  [default]"))
                #expect(list.outputText.contains("pcsc:0  Virtual PCD 00 00"))
                try await stop(server)
            }
        }

        @Test("Without --reader and nothing remembered, several readers are an error that lists them")
        func severalReaders() async throws {
            let directory = try TemporaryDirectory("pcsc")
            let result = try await BinaryRunner.run(["read", "--wait", "0"], environment: environment(directory))
            #expect(result.status == 64)
            #expect(result.error.contains("No reader given"))
            #expect(
                result.error.contains("--reader 1  pcsc:Virtual%20PCD%2000%2000  (Virtual PCD 00 00)\n"),
                "\(result.error)")
            #expect(
                result.error.contains("--reader 2  pcsc:Virtual%20PCD%2000%2001  (Virtual PCD 00 01)\n"),
                "\(result.error)")
        }

        @Test("Commands that write connect exclusively: refused while another program holds the tag; reads share it")
        func writesAreExclusive() async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                let env = environment(directory)
                let server = try await serve(directory.path("tag.nfc"))
                // Another program holds a shared connection to the tag: the PC/SC client, reading
                // its commands from a FIFO this test writes them to. Opened for reading and
                // writing here first, the FIFO opens for the client without waiting.
                let commands = directory.path("client-commands")
                guard mkfifo(commands, 0o600) == 0 else {
                    Issue.record("mkfifo \(commands): \(String(cString: strerror(errno)))")
                    return
                }
                let descriptor = open(commands, O_RDWR | O_CLOEXEC)
                guard descriptor >= 0 else {
                    Issue.record("open \(commands): \(String(cString: strerror(errno)))")
                    return
                }
                let input = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
                let other = try ChildProcess(
                    path: "/usr/bin/perl",
                    [PackagePaths.root.appendingPathComponent("Scripts/lib/pcsc-client.pl").path], environment: env,
                    input: .file(commands))
                var answers = 0
                /// One command line to the client, and its answer line.
                func ask(_ line: String) async throws -> String {
                    try input.write(contentsOf: Data((line + "\n").utf8))
                    answers += 1
                    let wanted = answers
                    _ = await other.waitForOutput { output, _ in
                        output.split(separator: "\n").count >= wanted || !other.isRunning
                    }
                    let lines = other.outputText().split(separator: "\n")
                    return lines.count >= wanted ? String(lines[wanted - 1]) : ""
                }
                // pcscd sees the served card within its 0.4 s presence check.
                #expect(try await ask("wait present \(SecondVPCDPort.readerName) 60000").hasPrefix("ok"))
                #expect(try await ask("connect \(SecondVPCDPort.readerName)").hasPrefix("ok 3B8F"))
                let write = try await BinaryRunner.run(
                    ["write", "--reader", reader, "--wait", "0", "uri", "https://example.com"], environment: env)
                #expect(write.status == 69, "\(write.error)")
                #expect(write.error.contains("another program holds it"), "\(write.error)")
                let read = try await BinaryRunner.run(["info", "--reader", reader, "--wait", "2"], environment: env)
                #expect(read.status == 0, "\(read.error)")
                try input.write(contentsOf: Data("quit\n".utf8))
                try input.close()
                let ended = await other.finish(timeout: .seconds(60))
                #expect(ended.status == 0, "\(ended.error)")
                try await stop(server)
            }
        }

        @Test("A remembered reader that is not connected is not used")
        func rememberedButGone() async throws {
            let directory = try TemporaryDirectory("pcsc")
            let env = environment(directory)
            try directory.directory("config/ndeftool")
            _ = try directory.file("config/ndeftool/last-reader", text: "pcsc:Unplugged%20Reader\n")
            let result = try await BinaryRunner.run(["read", "--wait", "0"], environment: env)
            #expect(result.status == 64)
            #expect(result.error.contains(" readers are connected: choose one with --reader"), "\(result.error)")
        }

        @Test("A reader that never comes: 'Waiting for a reader...', then 69 listing the readers there are")
        func unknownReader() async throws {
            let directory = try TemporaryDirectory("pcsc")
            let result = try await BinaryRunner.run(
                ["read", "--reader", "pcsc:No Such Reader", "--wait", "0.5"], environment: environment(directory))
            #expect(result.status == 69)
            #expect(result.error.contains("Waiting for a reader..."))
            #expect(result.error.contains("no reader is named \"No Such Reader\""))
            #expect(result.error.contains("1: Virtual PCD 00 01"))
        }

        @Test("The card bridge stopped and started again: a waiting read gets the tag when it is back")
        func bridgeRestarted() async throws {
            try await SecondVPCDPort.withPort {
                let directory = try TemporaryDirectory("pcsc")
                let env = environment(directory)
                let file = directory.path("tag.nfc")
                var server = try await serve(file)
                let write = try await BinaryRunner.run(
                    ["write", "--reader", reader, "text", "back again"], environment: env)
                #expect(write.status == 0, "\(write.error)")
                try await stop(server)
                // The read starts once pcscd has seen the card leave, and waits for the tag
                // from when it says it uses the reader (-v).
                await SecondVPCDPort.waitUntilEmpty()
                let executable = try #require(BinaryRunner.executable)
                let waiting = try ChildProcess(
                    executable, ["read", "-v", "--reader", reader, "--wait", "120"], environment: env)
                #expect(await waiting.waitForOutput { _, error in error.contains("Using reader") })
                server = try await serve(file)
                let read = await waiting.finish(timeout: .seconds(180))
                try await stop(server)
                #expect(read.status == 0, "\(read.error)")
                #expect(read.outputText.contains("back again"))
            }
        }
    }
}
