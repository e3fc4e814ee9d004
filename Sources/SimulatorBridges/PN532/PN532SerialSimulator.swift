import HexText
import NFCSession
import SimulatedReader
import Synchronization
import SystemSupport
import TagSimulator

/// A simulated NXP PN532 on its High Speed UART, reachable through a pseudo-terminal: libnfc's
/// `pn532_uart` driver (connstring ``connstring``, e.g. `LIBNFC_DEVICE=pn532_uart:/tmp/pn532`)
/// and nfcpy's `tty:` transport open the terminal's slave as they would a serial port, and
/// find the tags of a ``SimulatedReader/SimulatedReader`` in the chip's field.
///
/// The chip speaks the frames of PN532 User Manual UM0701 section 6.2 (normal and extended
/// information frames, ACK, NACK, the error frame; the wake-up preamble is skipped) and the
/// commands of section 7 that reader software sends (see `PN532SerialChip` and
/// `PN532Emulation`): Diagnose, GetFirmwareVersion, GetGeneralStatus, ReadRegister,
/// WriteRegister, SetParameters, SetSerialBaudRate, SAMConfiguration, PowerDown,
/// RFConfiguration, InListPassiveTarget and InAutoPoll (106 kbit/s Type A), InDataExchange,
/// InCommunicateThru (with ISO-DEP blocks for Type 4 tags), InDeselect, InRelease, InSelect.
/// Frames with a wrong checksum are ignored, as the chip ignores them; unknown commands get the
/// error frame.
///
/// The pseudo-terminal opens with the simulator (its slave path is ``slavePath``; with a
/// `linkPath`, a symbolic link of that name points to it) and lives until ``stop()``:
/// clients may come and go in between. The chip runs on a thread of its own (never on Swift's
/// cooperative thread pool) from ``start()`` to ``stop()``; bytes a client writes before
/// ``start()`` wait in the terminal.
///
/// Every command runs under the reader's lock (``SimulatedReader/SimulatedReader/withField(_:)``),
/// and a changed tag is saved to the reader's file before the response goes out. The field's
/// faults act as on a real reader: `latency-ms` delays each response (after the ACK);
/// `remove-after` takes the tags out during that command, which the chip answers with status
/// 01 (time-out: the target did not answer), and they stay out until ``insertTag()`` or the
/// reinsertion delay; `corrupt-every` gives CRC errors; `second-tag` puts a second tag in the
/// field (InListPassiveTarget with MaxTg 2 lists both).
///
/// libnfc marks a serial port it opens as claimed (bit 31 of the terminal's input modes) and
/// clears the mark when it closes the port; a libnfc program killed before that leaves the
/// terminal claimed, and later libnfc programs then refuse it ("Serial port already claimed")
/// until the simulator is started again on a new terminal, as with a real serial port.
public final class PN532SerialSimulator: Sendable {
    /// Something that happened to the simulated chip, for a log.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The tags are back in the field (``PN532SerialSimulator/insertTag()``, or the
        /// reinsertion delay after the removal fault).
        case inserted
        /// ``PN532SerialSimulator/removeTag()`` took the tags out of the field.
        case removed
        /// The removal fault fired: the tags left during a command.
        case leftByFault
        /// Bytes that began a frame were dropped (a wrong checksum, a frame too long or cut short).
        case frameDropped(String)
        /// The chip answered a command with the error frame (the command code, if there was one):
        /// a command this simulation does not carry out, or wrong parameters.
        case commandRefused(UInt8?)
        /// The tag file could not be written.
        case saveFailed(String)

