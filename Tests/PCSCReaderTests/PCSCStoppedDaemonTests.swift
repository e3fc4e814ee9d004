import Foundation
import NFCSession
import PCSCReader
import Testing

/// pcscd stopping under a client, without stopping the test run's pcscd: this test process runs
/// itself again (one test of ``PCSCStoppedDaemonChild`` each time) in private mount and network
/// namespaces, where /run/pcscd is an empty tmpfs of its own, so the child starts, uses and
/// stops a pcscd that no other test sees.
@Suite(.enabled(if: PCSCTestReaders.isAvailable, PCSCTestReaders.skipNote))
struct PCSCStoppedDaemonTests {
    @Test(
        "pcscd stopped and restarted under clients (each in a child process of its own)",
        arguments: [
            ("stopUnderClient", PCSCStoppedDaemonChild.marker),
            ("restartUnderReconnectingReader", PCSCStoppedDaemonChild.restartMarker),
        ])
    func daemonStopped(test: String, marker: String) throws {
        let arguments = CommandLine.arguments
        let executable = try #require(arguments.first)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = [
            "-m", "-n", "--propagation", "private", "sh", "-c",
            "ip link set lo up && mkdir -p /run/pcscd && mount -t tmpfs -o mode=0755 tmpfs /run/pcscd && exec \"$@\"",
            "sh",
            executable, "--testing-library", "swift-testing", "--filter", "PCSCStoppedDaemonChild/\(test)",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["NDEFTOOL_PCSCD"] = nil
        environment["PCSCLITE_CSOCK_NAME"] = nil
        environment[PCSCStoppedDaemonChild.variable] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the child test failed:\n\(text)")
        #expect(text.contains(marker), "the child test did not run:\n\(text)")
    }
}

/// The part of ``PCSCStoppedDaemonTests`` that runs in the child process, next to a pcscd of its
/// own (stock /etc/reader.conf.d, private namespaces). Enabled only there; each child process
/// runs one of its tests, as each starts and stops the one pcscd of its namespace.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD_STOP_CHILD"] == "1"))
struct PCSCStoppedDaemonChild {
    static let variable = "NDEFTOOL_PCSCD_STOP_CHILD"
    static let marker = "stopped-pcscd checks ran"
    static let restartMarker = "restarted-pcscd checks ran"

    /// Starts /usr/sbin/pcscd in the foreground and waits until it lists its two vpcd readers.
    static func startDaemon() async throws -> Process {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/sbin/pcscd")
        daemon.arguments = ["-f", "-i"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? await PCSCReaders.names())?.count != 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        return daemon
    }

    /// Kills `daemon` (SIGKILL: for clients the daemon is gone either way) and waits for it.
    static func killDaemon(_ daemon: Process) {
        guard daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    @Test("a device and a reader watch while pcscd stops, then calls with no pcscd at all")
    func stopUnderClient() async throws {
        let daemon = try await Self.startDaemon()
        defer { Self.killDaemon(daemon) }
        let device = PCSCReaderDevice(readerName: "Virtual PCD 00 00")
        #expect(try await device.pollTargets() == [])
        var iterator = PCSCReaders.watchReaders().makeAsyncIterator()
        #expect(try await iterator.next() == .added("Virtual PCD 00 00"))
        #expect(try await iterator.next() == .added("Virtual PCD 00 01"))

        // SIGKILL: pcscd's SIGTERM path can wait for its vpcd readers' threads; for the client the
        // daemon is gone either way (its socket closes).
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()

        let failure = await asyncReaderError { _ = try await iterator.next() }
        #expect(failure?.code == .readerUnavailable, "\(failure?.description ?? "no error")")
        let whileGone = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(whileGone?.code == .readerUnavailable)
        #expect(whileGone?.reason.hasPrefix("pcscd is not running") == true, "\(whileGone?.reason ?? "")")
        // The context was dropped: the next call finds no pcscd at all.
        let again = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(again?.code == .readerUnavailable)
        #expect(
            again?.reason.hasPrefix("pcscd is not running: start it with `sudo systemctl start pcscd` (or `pcscd -f`)")
                == true)
        let listing = await asyncReaderError { _ = try await PCSCReaders.names() }
        #expect(listing?.code == .readerUnavailable)
        #expect(listing?.reason.contains("SCARD_E_NO_SERVICE") == true)
        let opening = await asyncReaderError { _ = try await PCSCReaders.open(url: "pcsc:") }
        #expect(opening?.reason.contains("pcscd is not running") == true)
        print(Self.marker)
    }
}
