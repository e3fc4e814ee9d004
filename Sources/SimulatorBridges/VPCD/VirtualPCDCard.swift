import NFCSession
import NFCWireFormat
import SimulatedReader
import Synchronization
import SystemSupport
import TagSimulator

/// A simulated tag served to pcscd as the card in a `vpcd` virtual reader (vsmartcard's
/// "Virtual PCD" driver): PC/SC clients see a contactless reader with the tag in its field,
/// as ``ContactlessReaderEmulator`` describes it.
///
/// The card is a TCP client of the driver, on 127.0.0.1 only (Debian's
/// `/etc/reader.conf.d/vpcd` has readers `Virtual PCD 00 00` on port 35963 and
/// `Virtual PCD 00 01` on 35964). Being connected is being in the field: pcscd asks for the
/// ATR every 0.4 s and reports the card present while it is answered. The card runs on a
/// thread of its own (never on Swift's cooperative thread pool) from ``start()`` to
/// ``stop()``; when nothing listens on the port yet, or pcscd stops, it tries again every
/// 100 ms.
///
/// The tags are those of a ``SimulatedReader/SimulatedReader`` (its field, faults and tag
/// file): every APDU runs under the reader's lock (``SimulatedReader/SimulatedReader/withField(_:)``)
/// and a changed tag is saved to the reader's file before the response goes out. The field's
/// faults act as on a real reader:
/// - `remove-after` (``TagSimulator/SimulatedField/Faults/removeAfterCommands``): during that
///   command the tags leave; the card closes its connection without answering, so the client
///   sees the card vanish mid-command (pcscd reports `SCARD_E_NOT_TRANSACTED`, or success
///   with an empty response, then `SCARD_W_REMOVED_CARD`). The tags come back after
///   ``Configuration/reinsertAfterMilliseconds`` (or at ``insertTag()``).
/// - `second-tag`: the reader shows the tag anticollision settles on (see
///   ``ContactlessReaderEmulator``).
/// - `latency-ms`: the card waits that long before carrying out each APDU.
/// - `corrupt-every`: CRC errors as ``ContactlessReaderEmulator`` reports them.
public final class VirtualPCDCard: Sendable {
    /// How the card is served.
    public struct Configuration: Sendable, Hashable {
        /// The port of the first reader of Debian's vpcd configuration.
        public static let firstPort: UInt16 = 35963

        /// The vpcd port to connect to on 127.0.0.1.
        public var port: UInt16
        /// What the reader answers besides the storage-card APDUs.
        public var profile: ContactlessReaderProfile
        /// How long the tags stay out of the field after the removal fault fired, in
        /// milliseconds; nil: until ``VirtualPCDCard/insertTag()``.
        public var reinsertAfterMilliseconds: Int?

        /// Creates a configuration.
        public init(
            port: UInt16 = firstPort, profile: ContactlessReaderProfile = .combined,
            reinsertAfterMilliseconds: Int? = nil
        ) {
            self.port = port
            self.profile = profile
            self.reinsertAfterMilliseconds = reinsertAfterMilliseconds
        }
    }

    /// Something that happened to the card, for a log.
    public enum Event: Sendable, Hashable, CustomStringConvertible {
        /// The card connected to vpcd: pcscd sees it in the reader.
        case inserted
        /// ``VirtualPCDCard/removeTag()`` took the tag out.
        case removed
        /// The removal fault fired: the tags left during an APDU.
        case leftByFault
        /// vpcd closed the connection (pcscd stopped or restarted); the card tries again.
        case readerLost
        /// The tag file could not be written.
        case saveFailed(String)

        public var description: String {
            switch self {
            case .inserted: "the tag is in the reader's field"
            case .removed: "the tag was taken out of the field"
            case .leftByFault: "the tag left the field during a command (remove-after fault)"
            case .readerLost: "the reader went away (pcscd stopped?); connecting again"
            case .saveFailed(let reason): "the tag file could not be saved: \(reason)"
            }
        }
    }

