import HexText
import NFCSession
import NFCWireFormat
import Synchronization
import SystemSupport

/// A contactless reader served by pcscd, as the session layer's ``NFCSession/NFCReaderDevice``.
///
/// Polling asks pcscd whether a card is in the reader (`SCardGetStatusChange`); when one is, it
/// connects (`SCardConnect`, shared unless ``exclusive``, T=0 or T=1), reads the ATR
/// (`SCardStatus`) and the UID (GET DATA `FF CA 00 00 00`) and, for an ISO/IEC 14443-4 card, the
/// ATS historical bytes (GET DATA `FF CA 01 00 00`, or the ATR's). PC/SC passes neither ATQA nor
/// SAK: the target's SAK is derived from the ATR (``PCSCAnswerToReset/derivedSAK``), its ATQA is
/// empty, and its ``NFCSession/NFCTargetInfo/atr`` holds the ATR. A PC/SC reader shows one card
/// per slot, so polling lists at most one target and ``NFCSession/NFCReaderCapabilities/detectsMultipleTargets``
/// is false: two tags in the field are not detected (the reader activates one of them).
///
/// Selecting the polled tag again after frames were sent resets it (`SCardReconnect` with
/// `SCARD_RESET_CARD`): the reader activates it anew, which is how a tag left in IDLE by a NAK
/// is woken; the UID is then compared with the target's, so a swapped tag is never written to.
/// Type 2 frames travel as the ``profile`` says; APDUs pass through unchanged (extended length
/// where the reader supports it). Every PC/SC call runs on the device's own serial dispatch
/// queue, never on the cooperative pool. PC/SC failures become ``NFCSession/NFCReaderError``
/// through ``PCSCError/readerError``: a removed tag (`SCARD_W_REMOVED_CARD`,
/// `SCARD_E_NOT_TRANSACTED`) is tag-connection-lost, a stopped pcscd reader-unavailable with
/// the command that starts it.
public actor PCSCReaderDevice: NFCReaderDevice {
    /// The PC/SC reader name.
    public nonisolated let name: String
    /// How Type 2 frames reach the tag.
    public nonisolated let profile: PCSCReaderProfile
    /// Whether the connection is exclusive (`SCARD_SHARE_EXCLUSIVE`): no other program reaches
    /// the tag while it lasts.
    public nonisolated let exclusive: Bool

    /// Which APDU lengths pass to ISO-DEP tags: forced, or asked of the driver on the first
    /// connection (``PCSCAPDULength/automatic``).
    public nonisolated let apduLength: PCSCAPDULength

    /// The profile's capabilities (``PCSCReaderProfile/capabilities``) with the APDU data size
    /// of ``apduLength`` (known after the first connection when automatic).
    public nonisolated var capabilities: NFCReaderCapabilities {
        var capabilities = profile.capabilities
        capabilities.maximumAPDUDataSize = maximumAPDUDataSize.withLock { $0 }
        return capabilities
    }

    /// The largest APDU data field: 256 until the driver said otherwise.
    private nonisolated let maximumAPDUDataSize: Mutex<Int>
    /// Whether the driver was asked for its APDU data size.
    private var askedDriver = false

    private nonisolated let executor: SerialQueueExecutor

    /// The device's own serial executor: a dispatch queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var context: PCSCContext?
    var connection: PCSCConnection?
    var isClosed = false

    /// A device for the reader `readerName`, with `profile` (nil: chosen from the name by
    /// ``PCSCReaderProfile/detect(readerName:)``) and `apduLength`. Nothing is asked of pcscd
    /// until the first call.
    public init(
        readerName: String, profile: PCSCReaderProfile? = nil, exclusive: Bool = false,
        apduLength: PCSCAPDULength = .automatic
    ) {
        self.name = readerName
        self.profile = profile ?? PCSCReaderProfile.detect(readerName: readerName)
        self.exclusive = exclusive
        self.apduLength = apduLength
        self.maximumAPDUDataSize = Mutex(apduLength.maximumDataSize(reported: nil))
        self.executor = SerialQueueExecutor(label: "ndeftool.pcsc.reader")
    }

    isolated deinit {
        connection?.card.disconnectUnpowering()
    }

    // MARK: - NFCReaderDevice

    /// The tag on the reader, if any (at most one).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when pcscd is not running,
    ///   the reader is gone, or another program holds it exclusively.
    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try checkOpen()
        let state = try readerState()
        guard state.eventState & PCSCReaderState.present != 0, state.eventState & PCSCReaderState.mute == 0 else {
            dropConnection()
            return []
        }
        if let connection, connection.eventCount == state.eventCount, (try? connection.card.status()) != nil {
            return [connection.target]
        }
        dropConnection()
        guard let target = try connectTarget(eventCount: state.eventCount) else { return [] }
        return [target]
    }

    /// Makes `target` the tag frames and APDUs go to: connects when needed, and resets the tag
    /// when anything was sent to it since it was activated.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no tag, or a tag with
    ///   another UID, is on the reader.
    public func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try checkOpen()
        guard let current = connection else {
            guard let found = try connectTarget(eventCount: try readerState().eventCount) else {
                throw NFCReaderError(.tagConnectionLost, "no tag is on the reader \"\(name)\"")
            }
            try checkSameTag(found.uid, target)
            return
        }
        if current.isFresh {
            try checkSameTag(current.target.uid, target)
            return
        }
        do {
            try current.card.reset()
        } catch {
            throw fail(error)
        }
        connection?.crcMode = nil
        connection?.savedRxMode = nil
        connection?.transparentSession = .closed
        let uid = try Part3Storage.getDataValue(try transmitToReader(current.card, StorageCardAPDU.getUID)) ?? []
        try checkSameTag(uid, target)
        connection?.isFresh = true
    }

    /// Ends the transparent session or restores the PN532 register the profile changed, then
    /// disconnects powering the card down, so the tag returns to its power-on state.
    public func releaseTargets() async {
        guard let current = connection else { return }
        connection = nil
        if current.transparentSession == .open { _ = try? current.card.transmit(TransparentExchange.endSession) }
        if let saved = current.savedRxMode {
            _ = try? current.card.transmit(
                ACR122UPseudoAPDU.writeRegister(ACR122UDirectTransmit.rxModeRegister, saved))
        }
        current.card.disconnectUnpowering()
    }

    /// Releases the tag and the PC/SC context; every later call throws reader-unavailable.
    public func close() async {
        await releaseTargets()
        context = nil
        isClosed = true
    }

    // MARK: - Connections

    /// The reader's state as pcscd reports it now.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the reader is gone.
    private func readerState() throws(NFCReaderError) -> PCSCReaderState {
        let context = try establishedContext()
        var states = [PCSCReaderState(readerName: name, currentState: PCSCReaderState.unaware)]
        var isGone = false
        do {
            try context.statusChange(&states, timeoutMilliseconds: 0)
        } catch {
            guard error.status == PCSCStatusCode.unknownReader else { throw fail(error) }
            isGone = true
        }
        if isGone || states[0].eventState & (PCSCReaderState.unknown | PCSCReaderState.unavailable) != 0 {
            dropConnection()
            throw NFCReaderError(
                .readerUnavailable,
                "the reader \"\(name)\" is gone (unplugged, or pcscd no longer lists it); `pcsc_scan -r` lists readers")
        }
        return states[0]
    }

    /// Connects to the card and identifies it; nil when no card is there after all.
    private func connectTarget(eventCount: Int) throws(NFCReaderError) -> NFCTargetInfo? {
        let context = try establishedContext()
        let card: PCSCCard
        do {
            card = try context.connect(reader: name, exclusive: exclusive)
        } catch {
            // A card that just arrived can still be unpowered for a moment: no card yet.
            let noCardYet = [
                PCSCStatusCode.noSmartcard, PCSCStatusCode.removedCard, PCSCStatusCode.unresponsiveCard,
                PCSCStatusCode.unpoweredCard,
            ]
            if noCardYet.contains(error.status) {
                return nil
            }
            throw fail(error)
        }
        let target: NFCTargetInfo
        do {
            target = try identify(card)
        } catch {
            card.disconnectUnpowering()
            if error.code == .tagConnectionLost { return nil }
            throw error
        }
        connection = PCSCConnection(card: card, target: target, eventCount: eventCount)
        if apduLength == .automatic, !askedDriver {
            askedDriver = true
            let size = apduLength.maximumDataSize(reported: card.reportedMaximumAPDUDataSize())
            maximumAPDUDataSize.withLock { $0 = size }
        }
        return target
    }

    /// The target description of the card behind `card`.
    private func identify(_ card: PCSCCard) throws(NFCReaderError) -> NFCTargetInfo {
        let atrBytes: [UInt8]
        do {
            atrBytes = try card.status().atr
        } catch {
            throw fail(error)
        }
        let atr = PCSCAnswerToReset(atrBytes)
        let uid = try Part3Storage.getDataValue(try transmitToReader(card, StorageCardAPDU.getUID)) ?? []
        var ats: [UInt8]?
        if let atr, atr.card == .isoDEP {
            let answer = try Part3Storage.getDataValue(try transmitToReader(card, StorageCardAPDU.getHistoricalBytes))
            ats = PCSCAnswerToReset.ats(fromGetData: answer, atr: atr)
        }
        return NFCTargetInfo(
            index: 0, uid: uid, atqa: [], sak: atr?.derivedSAK ?? PCSCAnswerToReset.unknownSAK, ats: ats,
            atr: atrBytes)
    }

    /// Throws unless `uid` is the target's (an empty UID, which a reader may not report, matches).
    private func checkSameTag(_ uid: [UInt8], _ target: NFCTargetInfo) throws(NFCReaderError) {
        guard uid.isEmpty || target.uid.isEmpty || uid == target.uid else {
            throw NFCReaderError(
                .tagConnectionLost,
                "the tag \(target.uidDescription) left the reader \"\(name)\"; another tag (UID "
                    + Hex.bytes(uid) + ") is there now")
        }
    }

    /// The PC/SC context, established on first use.
    func establishedContext() throws(NFCReaderError) -> PCSCContext {
        if let context { return context }
        do {
            let established = try PCSCContext()
            context = established
            return established
        } catch {
            throw error.readerError
        }
    }

    /// Forgets the connection (disconnecting without touching the card).
    private func dropConnection() {
        connection = nil
    }

    /// The session error for `reported` (``PCSCError/confirmingService()``: a stopped pcscd is
    /// reported as such), forgetting the connection when the card is gone and the context when
    /// pcscd is.
    func fail(_ reported: PCSCError) -> NFCReaderError {
        let error = reported.confirmingService()
        if PCSCStatusCode.cardGone.contains(error.status) { dropConnection() }
        if PCSCStatusCode.serviceGone.contains(error.status) {
            dropConnection()
            context = nil
        }
        return error.readerError
    }

    /// Throws reader-unavailable after ``close()``.
    func checkOpen() throws(NFCReaderError) {
        if isClosed { throw NFCReaderError(.readerUnavailable, "the PC/SC reader \"\(name)\" is closed") }
    }
}

