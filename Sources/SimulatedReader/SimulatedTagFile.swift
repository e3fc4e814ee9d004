import NFCSession
import TagMemory
import TagSimulator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file a simulated tag is kept in: loaded once, rewritten whole after each change.
///
/// Any dump format ``TagMemory/TagDump`` reads is loaded; the file is written back in the
/// format it was loaded in, and a new file in the format its extension names (`.json`
/// proxmark3 JSON, `.bin` proxmark3 binary, `.txt` hex text, `.mfd`, `.dump`, `.dmp`, `.raw`
/// raw image), Flipper `.nfc` otherwise. Flipper keeps everything the simulator holds (memory
/// with PWD and PACK, counters, signature, failed PWD_AUTH count); the other formats lose some
/// of it (see ``TagSimulator/SimulatedType2Tag/dump``).
///
/// Writes are crash-safe: the new content goes to a temporary file in the same directory,
/// which is flushed to disk (`fsync`) and then renamed over the file (POSIX `rename` replaces
/// it atomically), so the file always holds either the old or the new state. The calls block:
/// run them off the cooperative thread pool.
struct SimulatedTagFile: Sendable {
    /// The path as given.
    let path: String
    /// The format the file is written in.
    let format: TagDumpFormat

    /// A file at `path`, to be written in the format its extension names.
    init(path: String) {
        self.path = path
        self.format = Self.format(forPath: path)
    }

    private init(path: String, format: TagDumpFormat) {
        self.path = path
        self.format = format
    }

    /// The format a new file at `path` is written in.
    static func format(forPath path: String) -> TagDumpFormat {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return .flipper }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": return .proxmarkJSON
        case "bin": return .proxmarkBinary
        case "txt", "hex": return .hexText
        case "mfd", "dump", "dmp", "raw": return .raw
        default: return .flipper
        }
    }

    /// Reads the file: nil when it does not exist, else its tag and the file, which keeps the
    /// format found.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file exists but
    ///   cannot be read; ``NFCSession/NFCReaderError/Code/invalidParameter`` when its content
    ///   is not a dump of a Type 2 tag the simulator knows (the reason names the file).
    static func load(path: String) throws(NFCReaderError) -> (tag: SimulatedType2Tag, file: SimulatedTagFile)? {
        guard let bytes = try readBytes(path: path) else { return nil }
        do {
            let format = try TagDump.detect(bytes, fileName: path)
            let dump = try TagDump(decoding: bytes, format: format)
            return (try SimulatedType2Tag(dump: dump), SimulatedTagFile(path: path, format: format))
        } catch {
            throw NFCReaderError(.invalidParameter, "the tag file \(path) cannot be used: \(error)")
        }
    }

    /// Writes `dump` over the file, crash-safe.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when it cannot be written.
    func save(_ dump: TagDump) throws(NFCReaderError) {
        let bytes: [UInt8]
        do {
            bytes = try dump.encoded(as: format)
        } catch {
            throw NFCReaderError(.readerUnavailable, "the simulated tag cannot be saved as a \(format): \(error)")
        }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let temporary = "\(directory).\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do throws(NFCReaderError) {
            try Self.writeSynced(bytes, to: temporary, modeLike: path)
            guard rename(temporary, path) == 0 else { throw Self.systemError("rename to \(path)") }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// The whole file, nil when it does not exist; refuses files over ``TagMemory/TagDump/maximumFileSize``.
    private static func readBytes(path: String) throws(NFCReaderError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw systemError("open \(path)")
        }
        defer { close(descriptor) }
        let limit = TagDump.maximumFileSize
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw systemError("read \(path)")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        throw NFCReaderError(
            .invalidParameter, "the tag file \(path) is larger than the \(limit) bytes any dump format needs")
    }

    /// Creates `path` (which must not exist) with `bytes`, the permissions of `model` if it
    /// exists (else 0644 less the umask), and flushes it to disk.
    private static func writeSynced(_ bytes: [UInt8], to path: String, modeLike model: String) throws(NFCReaderError) {
        var status = stat()
        let hasModel = stat(model, &status) == 0
        let mode: mode_t = hasModel ? status.st_mode & 0o7777 : 0o644
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw systemError("create \(path)") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let error = systemError("write \(path)")
                close(descriptor)
                throw error
            }
            written += count
        }
        if hasModel { fchmod(descriptor, mode) }
        guard fsync(descriptor) == 0 else {
            let error = systemError("fsync \(path)")
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw systemError("close \(path)") }
    }

    /// The error for a failed system call, with the C library's message for `errno`.
    private static func systemError(_ action: String) -> NFCReaderError {
        let code = errno
        let message = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return NFCReaderError(.readerUnavailable, "cannot \(action): \(message)")
    }
}