    /// What the card is doing.
    public struct Status: Sendable, Hashable {
        /// Between ``VirtualPCDCard/start()`` and ``VirtualPCDCard/stop()``.
        public var isRunning = false
        /// Connected to vpcd: the card is in the reader.
        public var isConnected = false
        /// Whether the tag is meant to be in the field (not removed by ``VirtualPCDCard/removeTag()``
        /// or the removal fault).
        public var isInserted = true
        /// The command APDUs received.
        public var apduCount = 0
        /// The connections made to vpcd.
        public var connectionCount = 0
        /// The ACR122U LED and buzzer commands (`FF 00 40`, ACR122U API 2.04, 6.2) answered, in
        /// order, over every connection.
        public var lightCommands: [ACR122ULightCommand] = []
        /// The signals those commands show (``NFCSession/NFCReaderSignal``), in order; commands that
        /// show none of them are left out.
        public var signals: [NFCReaderSignal] { lightCommands.compactMap(\.signal) }
    }

    /// The requests to the serving thread and its status.
    struct Control: Sendable {
        var status = Status()
        var reinsertAt: ContinuousClock.Instant?
        /// Whether the card left and vpcd has not yet reported the reader empty: pcscd checks
        /// presence every 0.4 s, and vpcd stops reporting a card that comes back before one of
        /// those checks noticed it leave (the reader then shows no card for the rest of pcscd's
        /// life). Before connecting again the card makes one check fail (``VirtualPCDCard``'s
        /// serving thread), whenever pcscd gets to run it.
        var mustShowAbsence = false
    }

    /// The reader holding the field and the tag file.
    public let reader: SimulatedReader
    /// The settings.
    public let configuration: Configuration
    let onEvent: (@Sendable (Event) -> Void)?
    let control = Mutex(Control())
    /// The serving thread's start, stop and wake-up pipe.
    let lifecycle: BridgeLifecycle
    var wakeup: Wakeup { lifecycle.wakeup }

    /// A card serving `reader`'s field.
    ///
    /// - Parameters:
    ///   - reader: the simulated reader whose field and tags the card serves.
    ///   - configuration: the vpcd port, the reader profile and how long removed tags stay out.
    ///   - onEvent: called on the card's thread for each ``Event``.
    /// - Throws: ``SimulatorBridgeError/Code/invalidConfiguration`` for port 0;
    ///   ``SimulatorBridgeError/Code/systemFailure`` when the wake-up pipe cannot be made.
    public init(
        reader: SimulatedReader, configuration: Configuration = Configuration(),
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) throws(SimulatorBridgeError) {
        guard configuration.port != 0 else { throw SimulatorBridgeError(.invalidConfiguration, "port 0 is no port") }
        if let delay = configuration.reinsertAfterMilliseconds, delay < 0 {
            throw SimulatorBridgeError(.invalidConfiguration, "a reinsertion delay cannot be negative")
        }
        self.reader = reader
        self.configuration = configuration
        self.onEvent = onEvent
        self.lifecycle = try BridgeLifecycle()
    }

    /// The status now.
    public var status: Status {
        var status = control.withLock { $0.status }
        status.isRunning = lifecycle.phase.isRunning
        return status
    }

    /// Starts serving on the card's own thread.
    ///
    /// - Throws: ``SimulatorBridgeError/Code/alreadyStarted`` the second time;
    ///   ``SimulatorBridgeError/Code/systemFailure`` when no thread can be made.
    public func start() throws(SimulatorBridgeError) {
        try lifecycle.start("the card") { [self] in serve() }
    }

    /// Takes the tag out of the field: the card disconnects and stays out until ``insertTag()``.
    public func removeTag() {
        control.withLock { control in
            if control.status.isConnected { control.mustShowAbsence = true }
            control.status.isInserted = false
            control.reinsertAt = nil
        }
        wakeup.signal()
    }

    /// Puts the tag back into the field (tags the removal fault took out come back too): the
    /// card connects again.
    public func insertTag() {
        control.withLock { control in
            control.status.isInserted = true
            control.reinsertAt = nil
        }
        wakeup.signal()
    }

    /// Stops serving: the card disconnects (pcscd sees it removed), the thread ends (this
    /// waits for it, at most as long as the APDU in progress takes) and a changed tag is saved.
    /// Stopping twice does nothing more.
    /// ``stop()`` from async code: the wait for the thread happens on a dispatch thread, never
    /// on one of the cooperative pool's.
    public func shutDown() async {
        await BlockingCall.run { self.stop() }
    }

    public func stop() {
        guard lifecycle.stop() else { return }
        BridgeLifecycle.save(reader) { onEvent?(.saveFailed($0)) }
    }
}
