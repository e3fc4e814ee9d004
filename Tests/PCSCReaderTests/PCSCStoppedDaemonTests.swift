import Foundation
import NFCSession
import PCSCReader
import TestSupport
import Testing

extension PCSCDaemonTests {
    /// pcscd stopping under a client, without stopping the test run's pcscd: this test process
    /// runs itself again (one test of ``PCSCStoppedDaemonChild`` each time) in private mount and
    /// network namespaces, where /run/pcscd is an empty tmpfs of its own, so the child starts,
    /// uses and stops a pcscd that no other test sees. Nested in ``PCSCDaemonTests`` all the
    /// same, so that no pcscd of the test run's suites starts or stops beside another.
    @Suite struct PCSCStoppedDaemonTests {
        @Test(
            "pcscd stopped and restarted under clients (each in a child process of its own)",
            arguments: [
                ("stopUnderClient", PCSCStoppedDaemonChild.marker),
                ("restartUnderReconnectingReader", PCSCStoppedDaemonChild.restartMarker),
            ])
        func daemonStopped(test: String, marker: String) async throws {
            let executable = try #require(CommandLine.arguments.first)
            let child = try ChildProcess(
                path: "/usr/bin/unshare",
                [
                    "-m", "-n", "--propagation", "private", "sh", "-c",
                    "ip link set lo up && mkdir -p /run/pcscd && mount -t tmpfs -o mode=0755 tmpfs /run/pcscd "
                        + "&& exec \"$@\" 2>&1",
                    "sh",
                    executable, "--testing-library", "swift-testing", "--filter", "PCSCStoppedDaemonChild/\(test)",
                ],
                environment: [
                    "NDEFTOOL_PCSCD": nil, "PCSCLITE_CSOCK_NAME": nil, PCSCStoppedDaemonChild.variable: "1",
                ])
            let result = await child.finish(timeout: .seconds(420))
            let text = result.outputText + result.error
            #expect(result.shellStatus == 0, "the child test failed:\n\(text)")
            #expect(text.contains(marker), "the child test did not run:\n\(text)")
        }
    }
}

/// The part of ``PCSCStoppedDaemonTests`` that runs in the child process, next to a pcscd of its
/// own (stock /etc/reader.conf.d, private namespaces). Enabled only there; each child process
/// runs one of its tests, as each starts and stops the one pcscd of its namespace.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD_STOP_CHILD"] == "1"), .timeLimit(.minutes(6)))
struct PCSCStoppedDaemonChild {
    static let variable = "NDEFTOOL_PCSCD_STOP_CHILD"
    static let marker = "stopped-pcscd checks ran"
    static let restartMarker = "restarted-pcscd checks ran"

    /// Starts /usr/sbin/pcscd in the foreground and waits until it lists its two vpcd readers.
    static func startDaemon() async throws -> ChildProcess {
        let daemon = try ChildProcess(path: "/usr/sbin/pcscd", ["-f", "-i"])
        let ready = await eventually(within: .seconds(60), every: .milliseconds(20)) {
            (try? await PCSCReaders.names())?.count == 2
        }
        #expect(ready, "pcscd did not list its two vpcd readers: \(daemon.errorText())")
        return daemon
    }

    /// Kills `daemon` (SIGKILL: for clients the daemon is gone either way) and waits for it.
    static func killDaemon(_ daemon: ChildProcess) async {
        daemon.send(SIGKILL)
        _ = await daemon.exit()
    }

    @Test("a device and a reader watch while pcscd stops, then calls with no pcscd at all")
    func stopUnderClient() async throws {
        let daemon = try await Self.startDaemon()
        defer { daemon.send(SIGKILL) }
        let device = PCSCReaderDevice(readerName: "Virtual PCD 00 00")
        #expect(try await device.pollTargets() == [])
        var iterator = PCSCReaders.watchReaders().makeAsyncIterator()
        #expect(try await iterator.next() == .added("Virtual PCD 00 00"))
        #expect(try await iterator.next() == .added("Virtual PCD 00 01"))

        // SIGKILL: pcscd's SIGTERM path can wait for its vpcd readers' threads; for the client the
        // daemon is gone either way (its socket closes).
        await Self.killDaemon(daemon)

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
