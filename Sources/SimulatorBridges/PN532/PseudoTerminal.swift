internal import CPseudoTerminal
import Synchronization
import SystemSupport

/// A Unix 98 pseudo-terminal (POSIX `posix_openpt`, `grantpt`, `unlockpt`, `ptsname_r`): the
/// simulated device holds the master side, a serial-port client (libnfc's `pn532_uart`
/// driver, nfcpy's `tty:` transport) opens the slave side as it would open `/dev/ttyUSB0`.
///
/// The terminal keeps a descriptor of its own on the slave, so the slave outlives its clients:
/// one client after another can open it, and the master never sees the hang-up that the last
/// slave closing would bring. The slave starts raw (no echo, no line editing, 8 bits, 115200
/// baud); clients set their own modes, which a pseudo-terminal ignores for speed.
///
/// Optionally a symbolic link names the slave (a stable path for a test or a configuration):
/// made when the terminal opens, replacing a symbolic link already there but never another
/// kind of file, and removed at ``close()`` if it still points to this slave.
///
/// Reads and writes go through the master, which is non-blocking; one thread uses them.
final class PseudoTerminal: Sendable {
    /// The master side.
    let master: Int32
    /// The terminal's own descriptor of the slave side.
    private let slave: Int32
    /// The slave's path, `/dev/pts/N`.
    let slavePath: String
    /// The symbolic link to the slave, if one was asked for.
    let linkPath: String?
    private let isClosed = Mutex(false)

    /// What a read brought.
    enum ReadResult: Equatable {
        case bytes(Int)
        /// Nothing to read now.
        case nothing
        /// The master reported an error (no slave open, which the terminal's own slave
        /// descriptor prevents).
        case failed
    }

    /// Opens a pseudo-terminal, and the symbolic link `linkPath` to its slave.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/invalidConfiguration`` when `linkPath` names a file
    ///   that is not a symbolic link (or is empty); ``SimulatorBridgeError/Code/systemFailure``
    ///   when the terminal or the link cannot be made.
    init(linkPath: String?) throws(SimulatorBridgeError) {
        if let linkPath { try Self.checkReplaceable(linkPath) }
        let master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0 else { throw SystemCalls.failure("open a pseudo-terminal") }
        var name = [CChar](repeating: 0, count: 256)
        guard grantpt(master) == 0, unlockpt(master) == 0, ptsname_r(master, &name, name.count) == 0 else {
            let error = SystemCalls.failure("unlock the pseudo-terminal")
            SystemCall.close(master)
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            let error = SystemCalls.failure("open \(path)")
            SystemCall.close(master)
            throw error
        }
        Self.makeRaw(slave)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        if let linkPath {
            guard unlink(linkPath) == 0 || errno == ENOENT, symlink(path, linkPath) == 0 else {
                let error = SystemCalls.failure("make the link \(linkPath) to \(path)")
                SystemCall.close(slave)
                SystemCall.close(master)
                throw error
            }
        }
        self.master = master
        self.slave = slave
        self.slavePath = path
        self.linkPath = linkPath
    }

    deinit {
        close()
    }

    /// Closes both sides and removes the link (if it still points to the slave). Closing
    /// twice does nothing more.
    func close() {
        let first = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard first else { return }
        if let linkPath, Self.target(of: linkPath) == slavePath { unlink(linkPath) }
        SystemCall.close(slave)
        SystemCall.close(master)
    }

    /// Reads what the client wrote, up to `buffer.count` bytes.
    func read(into buffer: inout [UInt8]) -> ReadResult {
        switch buffer.withUnsafeMutableBytes({ SystemCall.read(master, into: $0) }) {
        case .success(let count) where count > 0: return .bytes(count)
        case .failure(.wouldBlock): return .nothing
        default: return .failed
        }
    }

    /// Writes `bytes` for the client, waiting while the terminal's buffer is full; false when
    /// they could not all be written within `milliseconds`.
    func write(_ bytes: [UInt8], milliseconds: Int32 = 1000) -> Bool {
        var sent = 0
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(milliseconds))
        while sent < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                SystemCall.write(master, from: UnsafeRawBufferPointer(rebasing: buffer[sent...]))
            }
            switch written {
            case .success(let count) where count > 0:
                sent += count
                continue
            case .failure(.wouldBlock): break
            default: return false
            }
            guard ContinuousClock.now < deadline else { return false }
            var entry = pollfd(fd: master, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, 10)
        }
        return true
    }

    /// Drops what was written for the client and not read yet: answers to a client that went
    /// away. A serial line keeps no such bytes (they pass by a host that does not listen).
    func discardUnreadOutput() {
        tcflush(slave, TCIFLUSH)
    }

    /// Raw mode at 115200 baud.
    private static func makeRaw(_ descriptor: Int32) {
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else { return }
        cfmakeraw(&modes)
        modes.c_cflag |= tcflag_t(CLOCAL | CREAD)
        _ = cfsetspeed(&modes, speed_t(B115200))
        _ = tcsetattr(descriptor, TCSANOW, &modes)
    }

    /// Refuses a link path that names something other than a symbolic link.
    private static func checkReplaceable(_ path: String) throws(SimulatorBridgeError) {
        guard !path.isEmpty else { throw SimulatorBridgeError(.invalidConfiguration, "the link path is empty") }
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFLNK else {
            throw SimulatorBridgeError(
                .invalidConfiguration, "\(path) exists and is not a symbolic link: it is left as it is")
        }
    }

    /// Where the symbolic link `path` points; nil when it is no link.
    private static func target(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
