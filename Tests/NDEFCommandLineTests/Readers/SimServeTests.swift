import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `ndeftool sim serve`: its arguments in process, and the built binary serving a tag until
/// SIGTERM or SIGINT, through the real pcscd when `NDEFTOOL_PCSCD=1` (reader `Virtual PCD 00 01`,
/// port 35964, kept free for these tests).
@Suite(.timeLimit(.minutes(5))) struct SimServeTests {
    @Test("Usage errors: no tag, a port count that differs from the tags, a bad port, a repeated port")
    func usage() async {
        #expect(await runInProcess(["sim", "serve"]).status == 64)
        let twoPorts = await runInProcess(["sim", "serve", "--vpcd", "35963", "--vpcd", "35964", "sim:ntag215"])
        #expect(twoPorts.status == 64)
        #expect(twoPorts.error.contains("one --vpcd port per tag"))
        #expect(await runInProcess(["sim", "serve", "--vpcd", "0", "sim:ntag215"]).status == 64)
        #expect(await runInProcess(["sim", "serve", "--vpcd", "70000", "sim:ntag215"]).status == 64)
        let repeated = await runInProcess(["sim", "serve", "--vpcd", "1", "--vpcd", "1", "sim:ntag215", "sim:type4"])
        #expect(repeated.status == 64)
    }

    @Test("Usage errors: a tag that is no sim: URL, an unknown profile, a bad reinsertion delay")
    func badValues() async {
        #expect(await runInProcess(["sim", "serve", "pcsc:ACS"]).status == 64)
        #expect(await runInProcess(["sim", "serve", "sim:ntag999"]).status == 64)
        #expect(await runInProcess(["sim", "serve", "--profile", "omnikey", "sim:ntag215"]).status == 64)
        #expect(await runInProcess(["sim", "serve", "--reinsert-after", "-5", "sim:ntag215"]).status == 64)
    }

    @Test("--pn532: one path per tag, no path twice, not with --vpcd or --profile")
    func pn532Usage() async {
        let counts = await runInProcess(["sim", "serve", "--pn532", "/tmp/a", "sim:ntag215", "sim:type4"])
        #expect(counts.status == 64)
        #expect(counts.error.contains("one --pn532 path per tag"))
        let twice = await runInProcess([
            "sim", "serve", "--pn532", "/tmp/a", "--pn532", "/tmp/a", "sim:ntag215", "sim:type4",
        ])
        #expect(twice.status == 64)
        let mixed = await runInProcess(["sim", "serve", "--pn532", "/tmp/a", "--vpcd", "35963", "sim:ntag215"])
        #expect(mixed.status == 64)
        #expect(mixed.error.contains("leave out --vpcd and --profile"))
        #expect(
            await runInProcess(["sim", "serve", "--pn532", "/tmp/a", "--profile", "acr122u", "sim:ntag215"]).status
                == 64)
    }

    @Test("--pn532 refuses a path that is a regular file, and leaves the file alone")
    func pn532RegularFile() async throws {
        let directory = try TemporaryDirectory("cli")
        let path = directory.path("keep.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let result = await runInProcess(["sim", "serve", "--pn532", path, "sim:ntag215"])
        #expect(result.status == 69)
        #expect(result.error.contains("is not a symbolic link"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    @Test("The built binary serves a PN532 on a pseudo-terminal: the link answers GetFirmwareVersion until SIGTERM")
    func servesPN532() async throws {
        let directory = try TemporaryDirectory("serve")
        let link = directory.path("pn532")
        let file = directory.path("tag.nfc")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, "sim:ntag215?file=\(file)"])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        #expect(server.errorText.contains("LIBNFC_DEVICE=pn532_uart:\(link)"))
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(target.hasPrefix("/dev/pts/"))
        #expect(try await exchange(link, "0000FF02FED4022A00") == "0000FF00FF00" + "0000FF06FAD50332010607E800")
        server.terminate()
        #expect(try await server.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: link))
    }

    /// Writes the frame `text` (hex) to the serial port at `path` and returns what comes back, as
    /// upper-case hex: the 19 bytes of an ACK and a GetFirmwareVersion answer, or what came
    /// within 10 s.
    func exchange(_ path: String, _ text: String) async throws -> String {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw CommandLineTestFailure(description: "cannot open \(path)") }
        defer { close(descriptor) }
        var modes = termios()
        tcgetattr(descriptor, &modes)
        cfmakeraw(&modes)
        tcsetattr(descriptor, TCSANOW, &modes)
        let frame = hex(text)
        _ = frame.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        // The descriptor is non-blocking: read what is there, else let the other tasks run.
        _ = await eventually(within: .seconds(60)) {
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { received += chunk.prefix(count) }
            return received.count >= 19
        }
        return hexText(received)
    }

    @Test("Ports default to 35963 onwards, one per tag")
    func defaultPorts() throws {
        #expect(try SimServeCommand.ports([], count: 2) == [35963, 35964])
        #expect(try SimServeCommand.ports(["40000"], count: 1) == [40000])
    }

    @Test("The built binary serves until SIGTERM or SIGINT and exits with status 0", arguments: [SIGTERM, SIGINT])
    func stopsOnSignal(_ signal: Int32) async throws {
        let server = try ServeProcess(["sim", "serve", "--vpcd", "1", "sim:ntag215"])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        server.send(signal)
        #expect(try await server.waitForExit() == 0)
        #expect(server.errorText.contains("Serving sim:ntag215 on vpcd port 1"))
        #expect(server.errorText.contains("Stopped (signal \(signal))"))
    }
}

