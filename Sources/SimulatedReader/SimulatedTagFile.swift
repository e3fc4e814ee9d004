import NFCSession
import SystemSupport
import TagMemory
import TagSimulator

/// The file a simulated tag is kept in: loaded once, rewritten whole after each change.
///
/// A Type 2 tag: any dump format ``TagMemory/TagDump`` reads is loaded; the file is written
/// back in the format it was loaded in, and a new file in the format its extension names
/// (`.json` proxmark3 JSON, `.bin` proxmark3 binary, `.txt` hex text, `.mfd`, `.dump`, `.dmp`,
/// `.raw` raw image), Flipper `.nfc` otherwise. Flipper keeps everything the simulator holds
/// (memory with PWD and PACK, counters, signature, failed PWD_AUTH count); the other formats
/// lose some of it (see ``TagSimulator/SimulatedType2Tag/dump``).
///
/// A Type 4 tag: its state text (``TagSimulator/SimulatedType4Tag/stateText``), whatever the
/// file's extension (`.t4t` is the one suggested). Loading tells the two kinds apart by
/// content: a file whose first line that is not blank or a `#` comment starts with
/// `ndeftool-type4-tag` is a Type 4 tag, any other a Type 2 dump.
///
/// Writes are crash-safe: the new content goes to a temporary file in the same directory (the
/// directory of the target when the path is a symbolic link, which stays a link),
/// which is flushed to disk (`fsync`, unless ``syncsToDisk`` is off) and then renamed over the
/// file (POSIX `rename` replaces it atomically), so the file always holds either the old or the
/// new state. Without the `fsync` that holds across a process killed at any point (the kernel
/// keeps the written pages), not across a power cut. The calls block: run them off the
/// cooperative thread pool.
struct SimulatedTagFile: Sendable {
    /// How a file holds its tag.
    enum Format: Sendable, Hashable {
        /// A dump of a Type 2 tag.
        case dump(TagDumpFormat)
        /// The state text of a Type 4 tag.
        case type4StateText
    }

    /// The extension suggested for a Type 4 tag's file.
    static let type4Extension = "t4t"
    /// The largest file read: 8 MiB, room for the state text of a Type 4 tag with the largest
    /// NDEF file simulated (1 MiB, about 4 MiB of text). Dumps are held to
    /// ``TagMemory/TagDump/maximumFileSize``.
    static let maximumFileSize = 8 << 20

    /// The path as given.
    let path: String
    /// The format the file is written in.
    let format: Format
    /// Whether each write is flushed to disk before the rename (`fsync`): on for a single tag's
    /// file; off for a supply's files, written after every changing command, where surviving
    /// the process is enough.
    var syncsToDisk = true

    /// The kinds of tag a file holds.
    enum Holding: Sendable, Hashable {
        /// A Type 2 tag, in a dump.
        case type2
        /// A Type 4 tag, in its state text.
        case type4
        /// A MIFARE Classic card, in a raw image or hex text.
        case classic

        /// The kind of `tag`.
        init(_ tag: SimulatedTag) {
            switch tag {
            case .type2: self = .type2
            case .type4: self = .type4
            case .classic: self = .classic
            }
        }

        /// The extension of the files of a supply's tags: `nfc`, `t4t` or `mfd`.
        var supplyExtension: String {
            switch self {
            case .type2: "nfc"
            case .type4: SimulatedTagFile.type4Extension
            case .classic: "mfd"
            }
        }
    }

    /// A new file at `path` holding a tag of kind `holding`: a Type 4 tag's state text; a Type 2
    /// tag's dump in the format the extension names; a MIFARE Classic card's image as hex text
    /// for `.txt` and `.hex`, raw (libnfc's `.mfd`) otherwise.
    init(path: String, holding: Holding) {
        self.path = path
        switch holding {
        case .type2: self.format = .dump(Self.format(forPath: path))
        case .type4: self.format = .type4StateText
        case .classic: self.format = .dump(["txt", "hex"].contains(Self.pathExtension(path)) ? .hexText : .raw)
        }
    }

    private init(path: String, format: Format) {
        self.path = path
        self.format = format
    }

