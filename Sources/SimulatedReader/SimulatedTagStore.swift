import Dispatch
import NFCSession
import Synchronization
import SystemSupport
import TagMemory
import TagSimulator

/// The tag file of a ``SimulatedReader``, read and written on one serial dispatch queue so the
/// blocking file calls never run on the cooperative thread pool.
///
/// Saves carry a generation number; a save older than the last one written is skipped, so
/// the file never goes back to an earlier state when saves are requested concurrently.
final class SimulatedTagStore: Sendable {
    /// The queue every simulated tag file is read and written on.
    private static let queue = DispatchQueue(label: "ndeftool.simulated-reader.files")

    /// The file.
    let file: SimulatedTagFile
    /// The generation of the newest state written.
    private let written = Mutex(0)

    /// A store for `file`.
    init(file: SimulatedTagFile) {
        self.file = file
    }

    /// Loads `path` off the cooperative pool: nil when the file does not exist.
    static func load(path: String) async throws(NFCReaderError) -> (tag: SimulatedTag, store: SimulatedTagStore)? {
        let result: Result<(tag: SimulatedTag, file: SimulatedTagFile)?, NFCReaderError> =
            await withCheckedContinuation { continuation in
                queue.async {
                    do throws(NFCReaderError) {
                        continuation.resume(returning: .success(try SimulatedTagFile.load(path: path)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        guard let loaded = try result.get() else { return nil }
        return (loaded.tag, SimulatedTagStore(file: loaded.file))
    }

    /// Takes the lock of the tag file at `path` off the cooperative pool
    /// (``SimulatedTagLock/take(forTagFile:)``): nil when another reader holds it.
    static func takeLock(forTagFile path: String) async throws(NFCReaderError) -> SimulatedTagLock? {
        let result: Result<SimulatedTagLock?, NFCReaderError> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(NFCReaderError) {
                    continuation.resume(returning: .success(try SimulatedTagLock.take(forTagFile: path)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Releases `lock` off the cooperative pool, after the saves queued before it.
    static func release(_ lock: SimulatedTagLock) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async {
                lock.release()
                continuation.resume()
            }
        }
    }

    /// Checks off the cooperative pool that `path` is an existing folder, where a supply keeps the
    /// files of its tags (or, with `tagFile`, where that tag file is kept).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagFolderMissing`` when it does not exist or is
    ///   not a folder.
    static func checkFolder(path: String, tagFile: String? = nil) async throws(NFCReaderError) {
        let problem: String? = await withCheckedContinuation { continuation in
            queue.async {
                var status = stat()
                if stat(path, &status) != 0 {
                    continuation.resume(returning: "does not exist")
                } else if status.st_mode & S_IFMT != S_IFDIR {
                    continuation.resume(returning: "is not a folder")
                } else {
                    continuation.resume(returning: nil)
                }
            }
        }
        guard let problem else { return }
        if let tagFile {
            throw NFCReaderError(
                .tagFolderMissing,
                "the folder of the tag file \(tagFile), \(path), \(problem): create it, or name another file with file="
            )
        }
        throw NFCReaderError(
            .tagFolderMissing, "the supply folder \(path) \(problem): create it, or name another with file=")
    }

    /// Loads each of `paths` off the cooperative pool, in one turn of the files queue: nil for a
    /// file that does not exist.
    ///
    /// - Throws: as ``SimulatedTagFile/load(path:)``, for the first file that cannot be used.
    static func loadAll(
        paths: [String]
    ) async throws(NFCReaderError) -> [(tag: SimulatedTag, file: SimulatedTagFile)?] {
        let result: Result<[(tag: SimulatedTag, file: SimulatedTagFile)?], NFCReaderError> =
            await withCheckedContinuation { continuation in
                queue.async {
                    do throws(NFCReaderError) {
                        continuation.resume(returning: .success(try paths.map(SimulatedTagFile.load(path:))))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        return try result.get()
    }

    /// Writes `snapshot` (state number `generation`) off the cooperative pool, unless a newer
    /// state was written already.
    func save(_ snapshot: SimulatedTagSnapshot, generation: Int) async throws(NFCReaderError) {
        let result: Result<Void, NFCReaderError> = await withCheckedContinuation { continuation in
            Self.queue.async {
                guard self.written.withLock({ $0 }) < generation else {
                    continuation.resume(returning: .success(()))
                    return
                }
                do throws(NFCReaderError) {
                    try self.file.save(snapshot)
                    self.written.withLock { $0 = generation }
                    continuation.resume(returning: .success(()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// Writes `snapshot` (state number `generation`) on the files queue and waits for it, unless
    /// a newer state was written already. Blocks the calling thread: never call it from the
    /// cooperative thread pool.
    func saveBlocking(_ snapshot: SimulatedTagSnapshot, generation: Int) throws(NFCReaderError) {
        let result: Result<Void, NFCReaderError> = Self.queue.sync {
            guard written.withLock({ $0 }) < generation else { return .success(()) }
            do throws(NFCReaderError) {
                try file.save(snapshot)
                written.withLock { $0 = generation }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
