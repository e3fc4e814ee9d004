import Synchronization
import SystemSupport

/// The record of a provisioning job that makes it exactly-once and resumable: an append-only
/// JSON Lines file, a header line with the job's identity, then one line per event (see
/// ``JournalEvent``). Each line is written with a single `write()`; the events that must be
/// durable (``JournalEvent/needsSync``: `writing` and `done`, two per tag) are `fsync`ed before
/// ``append(_:)`` returns, the others with them; a new journal's directory is `fsync`ed too,
/// so its name survives a crash.
///
/// The journal is write-ahead: a caller records `writing` (the tag's UID and the digest of the
/// message) before it touches the tag, and `written` only after reading the message back. A
/// crash then leaves one of three situations, all resolved by ``ProvisioningState``: the row
/// was only claimed (it goes back to the pool), the row was bound to a tag that may or may not
/// hold the message (only that tag may finish it: compare its content digest, then mark it
/// written or write it again), or the row was done (the tag is refused if presented again).
///
/// Why JSON Lines and `fsync` rather than SQLite: no extra system library for a tool that
/// otherwise needs only libcrypto and a reader stack; an append-only text file is readable
/// and diffable by people auditing a batch; a crash can only damage the last line (an event
/// is one `write()` ending in a line feed, so a torn write is a last line without its line
/// feed or one that is not JSON, or a tail of zeros), which recovery detects and truncates
/// away; and an `fsync` before the first write to a tag and another before the tag is
/// declared done are the durability points, the same guarantee database commits give here
/// (a synced event makes every line before it durable too). Anything damaged before the last
/// line is reported with its line number rather than silently repaired.
///
/// The journal never holds a secret: the header carries the plan's digest, the template and
/// option names and values chosen by the caller (a password mode, never a password).
///
/// Appending is synchronous and blocks for the `fsync`: call it off the cooperative thread
/// pool when that matters. The journal is safe to share between readers' tasks.
///
/// An open journal is locked (`flock`) until it is closed, and its descriptor is close-on-exec.
/// A program that starts other programs should know that a child holds a copy of the
/// descriptor, and so the lock, from the moment it is forked until it executes its program: a
/// journal opened again at that moment is refused with `journalInUse` though nobody uses it.
public final class ProvisioningJournal: Sendable {
    /// The longest line a journal may hold.
    public static let maximumLineBytes = 1 << 20
    /// The largest journal read.
    public static let maximumFileBytes = 1 << 30

    private struct Inner {
        var fd: Int32
        var state: ProvisioningState
        var size: Int
        var broken: ProvisioningError?
    }

    /// The journal's path.
    public let path: String
    private let inner: Mutex<Inner>

    private init(path: String, fd: Int32, state: ProvisioningState, size: Int) {
        self.path = path
        self.inner = Mutex(Inner(fd: fd, state: state, size: size, broken: nil))
    }

    deinit {
        inner.withLock { inner in
            if inner.fd >= 0 { SystemCall.close(inner.fd) }
        }
    }

    /// The state after every event appended so far.
    public var state: ProvisioningState { inner.withLock { $0.state } }

