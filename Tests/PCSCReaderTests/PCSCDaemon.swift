import Foundation
import PCSCReader

/// A real pcscd (test-stacks.md part A) for the integration tests, with the stock vpcd readers
/// `Virtual PCD 00 00` and `Virtual PCD 00 01`.
///
/// Each daemon runs in its own mount and network namespaces (`unshare -m -n`), so it neither
/// meets a pcscd of the machine nor takes vpcd's TCP ports from other test runs: /run is a
/// private tmpfs there, and /run/pcscd is bound to a directory of this test process, whose
/// socket the client library is pointed at with `PCSCLITE_CSOCK_NAME` (read once per process,
/// so every test of the process shares the one directory and the tests run one at a time).
final class PCSCDaemon {
    /// The directory holding the daemon's socket and pid file.
    static let runDirectory = "/tmp/ndeftool-pcscd-\(getpid())"

    /// The names vpcd's stock configuration gives its two slots.
    static let virtualReaders = ["Virtual PCD 00 00", "Virtual PCD 00 01"]

    /// Why the daemon cannot be run here, or nil.
    static let unavailableReason: String? = {
        if getuid() != 0 { return "pcscd needs root (and unshare needs CAP_SYS_ADMIN)" }
        let needed = [
            "/usr/sbin/pcscd": "pcscd (apt install pcscd)", "/usr/bin/unshare": "unshare (util-linux)",
            "/usr/lib/pcsc/drivers/serial/libifdvpcd.so": "vpcd (apt install vsmartcard-vpcd)",
            "/etc/reader.conf.d/vpcd": "vpcd's reader configuration",
        ]
        for (path, what) in needed.sorted(by: { $0.key < $1.key }) where !FileManager.default.fileExists(atPath: path) {
            return "\(what) is missing: \(path)"
        }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        probe.arguments = ["-m", "-n", "true"]
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return "unshare cannot be started" }
        probe.waitUntilExit()
        if probe.terminationStatus != 0 { return "`unshare -m -n` fails here (no CAP_SYS_ADMIN?)" }
        return nil
    }()

    /// Whether the integration tests can run; says loudly why not, once.
    static let isAvailable: Bool = {
        if let reason = unavailableReason {
            FileHandle.standardError.write(
                Data("\n*** SKIPPING the pcscd integration tests: \(reason) ***\n\n".utf8))
        }
        return unavailableReason == nil
    }()

    /// Points the client library at ``runDirectory`` (before any PC/SC call of the process), after
    /// removing the run directories of test processes that have ended.
    static let configure: Void = {
        let prefix = "ndeftool-pcscd-"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? [] where entry.hasPrefix(prefix)
        {
            guard let pid = Int32(entry.dropFirst(prefix.count)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(atPath: "/tmp/" + entry)
        }
        try? FileManager.default.createDirectory(atPath: runDirectory, withIntermediateDirectories: true)
        setenv("PCSCLITE_CSOCK_NAME", runDirectory + "/pcscd.comm", 1)
    }()

    private let process = Process()
    /// The daemon's log (`pcscd -f -i`).
    let logPath: String

    /// Starts pcscd and waits until it lists both vpcd readers.
    ///
    /// With `vpcdPort`, pcscd reads a reader configuration of its own (`pcscd -c`) with one vpcd
    /// entry on that port (and the next) and stays in the machine's network namespace, so a card
    /// of this process can connect to it on 127.0.0.1; without, it uses the stock configuration
    /// (ports 35963 and 35964) in a private network namespace.
    init(vpcdPort: UInt16? = nil) async throws {
        _ = Self.configure
        let socket = Self.runDirectory + "/pcscd.comm"
        try? FileManager.default.removeItem(atPath: socket)
        logPath = Self.runDirectory + "/pcscd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        var namespaces = ["-m", "-n"]
        var daemonArguments = "-f -i"
        if let vpcdPort {
            let configDirectory = Self.runDirectory + "/reader.conf.d"
            try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
            let entry = """
                FRIENDLYNAME "Virtual PCD"
                DEVICENAME   /dev/null:\(vpcdPort)
                LIBPATH      /usr/lib/pcsc/drivers/serial/libifdvpcd.so
                CHANNELID    \(vpcdPort)

                """
            try entry.write(toFile: configDirectory + "/vpcd", atomically: true, encoding: .utf8)
            namespaces = ["-m"]
            daemonArguments += " -c " + configDirectory
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments =
            namespaces + [
                "--propagation", "private", "sh", "-c",
                "mount -t tmpfs none /run && mkdir -p /run/pcscd && mount --bind \"$0\" /run/pcscd "
                    + "&& exec /usr/sbin/pcscd " + daemonArguments,
                Self.runDirectory,
            ]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: socket), let names = try? await PCSCReaders.names(),
                names == Self.virtualReaders
            {
                return
            }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        stop()
        throw DaemonError(message: "pcscd did not come up with the vpcd readers; log: \(self.log())")
    }

    /// The daemon's log so far.
    func log() -> String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// Stops the daemon with SIGTERM and waits for it.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    struct DaemonError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