extension SharedVPCDPortTests {
    /// `ndeftool sim serve` through the real pcscd, on the port the CLI tests share.
    @Suite struct SimServeThroughPCSCDTests {
        @Test(
            "Through the real pcscd: a PC/SC client reads and writes the served tag, kept in its file",
            .enabled(
                if: ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1",
                """
                SKIPPED: no pcscd for the PC/SC tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root.
                """))
        func throughPCSCD() async throws {
            try await SecondVPCDPort.withPort { try await serveThroughPCSCD() }
        }

        func serveThroughPCSCD() async throws {
            let directory = try TemporaryDirectory("serve")
            let file = directory.path("tag.nfc")
            let server = try ServeProcess([
                "sim", "serve", "--vpcd", String(SecondVPCDPort.port), "sim:ntag213?file=\(file)",
            ])
            #expect(await server.waitForError(containing: "the tag is in the reader's field"))
            let reader = SecondVPCDPort.readerName
            let answers = try await pcscClient([
                "wait present \(reader) 60000", "connect \(reader)", "transmit FFCA000000",
                "transmit FFD6000404CAFEF00D", "transmit FFB0000404", "quit",
            ])
            #expect(answers.count == 5)
            #expect(answers.dropFirst().first == "ok 3B8F8001804F0CA0000003060300030000000068")
            #expect(answers.dropFirst(2).first == "ok 04517CA24B35809000")
            #expect(answers.dropFirst(3).first == "ok 9000")
            #expect(answers.dropFirst(4).first == "ok CAFEF00D9000")
            server.terminate()
            #expect(try await server.waitForExit() == 0)
            let saved = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
            #expect(saved.contains("Page 4: CA FE F0 0D"))
        }

        /// Runs `Scripts/lib/pcsc-client.pl` with `commands` and returns its answer lines.
        func pcscClient(_ commands: [String]) async throws -> [String] {
            // The pcscd of the test run, not a private one another suite of this process points
            // PCSCLITE_CSOCK_NAME at.
            let client = try ChildProcess(
                path: "/usr/bin/perl", [PackagePaths.root.appendingPathComponent("Scripts/lib/pcsc-client.pl").path],
                environment: ["PCSCLITE_CSOCK_NAME": nil],
                input: .bytes(Array((commands.joined(separator: "\n") + "\n").utf8)))
            let result = await client.finish(timeout: .seconds(60))
            return result.outputText.split(separator: "\n").map(String.init)
        }
    }
}

/// The built `ndeftool` running in the background (`sim serve`), its standard error collected;
/// waited for without holding a thread. Stopped with SIGTERM when dropped.
final class ServeProcess: Sendable {
    let child: ChildProcess

    init(_ arguments: [String]) throws {
        let executable = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        child = try ChildProcess(executable, arguments)
    }

    deinit {
        if child.isRunning { child.send(SIGTERM) }
    }

    /// What the process wrote to standard error so far.
    var errorText: String { child.errorText() }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { child.send(signal) }

    /// Sends SIGTERM to the process.
    func terminate() { child.send(SIGTERM) }

    /// Waits until standard error contains `text`; false after `timeout` or when the process
    /// ended without writing it.
    func waitForError(containing text: String, within timeout: Duration = .seconds(60)) async -> Bool {
        let child = self.child
        _ = await child.waitForOutput(within: timeout) { _, error in error.contains(text) || !child.isRunning }
        return child.errorText().contains(text)
    }

    /// Waits up to `timeout` for the process to end and returns its status; throws (after
    /// killing it) when it still runs then.
    func waitForExit(within timeout: Duration = .seconds(60)) async throws -> Int32 {
        guard await child.exit(within: timeout) else {
            child.send(SIGKILL)
            throw CommandLineTestFailure(description: "ndeftool sim serve did not stop")
        }
        return await child.exit().status
    }
}

struct CommandLineTestFailure: Error, CustomStringConvertible {
    let description: String
}