    /// The extension of `path`, lower-cased; empty without one.
    static func pathExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }

    /// The dump format a new Type 2 file at `path` is written in.
    static func format(forPath path: String) -> TagDumpFormat {
        switch pathExtension(path) {
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
    ///   cannot be read; ``NFCSession/NFCReaderError/Code/invalidTagFile`` when its content
    ///   is neither a dump of a Type 2 tag the simulator knows nor a Type 4 tag's state text
    ///   (the reason names the file).
    static func load(path: String) throws(NFCReaderError) -> (tag: SimulatedTag, file: SimulatedTagFile)? {
        guard let bytes = try readBytes(path: path) else { return nil }
        if SimulatedType4Tag.looksLikeStateText(bytes) {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw NFCReaderError(.invalidTagFile, "the tag file \(path) cannot be used: it is not UTF-8 text")
            }
            do {
                let tag = try SimulatedType4Tag(stateText: text)
                return (.type4(tag), SimulatedTagFile(path: path, format: .type4StateText))
            } catch {
                throw NFCReaderError(.invalidTagFile, "the tag file \(path) cannot be used: \(error)")
            }
        }
        guard bytes.count <= TagDump.maximumFileSize else {
            throw NFCReaderError(
                .invalidTagFile,
                "the tag file \(path) is larger than the \(TagDump.maximumFileSize) bytes any dump format needs")
        }
        do {
            let format = try TagDump.detect(bytes, fileName: path)
            let dump = try TagDump(decoding: bytes, format: format)
            let file = SimulatedTagFile(path: path, format: .dump(format))
            if dump.layout == .mifareClassic { return (.classic(try SimulatedClassicTag(dump: dump)), file) }
            return (.type2(try SimulatedType2Tag(dump: dump)), file)
        } catch {
            throw NFCReaderError(.invalidTagFile, "the tag file \(path) cannot be used: \(error)")
        }
    }

    /// Writes `snapshot` over the file, crash-safe.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when it cannot be written
    ///   (or the snapshot is of a tag kind the file's format cannot hold).
    func save(_ snapshot: SimulatedTagSnapshot) throws(NFCReaderError) {
        let bytes: [UInt8]
        switch (format, snapshot) {
        case (.dump(let format), .type2(let dump)), (.dump(let format), .classic(let dump)):
            do {
                bytes = try dump.encoded(as: format)
            } catch {
                throw NFCReaderError(.readerUnavailable, "the simulated tag cannot be saved as a \(format): \(error)")
            }
        case (.type4StateText, .type4(let tag)):
            bytes = Array(tag.stateText.utf8)
        default:
            throw NFCReaderError(.readerUnavailable, "the simulated tag is not of the kind the file \(path) holds")
        }
        // A symbolic link is written through: its target is replaced, the link stays.
        let target = try Self.resolvingLink(path)
        let directory = target.lastIndex(of: "/").map { String(target[...$0]) } ?? ""
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let temporary = "\(directory).\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        do throws(NFCReaderError) {
            try Self.create(temporary, with: bytes, modeLike: target, synced: syncsToDisk)
            guard rename(temporary, target) == 0 else { throw Self.systemError("rename to \(target)") }
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// `path`, or the file it names when it is a symbolic link, followed link by link (a link to
    /// a file that does not exist yet names the file to create).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` for a chain of more than 40
    ///   links (a loop) or a link that cannot be read.
    static func resolvingLink(_ path: String) throws(NFCReaderError) -> String {
        var current = path
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { throw systemError("read the symbolic link \(current)") }
            let target = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else {
                current = (current.lastIndex(of: "/").map { String(current[...$0]) } ?? "") + target
            }
        }
        throw NFCReaderError(.readerUnavailable, "the tag file \(path) is a loop of symbolic links")
    }

    /// The whole file, nil when it does not exist; refuses files over ``maximumFileSize`` and
    /// anything but a regular file (a FIFO or a device would never end, or block the open).
    private static func readBytes(path: String) throws(NFCReaderError) -> [UInt8]? {
        // O_NONBLOCK: opening a FIFO no one writes to returns at once; reads below are of a
        // regular file, which never blocks.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw systemError("open \(path)")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemError("stat \(path)") }
        if status.st_mode & S_IFMT == S_IFDIR {
            throw NFCReaderError(.readerUnavailable, "the tag file \(path) is a folder")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw NFCReaderError(
                .invalidTagFile, "the tag file \(path) is not a regular file (a FIFO or a device): refused")
        }
        let limit = maximumFileSize
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= limit {
            let count: Int
            switch chunk.withUnsafeMutableBytes({ SystemCall.read(descriptor, into: $0) }) {
            case .success(let read): count = read
            case .failure(let error): throw systemError("read \(path)", error)
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk.prefix(count))
        }
        throw NFCReaderError(
            .invalidTagFile, "the tag file \(path) is larger than the \(limit) bytes any tag file needs")
    }

    /// Creates `path` (which must not exist) with `bytes`, the permissions of `model` if it
    /// exists (else 0644 less the umask), and flushes it to disk when `synced`.
    private static func create(
        _ path: String, with bytes: [UInt8], modeLike model: String, synced: Bool
    ) throws(NFCReaderError) {
        var status = stat()
        let hasModel = stat(model, &status) == 0
        let mode: mode_t = hasModel ? status.st_mode & 0o7777 : 0o644
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw systemError("create \(path)") }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                SystemCall.write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[written...]))
            }
            switch result {
            case .success(let count): written += count
            case .failure(let error):
                close(descriptor)
                throw systemError("write \(path)", error)
            }
        }
        if hasModel { fchmod(descriptor, mode) }
        guard !synced || fsync(descriptor) == 0 else {
            let error = systemError("fsync \(path)")
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw systemError("close \(path)") }
    }

    /// The error for a failed system call, with the C library's message for `errno`.
    private static func systemError(_ action: String, _ error: Errno = .current) -> NFCReaderError {
        NFCReaderError(.readerUnavailable, "cannot \(action): \(error)")
    }
}
