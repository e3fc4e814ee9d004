import NFCSession
import Synchronization
import SystemSupport

/// The lock that keeps a simulated tag's file in one reader's field at a time, as a real tag
/// can be in one field only.
///
/// A reader opened with `file=PATH` holds an exclusive `flock` on a lock file beside the tag's
/// file (`.NAME.lock` in the same folder, the folder of a symbolic link's target) while it is
/// open; a second reader, in this process or another, finds the lock taken and sees no tag
/// until the first closes (a command waiting for a tag, `--wait`, waits for it). The tag file
/// itself cannot carry the lock: each save replaces it (`rename`), and a lock on the old file
/// would not keep a second reader from opening the new one.
///
/// Where no lock file can be made (a read-only folder, one that does not exist), the tag is
/// used without a lock. The lock file is removed when the lock is released. A process that takes the lock checks
/// afterwards that the file it locked is still the one at the path (a releasing process may
/// have removed it between the `open` and the `flock`), and tries again otherwise. A process
/// that dies releases its lock with its descriptors; the file it leaves is taken by the next.
/// The calls block only briefly (`flock` with `LOCK_NB`), on the files queue.
final class SimulatedTagLock: Sendable {
    /// The lock file's path.
    let path: String
    private let descriptor: Int32
    private let released = Atomic(false)

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// A reader that goes away without closing (a test dropping it) lets the tag go too.
    deinit {
        release()
        if descriptor >= 0 { close(descriptor) }
    }

    /// The lock file of the tag file `tagPath`: `.NAME.lock` beside it.
    static func lockPath(forTagFile tagPath: String) -> String {
        let directory = tagPath.lastIndex(of: "/").map { String(tagPath[...$0]) } ?? ""
        let name = tagPath.split(separator: "/").last.map(String.init) ?? tagPath
        return directory + "." + name + ".lock"
    }

    /// Takes the lock of the tag file at `tagPath` (symbolic links followed), or nil when
    /// another reader holds it.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the lock file cannot
    ///   be created or locked (a folder that does not exist or cannot be written).
    static func take(forTagFile tagPath: String) throws(NFCReaderError) -> SimulatedTagLock? {
        let path = lockPath(forTagFile: try SimulatedTagFile.resolvingLink(tagPath))
        for _ in 0..<100 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                // A folder that cannot hold a lock file (read-only, not there) cannot hold a
                // saved tag either: the tag is read from it unlocked, and a save fails as it
                // would have.
                if [EACCES, EROFS, EPERM, ENOENT, ENOTDIR].contains(errno) {
                    return SimulatedTagLock(path: path, descriptor: -1)
                }
                throw failure("create the lock file \(path)")
            }
            if case .failure(let error) = nothingOrErrno({ flock(descriptor, LOCK_EX | LOCK_NB) }) {
                close(descriptor)
                if error == .wouldBlock { return nil }
                throw failure("lock \(path)", error)
            }
            // Still the file at the path? A releasing reader removes it before letting it go.
            var held = stat()
            var named = stat()
            if fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino,
                held.st_dev == named.st_dev
            {
                return SimulatedTagLock(path: path, descriptor: descriptor)
            }
            close(descriptor)
        }
        throw NFCReaderError(.readerUnavailable, "the lock file \(path) keeps changing: another process races for it")
    }

    /// Removes the lock file, then lets the lock go (closing the descriptor, when the value goes).
    func release() {
        // Once only: a second unlink could remove the lock file another reader holds by now.
        guard descriptor >= 0, !released.exchange(true, ordering: .sequentiallyConsistent) else { return }
        unlink(path)
        flock(descriptor, LOCK_UN)
    }

    /// The error for a failed system call, with the C library's message for `errno`.
    private static func failure(_ action: String, _ error: Errno = .current) -> NFCReaderError {
        NFCReaderError(.readerUnavailable, "cannot \(action): \(error)")
    }
}
