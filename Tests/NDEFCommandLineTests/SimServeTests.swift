import Foundation
import Glibc
import Testing

@testable import NDEFCommandLine

/// `ndeftool sim serve`: its arguments in process, and the built binary serving a tag until
/// SIGTERM or SIGINT, through the real pcscd when `NDEFTOOL_PCSCD=1` (reader `Virtual PCD 00 01`,
/// port 35964, kept free for these tests).
@Suite struct SimServeTests {
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
        let directory = try TemporaryDirectory()
        let path = directory.path("keep.txt")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path))
        let result = await runInProcess(["sim", "serve", "--pn532", path, "sim:ntag215"])
        #expect(result.status == 69)
        #expect(result.error.contains("is not a symbolic link"))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep")
    }

    @Test("The built binary serves a PN532 on a pseudo-terminal: the link answers GetFirmwareVersion until SIGTERM")
    func servesPN532() throws {
        let directory = try TemporaryDirectory()
        let link = directory.path("pn532")
        let file = directory.path("tag.nfc")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, "sim:ntag215?file=\(file)"])
        #expect(try server.waitForError(containing: "Press Ctrl-C"))
        #expect(server.errorText.contains("LIBNFC_DEVICE=pn532_uart:\(link)"))
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: link)
        #expect(target.hasPrefix("/dev/pts/"))
        #expect(try exchange(link, "0000FF02FED4022A00") == "0000FF00FF00" + "0000FF06FAD50332010607E800")
        server.process.terminate()
        #expect(try server.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: link))
    }

    /// Writes the frame `hex` to the serial port at `path` and returns what comes back within
    /// half a second, as upper-case hex.
    func exchange(_ path: String, _ hex: String) throws -> String {
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { throw CommandLineTestFailure(description: "cannot open \(path)") }
        defer { close(descriptor) }
        var modes = termios()
        tcgetattr(descriptor, &modes)
        cfmakeraw(&modes)
        tcsetattr(descriptor, TCSANOW, &modes)
        var frame: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            frame.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        _ = frame.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var received: [UInt8] = []
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(500))
        while received.count < 19, ContinuousClock.now < deadline {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { received += chunk.prefix(count) }
        }
        return received.map { String(format: "%02X", $0) }.joined()
    }

    @Test("Ports default to 35963 onwards, one per tag")
    func defaultPorts() throws {
        #expect(try SimServeCommand.ports([], count: 2) == [35963, 35964])
        #expect(try SimServeCommand.ports(["40000"], count: 1) == [40000])
    }

    @Test("The built binary serves until SIGTERM or SIGINT and exits with status 0", arguments: [SIGTERM, SIGINT])
    func stopsOnSignal(_ signal: Int32) throws {
        let server = try ServeProcess(["sim", "serve", "--vpcd", "1", "sim:ntag215"])
        #expect(try server.waitForError(containing: "Press Ctrl-C"))
        kill(server.process.processIdentifier, signal)
        #expect(try server.waitForExit() == 0)
        #expect(server.errorText.contains("Serving sim:ntag215 on vpcd port 1"))
        #expect(server.errorText.contains("Stopped (signal \(signal))"))
    }

    @Test(
        "Through the real pcscd: a PC/SC client reads and writes the served tag, kept in its file",
        .enabled(
            if: ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1",
            """
            SKIPPED: no pcscd for the PC/SC tests (NDEFTOOL_PCSCD is not 1). Run Scripts/test as root.
            """))
    func throughPCSCD() throws {
        try SecondVPCDPort.withPort { try serveThroughPCSCD() }
    }

    func serveThroughPCSCD() throws {
        let directory = try TemporaryDirectory()
        let file = directory.path("tag.nfc")
        let server = try ServeProcess(["sim", "serve", "--vpcd", "35964", "sim:ntag213?file=\(file)"])
        #expect(try server.waitForError(containing: "the tag is in the reader's field"))
        let reader = "Virtual PCD 00 01"
        let answers = try pcscClient([
            "wait present \(reader) 5000", "connect \(reader)", "transmit FFCA000000", "transmit FFD6000404CAFEF00D",
            "transmit FFB0000404", "quit",
        ])
        #expect(answers.count == 5)
        #expect(answers.dropFirst().first == "ok 3B8F8001804F0CA0000003060300030000000068")
        #expect(answers.dropFirst(2).first == "ok 04517CA24B35809000")
        #expect(answers.dropFirst(3).first == "ok 9000")
        #expect(answers.dropFirst(4).first == "ok CAFEF00D9000")
        server.process.terminate()
        #expect(try server.waitForExit() == 0)
        let saved = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
        #expect(saved.contains("Page 4: CA FE F0 0D"))
    }

    /// Runs `Scripts/lib/pcsc-client.pl` with `commands` and returns its answer lines.
    func pcscClient(_ commands: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/perl")
        process.arguments = [packageRoot.appendingPathComponent("Scripts/lib/pcsc-client.pl").path]
        // The pcscd of the test run, not a private one another suite of this process points
        // PCSCLITE_CSOCK_NAME at.
        process.environment = ProcessInfo.processInfo.environment.filter {
            !["PCSCLITE_CSOCK_NAME", "LIBNFC_LOG_LEVEL"].contains($0.key)
        }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data((commands.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}

/// The built `ndeftool` running in the background, its standard error collected.
final class ServeProcess {
    let process = Process()
    private let error = Pipe()
    private(set) var errorText = ""

    init(_ arguments: [String]) throws {
        let executable = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = error
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    /// Reads standard error until it contains `text`; false after `milliseconds` or at its end.
    func waitForError(containing text: String, milliseconds: Int = 10_000) throws -> Bool {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        let descriptor = error.fileHandleForReading.fileDescriptor
        while !errorText.contains(text) {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { return false }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left.components.seconds * 1000 + 1)) > 0 else { return false }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            errorText += String(decoding: chunk.prefix(count), as: UTF8.self)
        }
        return true
    }

    /// Waits up to `milliseconds` for the process to end and returns its status (the rest of
    /// its standard error is collected).
    func waitForExit(milliseconds: Int = 10_000) throws -> Int32 {
        for _ in 0..<(milliseconds / 20) where process.isRunning { usleep(20_000) }
        guard !process.isRunning else {
            process.terminate()
            throw CommandLineTestFailure(description: "ndeftool sim serve did not stop")
        }
        errorText += String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return process.terminationStatus
    }
}

struct CommandLineTestFailure: Error, CustomStringConvertible {
    let description: String
}