extension PCSCReaderDevice: NFCReaderSignalling {
    /// Whether the reader's lights and buzzer are driven: with the ``PCSCReaderProfile/acr122u``
    /// profile only, whose readers take the ACR122U's LED and buzzer pseudo-APDU
    /// (``NFCWireFormat/ACR122ULightCommand``, ACR122U API 2.04, 6.2). Other readers (the ACR1252U's
    /// own LED commands go through SCardControl escapes, not implemented) show nothing.
    public nonisolated var supportsSignals: Bool { profile == .acr122u }

    /// Sends the ACR122U LED and buzzer command for `signal` (``NFCSession/ACR122ULightCommand/showing(_:)``)
    /// over the open card connection, or over a shared connection made for it and closed again.
    ///
    /// The pseudo-APDU travels through SCardTransmit, which needs a card: with no tag on the reader
    /// nothing can be sent (pcscd offers only SCardControl escapes then) and the signal is not shown.
    ///
    /// - Returns: whether the reader answered `90 xx`; false without the ACR122U profile, without a
    ///   tag, or when the reader is closed, gone or refused the command.
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard supportsSignals, !isClosed else { return false }
        let apdu = ACR122ULightCommand.showing(signal).apdu
        if let connection {
            guard let response = try? connection.card.transmit(apdu) else { return false }
            return Self.isLightAnswer(response)
        }
        guard let context = try? establishedContext(),
            let card = try? context.connect(reader: name, exclusive: exclusive)
        else { return false }
        defer { card.disconnectUnpowering() }
        guard let response = try? card.transmit(apdu) else { return false }
        return Self.isLightAnswer(response)
    }

    /// `90 xx`: the command was carried out, xx the LED state (ACR122U API 2.04, 6.2).
    nonisolated static func isLightAnswer(_ response: [UInt8]) -> Bool {
        response.count == 2 && response[0] == 0x90
    }
}

