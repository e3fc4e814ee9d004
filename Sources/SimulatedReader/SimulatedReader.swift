import NFCSession
import NFCWireFormat
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
/// Type 4 tag in its state text (see ``SimulatedReaderURL``). A reader fed by a supply of tags
/// with a directory (`supply=N&file=DIR/`) keeps each tag the same way in `DIR/UID.nfc` (or
/// `.t4t`) while it is in the field, and loads the tags that have a file there when it opens.
///
/// The reader can be pulled out and plugged back (``unplug(afterCommands:for:)``, `unplug-after`
/// in a URL): while it is away every call throws ``NFCSession/NFCReaderError/Code/readerUnavailable``
/// until ``reconnect()`` finds it back.
public final class SimulatedReader: NFCReaderDevice {
    /// What a simulated reader reports: frames up to 252 bytes (enough for a FAST_READ of 63
    /// pages), raw commands, FAST_READ and ISO-DEP pass through, several tags are told apart.
    public static let defaultCapabilities = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: true,
        detectsMultipleTargets: true)

    public let name: String
    public let capabilities: NFCReaderCapabilities
    private let state: Mutex<State>
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
        self.state = Mutex(State(field: field, persistedUID: persistedUID, store: store, savedSnapshot: baseline))
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
    func withState<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        try state.withLock { (state: inout State) throws(Failure) -> Result in try body(&state) }
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
        guard let pending = state.withLock({ $0.pendingSave() }) else { return }
        try await write(pending)
    }

    /// Saves the stored tag now, as ``flush()`` does, blocking the calling thread until the
    /// file is written: for readers driven from a thread of their own (a bridge serving the
    /// tag to another process). Never call it from the cooperative thread pool.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the file cannot be written.
    public func flushBlocking() throws(NFCReaderError) {
        guard let pending = state.withLock({ $0.pendingSave() }) else { return }
        do {
            try pending.store.saveBlocking(pending.snapshot, generation: pending.generation)
        } catch {
            state.withLock { $0.forgetSave(pending.generation) }
            throw error
        }
    }

    /// Writes `pending`; after a failure the next chance saves again.
    func write(_ pending: PendingSave) async throws(NFCReaderError) {
        do {
            try await pending.write()
        } catch {
            state.withLock { $0.forgetSave(pending.generation) }
            throw error
        }
    }

    // MARK: - NFCReaderDevice

    /// Lists the tags in the field. With a supply, the operator acts first (see
    /// ``TagSimulator/SimulatedTagSupply``), even while the reader is unplugged: the operator
    /// watches the job, not the reader.
    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        // A tag file another reader holds: no tag in this field until it lets go.
        if state.withLock({ !$0.isClosed }), !(try await takeTagFile()) { return [] }
        let (targets, leaving) = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> ([NFCTargetInfo]?, PendingSave?) in
            if state.isClosed { try Self.checkOpen(state) }
            let leaving = Self.operateSupply(&state, directory: supplyDirectory)
            guard !state.unplugging.isAway else { return (nil, leaving) }
            let targets = state.field.poll(.wupa).enumerated().map { index, tag in
                NFCTargetInfo(index: index, uid: tag.uid, atqa: tag.atqa, sak: tag.sak, ats: tag.ats)
            }
            return (capabilities.detectsMultipleTargets ? targets : Array(targets.prefix(1)), leaving)
        }
        if let leaving { try await write(leaving) }
        guard let targets else { throw withState { Unplugging.error($0.unplugging) } }
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
        let (reply, _) = try await exchange(frame, classic: false)
        return try response(to: reply)
    }

    /// Sends one MIFARE Classic command frame to the selected Classic card through the field
    /// (``TagSimulator/SimulatedClassicTag``), as a PN532 or a PC/SC reader passes it on.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/authenticationFailed`` when the card, still
    ///   in the field, does not answer an authentication (a wrong key or UID);
    ///   ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no card answers otherwise;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` when the selected tag is not a
    ///   MIFARE Classic card, or for a corrupted answer.
    public func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        let (reply, cardPresent) = try await exchange(frame, classic: true)
        let isAuthentication = frame.first.flatMap(MifareClassicCommand.init(opcode:))?.isAuthentication == true
        if case .silent = reply, isAuthentication, cardPresent {
            throw NFCReaderError(
                .authenticationFailed,
                "the card refused the authentication of block \(frame.count > 1 ? Int(frame[1]) : 0): wrong key")
        }
        return try response(to: reply)
    }

    /// HLTA, then the Gen1a backdoor frames (``TagSimulator/SimulatedField/receiveBackdoorFrame(_:bits:)``):
    /// whether the card acknowledged both. The card is halted afterwards.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no card is selected.
    public func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool {
        try await waitLatency()
        return try state.withLock { (state: inout State) throws(NFCReaderError) -> Bool in
            try Self.checkOpen(state)
            guard state.field.haltSelected() else {
                throw NFCReaderError(.tagConnectionLost, "no card is selected on \(name): poll and select first")
            }
            return state.field.receiveBackdoorFrame(0x40, bits: 7) && state.field.receiveBackdoorFrame(0x43, bits: 8)
        }
    }

    /// Sends `frame` to the selected tag, which must be a MIFARE Classic card when `classic`
    /// and must not be one otherwise: the reply, and whether the selected tag is still in the
    /// field afterwards.
    private func exchange(
        _ frame: [UInt8], classic: Bool
    ) async throws(NFCReaderError) -> (SimulatedFieldReply<SimulatedType2Response>, Bool) {
        try await waitLatency()
        let (reply, present, signal) = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> (
                SimulatedFieldReply<SimulatedType2Response>, Bool, SimulatedReaderURL.ProcessSignal.Name?
            ) in
            try Self.checkOpen(state)
            if let selected = state.field.selectedTag {
                switch (selected, classic) {
                case (.type4, _):
                    throw NFCReaderError(
                        .tagResponseError,
                        "the selected tag (\(selected.summary)) is a Type 4 tag: it takes APDUs, not "
                            + (classic ? "MIFARE Classic commands" : "Type 2 frames"))
                case (.classic, false):
                    throw NFCReaderError(
                        .tagResponseError,
                        "the selected tag (\(selected.summary)) is a MIFARE Classic card: it takes MIFARE Classic "
                            + "commands, not Type 2 frames")
                case (.type2, true):
                    throw NFCReaderError(
                        .tagResponseError,
                        "the selected tag (\(selected.summary)) is a Type 2 tag, not a MIFARE Classic card")
                default: break
                }
            }
            let reply = state.field.transceive(frame)
            Self.noteCommand(&state)
            return (reply, state.field.selectedTag != nil, Self.countTowardSignal(&state))
        }
        try await flush()
        Self.send(signal)
        return (reply, present)
    }

    /// The answer a client receives for `reply`.
    private func response(to reply: SimulatedFieldReply<SimulatedType2Response>) throws(NFCReaderError)
        -> NFCRawResponse
    {
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
        let (reply, signal) = try state.withLock {
            (state: inout State) throws(NFCReaderError) -> (
                SimulatedFieldReply<[UInt8]>, SimulatedReaderURL.ProcessSignal.Name?
            ) in
            try Self.checkOpen(state)
            if let selected = state.field.selectedTag, case .type2 = selected {
                throw NFCReaderError(
                    .tagResponseError,
                    "the selected tag (\(selected.summary)) is a Type 2 tag: it takes Type 2 frames, not APDUs")
            }
            let reply = state.field.transceiveAPDU(apdu)
            Self.noteCommand(&state)
            return (reply, Self.countTowardSignal(&state))
        }
        try await flush()
        Self.send(signal)
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
    /// ignoring a failure to write (this call cannot fail). Does nothing to the field of a
    /// closed or unplugged reader.
    public func releaseTargets() async {
        state.withLock { state in
            guard !state.isClosed, !state.unplugging.isAway else { return }
            state.field.fieldOff()
            state.field.fieldOn()
        }
        try? await flush()
    }

    /// Saves a changed stored tag (ignoring a failure to write) and closes the reader; a supply's
    /// tag in the field is saved whether it changed or not. ``reconnect()`` opens it again.
    public func close() async {
        try? await flush()
        if let pending = state.withLock({ Self.saveOfSuppliedTag(&$0, directory: supplyDirectory) }) {
            try? await write(pending)
        }
        let lock = state.withLock { state in
            state.isClosed = true
            defer { state.fileLock = nil }
            return state.fileLock
        }
        // The tag leaves this field: another reader may take it.
        if let lock { await SimulatedTagStore.release(lock) }
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

    /// Throws ``NFCSession/NFCReaderError/Code/readerUnavailable`` while the reader is unplugged
    /// or closed.
    private static func checkOpen(_ state: State) throws(NFCReaderError) {
        if state.unplugging.isAway { throw Unplugging.error(state.unplugging) }
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
            try await DispatchTimerClock().sleep(for: .milliseconds(latency))
        } catch {
            throw NFCReaderError(.cancelled, "the command was cancelled")
        }
    }
}
