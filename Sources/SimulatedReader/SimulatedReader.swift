import NFCSession
import Synchronization
import TagMemory
import TagSimulator

/// A reader backend over a ``TagSimulator/SimulatedField`` of simulated tags: the
/// ``NFCSession/NFCReaderDevice`` the session layer's tests and `sim:` URLs use.
///
/// Polling lists every tag in the field (WUPA, then the anticollision loop of
/// ``TagSimulator/SimulatedField/poll(_:)``); ``select(_:)`` activates one by UID; frames go to
/// it through ``transceive(_:)``, with the armed faults applied: a command that gets no answer
/// (the tag left, or a NAK put it back to IDLE) throws ``NFCSession/NFCReaderError/Code/tagConnectionLost``,
/// a corrupted answer ``NFCSession/NFCReaderError/Code/tagResponseError`` (as a CRC error
/// would), and ``TagSimulator/SimulatedField/Faults/latencyMilliseconds`` is slept before each
/// command. The field can be read and changed at any time with ``withField(_:)``.
///
/// A reader opened with a file (``init(url:)`` with `file=PATH`) keeps its first tag there:
/// loaded when the reader opens (a factory tag of the URL's chip when the file does not exist
/// yet), and saved whenever a command changed the tag's stored state (memory, counters, the
/// failed PWD_AUTH count), so a process that dies mid-operation leaves the file as the tag
/// would be. Changes made through ``withField(_:)`` are saved at the next command,
/// ``releaseTargets()``, ``close()`` or ``flush()``. Each save replaces the file atomically.
public final class SimulatedReader: NFCReaderDevice {
    /// What a simulated reader reports: frames up to 252 bytes (enough for a FAST_READ of 63
    /// pages), raw commands, FAST_READ and ISO-DEP pass through, several tags are told apart.
    public static let defaultCapabilities = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: true,
        detectsMultipleTargets: true)

    /// The reader's state, behind ``state``'s lock.
    struct State: Sendable {
        var field: SimulatedField
        var isClosed = false
        /// The UID of the tag kept in the file.
        var persistedUID: [UInt8]?
        /// The state last handed to the file (nil: unknown, save at the next chance).
        var savedDump: TagDump?
        /// The number of the last save requested.
        var saveGeneration = 0
    }

    public let name: String
    public let capabilities: NFCReaderCapabilities
    private let state: Mutex<State>
    private let store: SimulatedTagStore?
    /// The path of the file the tag is kept in, if any.
    public let filePath: String?

    /// A reader over `field`, keeping nothing on disk.
    public init(name: String = "sim", field: SimulatedField, capabilities: NFCReaderCapabilities = defaultCapabilities)
    {
        self.name = name
        self.capabilities = capabilities
        self.state = Mutex(State(field: field))
        self.store = nil
        self.filePath = nil
    }

    /// A reader over one tag, keeping nothing on disk.
    public convenience init(name: String = "sim", tag: SimulatedTag) {
        self.init(name: name, field: SimulatedField(tag))
    }

    private init(name: String, field: SimulatedField, store: SimulatedTagStore, persistedUID: [UInt8]) {
        self.name = name
        self.capabilities = Self.defaultCapabilities
        let baseline = field.tag(uid: persistedUID)?.type2Tag?.dump
        self.state = Mutex(State(field: field, persistedUID: persistedUID, savedDump: baseline))
        self.store = store
        self.filePath = store.file.path
    }

    /// Opens the reader a `sim:` URL names (see ``SimulatedReaderURL``).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a bad URL, a tag file
    ///   that is not a dump of a known Type 2 chip, or one whose chip or UID differs from the
    ///   URL's; ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be read.
    public convenience init(url: String) async throws(NFCReaderError) {
        try await self.init(url: try SimulatedReaderURL(parsing: url), name: url)
    }

    /// Opens the reader `url` describes; `name` defaults to the URL's canonical text.
    public convenience init(url: SimulatedReaderURL, name: String? = nil) async throws(NFCReaderError) {
        let readerName = name ?? url.description
        guard let path = url.filePath else {
            var field = SimulatedField(
                .type2(SimulatedType2Tag(chip: url.chip, uid: url.uid ?? SimulatedType2Tag.defaultUID)))
            field.arm(url.faults)
            self.init(name: readerName, field: field)
            return
        }
        let tag: SimulatedType2Tag
        let store: SimulatedTagStore
        if let loaded = try await SimulatedTagStore.load(path: path) {
            guard loaded.tag.chip == url.chip else {
                throw SimulatedReaderURL.error(
                    readerName, "the tag file \(path) is a dump of \(loaded.tag.chip.name), not \(url.chip.name)")
            }
            let storedUID = SimulatedTag.type2(loaded.tag).uid
            if let uid = url.uid, uid != storedUID {
                throw SimulatedReaderURL.error(
                    readerName, "uid= differs from the UID in the tag file \(path); leave uid= out to use the file's")
            }
            tag = loaded.tag
            store = loaded.store
        } else {
            tag = SimulatedType2Tag(chip: url.chip, uid: url.uid ?? SimulatedType2Tag.defaultUID)
            store = SimulatedTagStore(file: SimulatedTagFile(path: path))
        }
        var field = SimulatedField(.type2(tag))
        field.arm(url.faults)
        self.init(name: readerName, field: field, store: store, persistedUID: SimulatedTag.type2(tag).uid)
    }

    // MARK: - The field

    /// Runs `body` with the field, under the reader's lock: read it, change tags, arm faults,
    /// put removed tags back. Changes to the stored tag are saved at the next command (or
    /// ``flush()``).
    public func withField<Result: Sendable, Failure: Error>(
        _ body: (inout SimulatedField) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try state.withLock { (state: inout State) throws(Failure) -> Result in try body(&state.field) }
    }

    /// A copy of the field as it is now.
    public var field: SimulatedField { state.withLock { $0.field } }

    /// The frames of each Type 2 command kind the tags received (``TagSimulator/SimulatedField/commandCounts``).
    public var commandCounts: [SimulatedType2Command: Int] { state.withLock { $0.field.commandCounts } }

    /// How many frames of `command` the tags received.
    public func count(of command: SimulatedType2Command) -> Int { state.withLock { $0.field.count(of: command) } }

    /// Saves the stored tag now if its state changed since the last save (a change made
    /// through ``withField(_:)``); does nothing for a reader without a file.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be written.
    public func flush() async throws(NFCReaderError) {
        guard let store else { return }
        let pending: (dump: TagDump, generation: Int)? = state.withLock { state in
            guard let uid = state.persistedUID, let dump = state.field.tag(uid: uid)?.type2Tag?.dump,
                dump != state.savedDump
            else { return nil }
            state.savedDump = dump
            state.saveGeneration += 1
            return (dump, state.saveGeneration)
        }
        guard let pending else { return }
        do {
            try await store.save(pending.dump, generation: pending.generation)
        } catch {
            state.withLock { state in
                if state.saveGeneration == pending.generation { state.savedDump = nil }
            }
            throw error
        }
    }

    // MARK: - NFCReaderDevice

    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try state.withLock { (state: inout State) throws(NFCReaderError) -> [NFCTargetInfo] in
            try Self.checkOpen(state)
            return state.field.poll(.wupa).enumerated().map { index, tag in
                NFCTargetInfo(index: index, uid: tag.uid, atqa: tag.atqa, sak: tag.sak, ats: tag.ats)
            }
        }
    }

    public func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try state.withLock { (state: inout State) throws(NFCReaderError) in
            try Self.checkOpen(state)
            guard state.field.select(uid: target.uid) else {
                throw NFCReaderError(.tagConnectionLost, "no tag with UID \(target.uidDescription) is in the field")
            }
        }
    }

    public func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try await waitLatency()
        let reply = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> SimulatedFieldReply<SimulatedType2Response> in
            try Self.checkOpen(state)
            return state.field.transceive(frame)
        }
        try await flush()
        switch reply {
        case .silent:
            throw NFCReaderError(.tagConnectionLost, "the tag did not answer: it left the field or is not selected")
        case .corrupted:
            throw NFCReaderError(.tagResponseError, "the tag's answer failed the CRC check (a transmission error)")
        case .answer(.data(let bytes)):
            guard bytes.count <= capabilities.maximumFrameSize else {
                throw NFCReaderError(
                    .tagResponseError,
                    "the answer of \(bytes.count) bytes exceeds the reader's \(capabilities.maximumFrameSize)-byte frame"
                )
            }
            return .data(bytes)
        case .answer(.ack): return .ack
        case .answer(.nak(let code)): return .nak(code)
        case .answer(.silent):
            throw NFCReaderError(.tagConnectionLost, "the tag did not answer")
        }
    }

    /// Simulated Type 4 tags are not there yet: an APDU to the selected Type 2 tag, which has
    /// no ISO-DEP layer, throws ``NFCSession/NFCReaderError/Code/tagResponseError``.
    public func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try await waitLatency()
        let selected = try state.withLock { (state: inout State) throws(NFCReaderError) -> SimulatedTag? in
            try Self.checkOpen(state)
            return state.field.selectedTag
        }
        guard let selected else {
            throw NFCReaderError(.tagConnectionLost, "no tag is selected, or the selected tag left the field")
        }
        switch selected {
        case .type2:
            throw NFCReaderError(
                .tagResponseError, "the selected tag (\(selected.summary)) is a Type 2 tag: it does not take APDUs")
        }
    }

    /// Turns the field off and on: every tag returns to IDLE. Saves a changed stored tag,
    /// ignoring a failure to write (this call cannot fail).
    public func releaseTargets() async {
        state.withLock { state in
            guard !state.isClosed else { return }
            state.field.fieldOff()
            state.field.fieldOn()
        }
        try? await flush()
    }

    /// Saves a changed stored tag (ignoring a failure to write) and closes the reader.
    public func close() async {
        try? await flush()
        state.withLock { $0.isClosed = true }
    }

    // MARK: - Helpers

    private static func checkOpen(_ state: State) throws(NFCReaderError) {
        guard !state.isClosed else { throw NFCReaderError(.readerUnavailable, "the simulated reader is closed") }
    }

    /// Sleeps for the armed latency, after checking the reader is open.
    private func waitLatency() async throws(NFCReaderError) {
        let latency = try state.withLock { (state: inout State) throws(NFCReaderError) -> Int? in
            try Self.checkOpen(state)
            return state.field.faults.latencyMilliseconds
        }
        guard let latency, latency > 0 else { return }
        do {
            try await Task.sleep(for: .milliseconds(latency))
        } catch {
            throw NFCReaderError(.cancelled, "the command was cancelled")
        }
    }
}