// MARK: - PCSCConnection

/// The card a ``PCSCReaderDevice`` is connected to, and what its profile set up on it.
///
/// Not `Sendable` (it holds the ``PCSCCard``): it lives inside the device actor.
struct PCSCConnection {
    /// Where a transparent session stands (``PCSCReaderProfile/pcscTransparent``).
    enum TransparentSession {
        /// Not started (or ended by a reset).
        case closed
        /// Started: Type 2 frames go through Transparent Exchange.
        case open
        /// The reader refused to start one: READ and WRITE fall back to PC/SC part 3 storage
        /// commands, other commands are refused.
        case unavailable
    }

    /// The connection.
    let card: PCSCCard
    /// What polling found.
    var target: NFCTargetInfo
    /// pcscd's card event count when the connection was made: a different count means the tag
    /// left (and maybe came back) since.
    var eventCount: Int
    /// Whether nothing was sent to the tag since it was activated (connected or reset), so a
    /// selection needs no reset.
    var isFresh = true
    /// Who checks the tag's CRC (``PCSCReaderProfile/acr122u``); nil until the first frame.
    var crcMode: ACR122UDirectTransmit.CRCMode?
    /// CIU_RxMode as it was before ``crcMode`` became `.host`, restored on release.
    var savedRxMode: UInt8?
    /// The transparent session (``PCSCReaderProfile/pcscTransparent``).
    var transparentSession = TransparentSession.closed
}

@available(*, unavailable)
extension PCSCConnection: Sendable {}
