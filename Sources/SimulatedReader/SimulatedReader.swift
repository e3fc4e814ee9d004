import NFCSession
import Synchronization
import TagMemory
import TagSimulator

/// A reader backend over a ``TagSimulator/SimulatedField`` of simulated tags: the
/// ``NFCSession/NFCReaderDevice`` the session layer's tests and `sim:` URLs use.
///
/// Polling lists every tag in the field (WUPA, then the anticollision loop of
/// ``TagSimulator/SimulatedField/poll(_:)``), with the ATS of each Type 4 tag (SAK 20h, so its
/// ``NFCSession/NFCTargetInfo/kind`` is `.type4`); ``select(_:)`` activates one by UID. Type 2
/// frames go to a selected Type 2 tag through ``transceive(_:)``, command APDUs to a selected
/// Type 4 tag through ``sendAPDU(_:)``, with the armed faults applied (frames and APDUs count
/// alike towards `remove-after`): a command that gets no answer (the tag left, or a NAK put it
/// back to IDLE) throws ``NFCSession/NFCReaderError/Code/tagConnectionLost``, a corrupted answer
/// ``NFCSession/NFCReaderError/Code/tagResponseError`` (as a CRC error would), and
/// ``TagSimulator/SimulatedField/Faults/latencyMilliseconds`` is slept before each command. A
/// frame for a selected Type 4 tag, or an APDU for a selected Type 2 tag, is refused with
/// ``NFCSession/NFCReaderError/Code/tagResponseError`` before it reaches the field (it counts
/// towards no fault). The reader keeps to its ``capabilities``: polling lists only the first
/// tag when it does not detect several; a frame it cannot pass through (FAST_READ without
/// ``NFCSession/NFCReaderCapabilities/supportsFastRead``, anything but READ and WRITE without
/// ``NFCSession/NFCReaderCapabilities/supportsRawCommands``) and every APDU without
/// ``NFCSession/NFCReaderCapabilities/supportsISODEP`` are refused with
/// ``NFCSession/NFCReaderError/Code/unsupportedFeature`` before they reach the field. The field
/// can be read and changed at any time with ``withField(_:)``.
///
/// A reader opened with a file (``init(url:)`` with `file=PATH`) keeps its first tag there:
/// loaded when the reader opens (a factory tag of the URL's chip when the file does not exist
/// yet), and saved whenever a command changed the tag's stored state (memory, counters, the
/// failed PWD_AUTH count of a Type 2 tag; the CC and NDEF files of a Type 4 tag), so a process
/// that dies mid-operation leaves the file as the tag would be. Changes made through
/// ``withField(_:)`` are saved at the next command, ``releaseTargets()``, ``close()`` or
/// ``flush()``. Each save replaces the file atomically. A Type 2 tag is kept in a dump file, a
/// Type 4 tag in its state text (see ``SimulatedReaderURL``).
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
        var savedSnapshot: SimulatedTagSnapshot?
        /// The number of the last save requested.
        var saveGeneration = 0
        /// The tags still to present, for a reader opened with `supply=N`.
        var supply: SimulatedTagSupply?
        /// How long the operator takes between taking a tag away and putting the next in.
        var swapTime: Duration = .zero
        /// When the next tag of the supply goes in; nil: at the next poll.
        var nextArrival: ContinuousClock.Instant?
        /// The signals shown, in order (``SimulatedReader/signals``).
        var signals: [NFCReaderSignal] = []
    }

    public let name: String
    public let capabilities: NFCReaderCapabilities
    private let state: Mutex<State>
    private let store: SimulatedTagStore?
    /// The path of the file the tag is kept in, if any.
    public let filePath: String?
    /// The directory the tags of a supply are saved in, ending in `/`, if any.
    public let supplyDirectory: String?

    /// A reader over `field`, keeping nothing on disk.
    public convenience init(
        name: String = "sim", field: SimulatedField, capabilities: NFCReaderCapabilities = defaultCapabilities
    ) {
        self.init(name: name, field: field, capabilities: capabilities, supplyDirectory: nil)
    }

    /// A reader over `field`, keeping nothing on disk but, when given, the tags of a supply in
    /// `supplyDirectory`.
    init(name: String, field: SimulatedField, capabilities: NFCReaderCapabilities, supplyDirectory: String?) {
        self.name = name
        self.capabilities = capabilities
        self.state = Mutex(State(field: field))
        self.store = nil
        self.filePath = nil
        self.supplyDirectory = supplyDirectory
    }

    /// A reader over one tag, keeping nothing on disk.
    public convenience init(name: String = "sim", tag: SimulatedTag) {
        self.init(name: name, field: SimulatedField(tag))
    }

    init(name: String, field: SimulatedField, store: SimulatedTagStore, persistedUID: [UInt8]) {
        self.name = name
        self.capabilities = Self.defaultCapabilities
        let baseline = field.tag(uid: persistedUID).map(SimulatedTagSnapshot.init)
        self.state = Mutex(State(field: field, persistedUID: persistedUID, savedSnapshot: baseline))
        self.store = store
        self.filePath = store.file.path
        self.supplyDirectory = nil
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

    /// Runs `body` with the reader's whole state, under its lock.
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        state.withLock { body(&$0) }
    }

    /// A copy of the field as it is now.
    public var field: SimulatedField { state.withLock { $0.field } }

    /// The frames of each Type 2 command kind the tags received (``TagSimulator/SimulatedField/commandCounts``).
    public var commandCounts: [SimulatedType2Command: Int] { state.withLock { $0.field.commandCounts } }

    /// The APDUs of each Type 4 command kind the tags received
    /// (``TagSimulator/SimulatedField/type4CommandCounts``).
    public var type4CommandCounts: [SimulatedType4Command: Int] { state.withLock { $0.field.type4CommandCounts } }

    /// How many frames of `command` the tags received.
    public func count(of command: SimulatedType2Command) -> Int { state.withLock { $0.field.count(of: command) } }

    /// How many APDUs of `command` the tags received.
    public func count(of command: SimulatedType4Command) -> Int { state.withLock { $0.field.count(of: command) } }

    /// Saves the stored tag now if its state changed since the last save (a change made
    /// through ``withField(_:)``); does nothing for a reader without a file.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be written.
    public func flush() async throws(NFCReaderError) {
        guard let store, let pending = pendingSave() else { return }
        do {
            try await store.save(pending.snapshot, generation: pending.generation)
        } catch {
            forgetSave(pending.generation)
            throw error
        }
    }

    /// Saves the stored tag now, as ``flush()`` does, blocking the calling thread until the
    /// file is written: for readers driven from a thread of their own (a bridge serving the
    /// tag to another process). Never call it from the cooperative thread pool.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be written.
    public func flushBlocking() throws(NFCReaderError) {
        guard let store, let pending = pendingSave() else { return }
        do {
            try store.saveBlocking(pending.snapshot, generation: pending.generation)
        } catch {
            forgetSave(pending.generation)
            throw error
        }
    }

    /// The snapshot to save and its generation, when the stored tag changed since the last save.
    private func pendingSave() -> (snapshot: SimulatedTagSnapshot, generation: Int)? {
        state.withLock { state in
            guard let uid = state.persistedUID, let tag = state.field.tag(uid: uid) else { return nil }
            let snapshot = SimulatedTagSnapshot(tag)
            guard snapshot != state.savedSnapshot else { return nil }
            state.savedSnapshot = snapshot
            state.saveGeneration += 1
            return (snapshot, state.saveGeneration)
        }
    }

    /// After a failed save: the file's state is unknown, so the next chance saves again.
    private func forgetSave(_ generation: Int) {
        state.withLock { state in
            if state.saveGeneration == generation { state.savedSnapshot = nil }
        }
    }

    // MARK: - NFCReaderDevice

    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        let (targets, leaving) = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> ([NFCTargetInfo], SimulatedTag?) in
            try Self.checkOpen(state)
            let leaving = Self.operateSupply(&state)
            let targets = state.field.poll(.wupa).enumerated().map { index, tag in
                NFCTargetInfo(index: index, uid: tag.uid, atqa: tag.atqa, sak: tag.sak, ats: tag.ats)
            }
            return (capabilities.detectsMultipleTargets ? targets : Array(targets.prefix(1)), leaving)
        }
        if let leaving { try await saveSupplied(leaving) }
        return targets
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
        try checkPassesThrough(frame)
        try await waitLatency()
        let reply = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> SimulatedFieldReply<SimulatedType2Response> in
            try Self.checkOpen(state)
            if let selected = state.field.selectedTag, case .type4 = selected {
                throw NFCReaderError(
                    .tagResponseError,
                    "the selected tag (\(selected.summary)) is a Type 4 tag: it takes APDUs, not Type 2 frames")
            }
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

    /// Sends `apdu` to the selected Type 4 tag through the field
    /// (``TagSimulator/SimulatedField/transceiveAPDU(_:)``) and returns its response APDU.
    ///
    /// APDU responses are not held to ``NFCSession/NFCReaderCapabilities/maximumFrameSize``:
    /// ISO-DEP chaining carries a response of any length; the tag's MLe limits them.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no tag answers
    ///   (none is selected, the tag left the field) or the answer is shorter than SW1 SW2;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` for a corrupted answer (the
    ///   ISO-DEP block's CRC check fails; the tag carried the command out) and, before anything
    ///   is sent, when the selected tag is a Type 2 tag, which has no ISO-DEP layer;
    ///   ``NFCSession/NFCReaderError/Code/unsupportedFeature`` when the reader's capabilities
    ///   have no ISO-DEP.
    public func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        guard capabilities.supportsISODEP else {
            throw NFCReaderError(.unsupportedFeature, "the reader \(name) exchanges no ISO-DEP APDUs")
        }
        try await waitLatency()
        let reply = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> SimulatedFieldReply<[UInt8]> in
            try Self.checkOpen(state)
            if let selected = state.field.selectedTag, case .type2 = selected {
                throw NFCReaderError(
                    .tagResponseError,
                    "the selected tag (\(selected.summary)) is a Type 2 tag: it takes Type 2 frames, not APDUs")
            }
            return state.field.transceiveAPDU(apdu)
        }
        try await flush()
        switch reply {
        case .silent:
            throw NFCReaderError(.tagConnectionLost, "the tag did not answer: it left the field or is not selected")
        case .corrupted:
            throw NFCReaderError(.tagResponseError, "the tag's response failed the CRC check (a transmission error)")
        case .answer(let bytes):
            guard bytes.count >= 2 else {
                throw NFCReaderError(.tagConnectionLost, "the response is shorter than its two status bytes")
            }
            return bytes
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
        if let current = state.withLock({ state in state.supply?.currentUID.flatMap { state.field.tag(uid: $0) } }) {
            try? await saveSupplied(current)
        }
        state.withLock { $0.isClosed = true }
    }

    // MARK: - Helpers

    /// Refuses a frame the reader's capabilities do not pass through: FAST_READ without
    /// FAST_READ, anything but READ (30h) and WRITE (A2h) without raw commands.
    private func checkPassesThrough(_ frame: [UInt8]) throws(NFCReaderError) {
        let kind = SimulatedType2Command(frame: frame)
        if kind == .fastRead, !capabilities.supportsFastRead {
            throw NFCReaderError(.unsupportedFeature, "the reader \(name) does not pass FAST_READ through")
        }
        if kind != .read, kind != .write, !capabilities.supportsRawCommands {
            throw NFCReaderError(
                .unsupportedFeature, "the reader \(name) passes only READ and WRITE through, not \(kind)")
        }
    }

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