    /// Creates the journal of a new job at `path` (which must not exist) and writes its header.
    public static func create(at path: String, header: JournalHeader) throws(ProvisioningError) -> ProvisioningJournal {
        let fd = try FileSystem.openRegular(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND, mode: 0o600, "cannot create")
        let bytes = Array((header.line + "\n").utf8)
        do throws(ProvisioningError) {
            try FileSystem.lockExclusively(fd, path: path)
            try FileSystem.writeOnce(fd, bytes, path: path)
            try FileSystem.sync(fd, path: path)
            try FileSystem.syncDirectory(of: path)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        return ProvisioningJournal(path: path, fd: fd, state: ProvisioningState(header: header), size: bytes.count)
    }

    /// Continues the job whose journal is at `path`: recovers its state, truncates a torn last
    /// line away, checks that `header` describes the same job, and appends `resumed` (which
    /// gives back the stopped run's claims).
    ///
    /// The journal is locked (`flock`) before it is read, until it is closed: a second run of
    /// the same job, in another process, is refused with `journalInUse` instead of handing out
    /// the rows the first one is writing.
    public static func resume(at path: String, header: JournalHeader) throws(ProvisioningError) -> ProvisioningJournal {
        let fd = try FileSystem.openRegular(path, O_WRONLY | O_APPEND, "cannot open")
        let journal: ProvisioningJournal
        do throws(ProvisioningError) {
            try FileSystem.lockExclusively(fd, path: path)
            let bytes = try FileSystem.read(path, limit: maximumFileBytes)
            let recovery = try recover(bytes: bytes)
            guard recovery.state.header.isSameJob(as: header) else {
                throw ProvisioningError(
                    .journalMismatch, line: 1,
                    "\(path) records another job (its plan digest, template or options differ)")
            }
            if recovery.discardedBytes > 0 {
                guard ftruncate(fd, off_t(recovery.validLength)) == 0 else {
                    throw FileSystem.failure("cannot truncate", path)
                }
                try FileSystem.sync(fd, path: path)
            }
            journal = ProvisioningJournal(path: path, fd: fd, state: recovery.state, size: recovery.validLength)
        } catch {
            SystemCall.close(fd)
            throw error
        }
        try journal.append(.resumed(time: JournalClock.now()))
        return journal
    }

    /// Opens the journal at `path` for the job `header` describes: creates it when absent (or
    /// when it holds only a torn header, from a crash while it was being created), else resumes it.
    /// A file that does not begin as a journal does is refused with `notAJournal`, unchanged.
    public static func open(at path: String, header: JournalHeader) throws(ProvisioningError) -> ProvisioningJournal {
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw FileSystem.failure("cannot stat", path) }
            return try create(at: path, header: header)
        }
        // Held while deciding, so that a run creating or using the journal now is not undone.
        let guardDescriptor = try FileSystem.openRegular(path, O_RDONLY, "cannot open")
        defer { SystemCall.close(guardDescriptor) }
        try FileSystem.lockExclusively(guardDescriptor, path: path)
        let bytes = try FileSystem.read(path, limit: maximumFileBytes)
        // Nothing, zeros, or the beginning of a header with no complete line: the header's
        // write never completed. A file that does not begin as a journal does is never taken
        // for one: resume() refuses it (notAJournal) and leaves it as it is.
        var isTorn = false
        if bytes.count <= maximumLineBytes + 1 {
            do throws(ProvisioningError) {
                _ = try recover(bytes: bytes)
            } catch {
                isTorn = error.code == .missingJournalHeader
            }
        }
        if isTorn {
            guard unlink(path) == 0 else { throw FileSystem.failure("cannot remove", path) }
            return try create(at: path, header: header)
        }
        // resume() locks through its own descriptor: flock locks belong to open files.
        _ = flock(guardDescriptor, LOCK_UN)
        return try resume(at: path, header: header)
    }

    /// The state recorded in the journal at `path`, without changing the file. Claims of the
    /// run that wrote it are given back, as resuming would.
    public static func recover(_ path: String) throws(ProvisioningError) -> ProvisioningState {
        try recover(bytes: FileSystem.read(path, limit: maximumFileBytes)).state
    }

    /// Replays journal `bytes`: a torn last line is ignored, damage anywhere else is an error
    /// with its line number.
    public static func recover(bytes: [UInt8]) throws(ProvisioningError) -> JournalRecovery {
        try JournalReplay.replay(bytes)
    }

    /// Records `event`: checks it against the state (a refused event is not written), writes its
    /// line with one `write()`, `fsync`s when the event must be durable (``JournalEvent/needsSync``),
    /// then applies it. After a failed write or `fsync` the journal refuses every further event:
    /// resume from the file instead.
    ///
    /// An event written without `fsync` becomes durable with the next one that is `fsync`ed (the
    /// same file); until then a crash may lose it, which recovery handles as if it had not
    /// happened (a lost claim is given back anyway; a lost `written`, `locked` or `password` is
    /// found again on the tag, whose row stays bound to it by its durable `writing`).
    public func append(_ event: JournalEvent) throws(ProvisioningError) {
        try inner.withLock { inner throws(ProvisioningError) in
            if let broken = inner.broken { throw broken }
            let change: ProvisioningState.Change
            do throws(ProvisioningError) {
                change = try inner.state.change(for: event)
            } catch {
                throw ProvisioningError(.refusedEvent, error.reason)
            }
            let bytes = Array((event.line + "\n").utf8)
            do throws(ProvisioningError) {
                try FileSystem.writeOnce(inner.fd, bytes, path: path)
                if event.needsSync { try FileSystem.sync(inner.fd, path: path) }
            } catch {
                _ = ftruncate(inner.fd, off_t(inner.size))
                inner.broken = ProvisioningError(.io, "the journal could not be written (\(error.reason)); resume it")
                throw error
            }
            inner.size += bytes.count
            inner.state.commit(change)
        }
    }

    /// Gives every row that failed for good before a tag was bound to it (too large for every
    /// tag, or its message could not be built) back to the pool, with one `retried` event each,
    /// so that this run tries them again (`batch --resume --retry-failed`). Rows that failed on
    /// a tag stay bound to it: only that tag finishes them.
    ///
    /// - Returns: the rows given back, in order.
    @discardableResult
    public func retryFailedRows() throws(ProvisioningError) -> [Int] {
        let rows = state.failedRows.filter { row in
            let status = state.status(of: row)
            return status.uid == nil && status.reader == nil
        }
        for row in rows { try append(.retried(row: row, time: JournalClock.now())) }
        return rows
    }

    /// Closes the file; later appends fail.
    public func close() {
        inner.withLock { inner in
            if inner.fd >= 0 { SystemCall.close(inner.fd) }
            inner.fd = -1
            inner.broken = ProvisioningError(.io, "the journal is closed")
        }
    }
}