        public var description: String {
            switch self {
            case .inserted: "the tags are in the PN532's field"
            case .removed: "the tags were taken out of the field"
            case .leftByFault: "the tags left the field during a command (remove-after fault)"
            case .frameDropped(let reason): reason
            case .commandRefused(let code?):
                "the PN532 answered command \(Hex.byte(code)) with the error frame (not simulated)"
            case .commandRefused(nil): "the PN532 answered a frame that is no command with the error frame"
            case .saveFailed(let reason): "the tag file could not be saved: \(reason)"
            }
        }
    }

    /// What the simulated chip has done.
    public struct Status: Sendable, Hashable {
        /// Between ``PN532SerialSimulator/start()`` and ``PN532SerialSimulator/stop()``.
        public var isRunning = false
        /// Whether the tags are meant to be in the field (not taken out by
        /// ``PN532SerialSimulator/removeTag()`` or the removal fault).
        public var isInserted = true
        /// Whether the chip sleeps after a PowerDown command (until the host's next bytes).
        public var isPoweredDown = false
        /// The frames received with correct checksums: information frames, ACKs, NACKs.
        public var frameCount = 0
        /// The frames dropped (wrong checksum, too long, cut short).
        public var droppedFrameCount = 0
        /// The NACKs received (each sent the last response again).
        public var nackCount = 0
        /// The commands carried out or refused, by command code (UM0701 table 16: 4A
        /// InListPassiveTarget, 40 InDataExchange, 42 InCommunicateThru, ...).
        public var commandCounts: [UInt8: Int] = [:]
        /// The frames answered with the error frame.
        public var refusedCount = 0

        /// How many commands with `code` arrived.
        public func count(of code: UInt8) -> Int { commandCounts[code] ?? 0 }
    }

    /// The requests to the serving thread and its status.
    struct Control: Sendable {
        var status = Status()
        /// When tags the removal fault took out come back by themselves.
        var reinsertAt: ContinuousClock.Instant?
        /// The tags ``removeTag()`` took out of the field.
        var outside: [SimulatedTag] = []
    }

    /// The reader holding the field and the tag file.
    public let reader: SimulatedReader
    /// How long tags the removal fault took out stay out, in milliseconds; nil: until
    /// ``insertTag()``.
    public let reinsertAfterMilliseconds: Int?
    /// How long the rest of a frame may take once its start arrived, in milliseconds, before
    /// the frame is dropped as cut short.
    public let partialFrameMilliseconds: Int
    let terminal: PseudoTerminal
    let onEvent: (@Sendable (Event) -> Void)?
    let control = Mutex(Control())
    /// The serving thread's start, stop and wake-up pipe.
    let lifecycle: BridgeLifecycle
    var wakeup: Wakeup { lifecycle.wakeup }

    /// A PN532 serving `reader`'s field on a new pseudo-terminal.
    ///
    /// - Parameters:
    ///   - reader: the simulated reader whose field and tags the PN532 serves.
    ///   - linkPath: a symbolic link to make to the terminal's slave (a stale link there is
    ///     replaced; any other file is left alone and refused).
    ///   - reinsertAfterMilliseconds: how long tags the removal fault took out stay out (nil:
    ///     until ``insertTag()``).
    ///   - partialFrameMilliseconds: how long the rest of a frame may take once its start
    ///     arrived before the frame is dropped as cut short (its client died half-way), 1 or more.
    ///   - events: called for each ``Event``, on the simulator's thread (or on the thread
    ///     calling ``removeTag()`` or ``insertTag()``).
    /// - Throws: ``SimulatorBridgeError/Code/invalidConfiguration`` when `linkPath` names a file
    ///   that is not a symbolic link or the delay is negative;
    ///   ``SimulatorBridgeError/Code/systemFailure`` when the terminal, the link or the wake-up
    ///   pipe cannot be made.
    public init(
        reader: SimulatedReader, linkPath: String? = nil, reinsertAfterMilliseconds: Int? = nil,
        partialFrameMilliseconds: Int = PN532SerialSimulator.defaultPartialFrameMilliseconds,
        events: (@Sendable (Event) -> Void)? = nil
    ) throws(SimulatorBridgeError) {
        if let delay = reinsertAfterMilliseconds, delay < 0 {
            throw SimulatorBridgeError(.invalidConfiguration, "a reinsertion delay cannot be negative")
        }
        guard partialFrameMilliseconds > 0 else {
            throw SimulatorBridgeError(.invalidConfiguration, "the wait for the rest of a frame must be 1 ms or more")
        }
        self.reader = reader
        self.reinsertAfterMilliseconds = reinsertAfterMilliseconds
        self.partialFrameMilliseconds = partialFrameMilliseconds
        self.onEvent = events
        self.lifecycle = try BridgeLifecycle()
        self.terminal = try PseudoTerminal(linkPath: linkPath)
    }

    /// The pseudo-terminal's slave, `/dev/pts/N`.
    public var slavePath: String { terminal.slavePath }

    /// The symbolic link to the slave, if one was asked for.
    public var linkPath: String? { terminal.linkPath }

    /// The libnfc connstring of this device: `pn532_uart:` and the link (or the slave's path).
    public var connstring: String { "pn532_uart:" + (terminal.linkPath ?? terminal.slavePath) }

    /// The status now.
    public var status: Status {
        var status = control.withLock { $0.status }
        status.isRunning = lifecycle.phase.isRunning
        return status
    }

    /// Starts the chip on its own thread.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/alreadyStarted`` the second time (a simulator
    ///   starts once); ``SimulatorBridgeError/Code/systemFailure`` when no thread can be made.
    public func start() throws(SimulatorBridgeError) {
        try lifecycle.start("the PN532") { [self] in serve() }
    }

    /// Stops the chip: the thread ends (this waits for it, at most as long as the command in
    /// progress takes), the terminal closes (a client's next read or write fails), the link is
    /// removed, tags taken out by ``removeTag()`` go back into the reader's field and a changed
    /// tag is saved. Stopping twice does nothing more.
    /// ``stop()`` from async code: the wait for the thread happens on a dispatch thread, never
    /// on one of the cooperative pool's.
    public func shutDown() async {
        await BlockingCall.run { self.stop() }
    }

    public func stop() {
        guard lifecycle.stop() else { return }
        terminal.close()
        let outside = control.withLock { control -> [SimulatedTag] in
            defer { control.outside = [] }
            return control.outside
        }
        reader.withField { field in
            for tag in outside { field.insert(tag) }
        }
        save()
    }

    /// Takes the tags out of the field: InListPassiveTarget finds none and commands to a
    /// listed target time out, until ``insertTag()``.
    public func removeTag() {
        let taken = reader.withField { field -> [SimulatedTag] in
            field.tags.map(\.uid).compactMap { field.remove(uid: $0) }
        }
        control.withLock { control in
            control.outside += taken
            control.status.isInserted = false
            control.reinsertAt = nil
        }
        onEvent?(.removed)
    }

    /// Puts the tags back into the field, in IDLE (those the removal fault took out too).
    public func insertTag() {
        putBack()
        onEvent?(.inserted)
    }

    /// The tags taken out (by ``removeTag()`` or the removal fault) return to the field.
    func putBack() {
        let outside = control.withLock { control -> [SimulatedTag] in
            defer {
                control.outside = []
                control.status.isInserted = true
                control.reinsertAt = nil
            }
            return control.outside
        }
        reader.withField { field in
            field.putBack()
            for tag in outside { field.insert(tag) }
        }
    }

    /// Saves a changed tag to the reader's file.
    func save() {
        BridgeLifecycle.save(reader) { onEvent?(.saveFailed($0)) }
    }
}
