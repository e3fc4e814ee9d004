internal import CLibNFC
import NFCSession
import NFCWireFormat
import SystemSupport

/// A libnfc device in initiator mode (a PN532 board on a serial port, a PN533 or ACR122 on USB)
/// as the session layer's ``NFCSession/NFCReaderDevice``.
///
/// Opening (``open(connstring:commandTimeoutMilliseconds:)``) claims the device with `nfc_open`, puts it in initiator mode
/// (`nfc_initiator_init`), turns infinite select off so that polls return when no tag answers,
/// and sets the command timeout (``defaultCommandTimeoutMilliseconds``). Polling lists every ISO/IEC
/// 14443 Type A target in the field with `nfc_initiator_list_passive_targets`, which selects one
/// tag, deselects it (HLTA, which HALTs it), and repeats until no tag answers. As HALTed tags
/// answer no REQA, the field is switched off and on (``fieldResetMicroseconds`` apart) before
/// every poll and every selection, so all tags are IDLE again; ``select(_:)`` then selects the
/// tag by its UID (`nfc_initiator_select_passive_target` with the UID as initiator data) and
/// checks the UID that answered.
///
/// Type 2 frames travel in raw mode (`Type2RawFrame`): easy framing and the PN53x's CRC are
/// off while a Type 2 tag is selected, the host appends and checks CRC_A, and a 4-bit ACK or NAK
/// comes back as exactly that. Raw mode rather than easy framing (InDataExchange, CRC by the
/// PN53x) because through InDataExchange a 4-bit answer is no data: an ACK leaves an empty answer
/// and a NAK an error status that libnfc turns into a generic error, losing the NAK's code (4h
/// after PWD_AUTH means the password is disabled for good); and with the CRC checked on the host,
/// a corrupted answer is told from a silent tag, leaving `NFC_ERFTRANS` to mean a tag that did
/// not answer (or an answer the PN53x could not even frame). ISO-DEP targets (SAK bit 6, whose
/// RATS libnfc sends itself) keep easy framing and the PN53x's CRC: their APDUs travel in
/// InDataExchange, which handles ISO/IEC 14443-4 blocks, chaining and waiting-time extensions.
///
/// A tag that stops answering is ``NFCSession/NFCReaderError/Code/tagConnectionLost``
/// (`NFC_ERFTRANS`: the PN53x's own timeout, 52 ms by default, ends the wait); a device that stops
/// answering is ``NFCSession/NFCReaderError/Code/readerUnavailable``. Every libnfc call runs on
/// the device's own serial dispatch queue, never on the cooperative pool; libnfc's results become
/// errors in one place, ``LibNFCError``.
public actor LibNFCReaderDevice: NFCReaderDevice {
    /// The connection string, `pn532_uart:/dev/ttyUSB0`.
    public nonisolated let name: String
    /// What the device can do: raw commands, FAST_READ, ISO-DEP and several targets, with the
    /// frame size of its driver (``maximumFrameSize(driver:)``).
    public nonisolated let capabilities: NFCReaderCapabilities

    /// How long the host waits for the device's answer to a command, in milliseconds, unless
    /// ``open(connstring:commandTimeoutMilliseconds:)`` or `NDEFTOOL_LIBNFC_TIMEOUT_MS` says
    /// otherwise (`NP_TIMEOUT_COMMAND`; libnfc's default is 350). The PN53x gives up on a silent
    /// tag much earlier (`NP_TIMEOUT_COM`, 52 ms); this covers ISO-DEP tags that ask for more
    /// time and long frames on a 115200-baud line.
    public static let commandTimeoutMilliseconds: Int32 = 1000

    /// The command timeout devices open with: `NDEFTOOL_LIBNFC_TIMEOUT_MS` (1 to 600000) when
    /// set, for a device on a slow link or a simulated one on a busy machine; otherwise
    /// ``commandTimeoutMilliseconds``.
    public static var defaultCommandTimeoutMilliseconds: Int32 {
        guard let text = getenv("NDEFTOOL_LIBNFC_TIMEOUT_MS").map({ String(cString: $0) }),
            let value = Int32(text), (1...600_000).contains(value)
        else { return commandTimeoutMilliseconds }
        return value
    }

    /// The command timeout this device opened with, in milliseconds.
    public nonisolated let commandTimeout: Int32
    /// How long the field stays off when it is reset, in microseconds: ISO/IEC 14443-3 asks for at
    /// least 5 ms so every tag loses power and comes back IDLE.
    public static let fieldResetMicroseconds: UInt32 = 5000
    /// The most targets one poll lists.
    public static let maximumTargets = 8

    /// Which side frames the data of the selected target.
    enum Framing {
        /// The PN53x: easy framing (InDataExchange) and its CRC, as polling and ISO-DEP need.
        case device
        /// The host: raw frames through InCommunicateThru, CRC_A by the host (Type 2 tags).
        case raw
    }

    private nonisolated let executor: SerialQueueExecutor

    /// The device's own serial executor: a dispatch queue.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var handle: LibNFCDeviceHandle?
    private var isClosed = false
    /// The target selected, if any.
    private var selected: NFCTargetInfo?
    /// The framing the device is set to; nil when unknown (a change failed half-way).
    private var framing: Framing?

    private init(connstring: String, commandTimeout: Int32) {
        self.name = connstring
        self.commandTimeout = commandTimeout
        self.capabilities = NFCReaderCapabilities(
            maximumFrameSize: Self.maximumFrameSize(driver: LibNFCReaderURL.driver(of: connstring)),
            supportsRawCommands: true, supportsFastRead: true, supportsISODEP: true, detectsMultipleTargets: true)
        self.executor = SerialQueueExecutor(label: "ndeftool.libnfc.device")
    }

    isolated deinit {
        handle = nil
    }

    /// Opens the device `connstring` names and puts it in initiator mode.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when libnfc cannot open it
    ///   (the message says why it may be: no such port, no permission, nothing answering, a
    ///   reader held by pcscd) or it fails to start.
    /// - Parameters:
    ///   - connstring: libnfc's connection string, `pn532_uart:/dev/ttyUSB0`.
    ///   - commandTimeoutMilliseconds: how long to wait for the device's answer to a command
    ///     (`NP_TIMEOUT_COMMAND`); nil: ``defaultCommandTimeoutMilliseconds``.
    public static func open(
        connstring: String, commandTimeoutMilliseconds: Int32? = nil
    ) async throws(NFCReaderError) -> LibNFCReaderDevice {
        let device = LibNFCReaderDevice(
            connstring: connstring,
            commandTimeout: commandTimeoutMilliseconds ?? Self.defaultCommandTimeoutMilliseconds)
        try await device.connect()
        return device
    }

    /// The largest Type 2 answer (without CRC_A) and APDU a driver's device passes on.
    ///
    /// PN532 boards (`pn532_uart`, `pn532_spi`, `pn532_i2c`, `arygon`) exchange extended frames
    /// of 265 bytes: TFI, the command code and the status leave 262 bytes of tag data, of which
    /// the raw answer's CRC_A takes 2 (PN532 user manual 6.2.1.2; libnfc's
    /// `PN53x_EXTENDED_FRAME__DATA_MAX_LEN`). The ACR122's pseudo-APDUs carry at most 255 bytes of
    /// PN532 answer (`acr122_usb.c`), leaving 250; other drivers get that smaller size too.
    public static func maximumFrameSize(driver: String) -> Int {
        switch driver {
        case "pn532_uart", "pn532_spi", "pn532_i2c", "arygon": 260
        default: 250
        }
    }

    // MARK: - NFCReaderDevice

    /// Every ISO/IEC 14443 Type A target in the field, after a field reset; they are left HALTed.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/readerUnavailable`` when the device is closed
    ///   or does not answer.
    public func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        let handle = try openHandle()
        selected = nil
        var targets = [nfc_target](repeating: nfc_target(), count: Self.maximumTargets)
        let count: Int
        do {
            try useFraming(.device, handle)
            try resetField(handle)
            count = try handle.check(
                nfc_initiator_list_passive_targets(handle.pointer, Self.typeA, &targets, targets.count),
                "nfc_initiator_list_passive_targets")
        } catch {
            throw error.readerError
        }
        return targets.prefix(count).enumerated().map { NFCTargetInfo(libnfc: $0.element, index: $0.offset) }
    }

    /// Resets the field and selects `target` by its UID (RATS as well for an ISO-DEP target),
    /// then sets the framing its frames need.
    ///
    /// A random UID (4 bytes starting with 08h, ISO/IEC 14443-3 6.4.4: ISO-DEP cards and phones
    /// emulating one draw a new one at every activation) cannot name the tag after the field
    /// reset: the tag that answers is selected instead, if it is of the same kind.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when the tag is not in the
    ///   field (or another UID answered).
    public func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        let handle = try openHandle()
        selected = nil
        var found = nfc_target()
        let count: Int
        do {
            try useFraming(.device, handle)
            try resetField(handle)
            let uid = Self.hasRandomUID(target) ? [] : target.uid
            let result = uid.withUnsafeBufferPointer { uid in
                nfc_initiator_select_passive_target(handle.pointer, Self.typeA, uid.baseAddress, uid.count, &found)
            }
            count = try handle.check(result, "nfc_initiator_select_passive_target")
        } catch {
            throw error.readerError
        }
        guard count > 0 else {
            throw NFCReaderError(
                .tagConnectionLost, "the tag \(target.uidDescription) is no longer in the field of \(name)")
        }
        let info = NFCTargetInfo(libnfc: found, index: target.index)
        let isSameTag = Self.hasRandomUID(target) ? info.kind == target.kind : info.uid == target.uid
        guard target.uid.isEmpty || isSameTag else {
            throw NFCReaderError(
                .tagConnectionLost,
                "the tag \(target.uidDescription) left the field of \(name); the tag \(info.uidDescription) answered")
        }
        if info.kind != .type4 {
            do {
                try useFraming(.raw, handle)
            } catch {
                throw error.readerError
            }
        }
        selected = info
    }

    /// Whether `target`'s UID is a random one (ISO/IEC 14443-3 6.4.4: single size, UID0 08h).
    static func hasRandomUID(_ target: NFCTargetInfo) -> Bool {
        target.uid.count == 4 && target.uid.first == 0x08
    }

    /// Deselects the selected target (HLTA, or S(DESELECT) for ISO-DEP), restores the PN53x's
    /// framing and turns the field off, so tags lose power and come back IDLE when the next poll
    /// turns it on. Failures are ignored: a device that is gone is released.
    public func releaseTargets() async {
        guard let handle, !isClosed else { return }
        if selected != nil { _ = nfc_initiator_deselect_target(handle.pointer) }
        selected = nil
        try? useFraming(.device, handle)
        _ = nfc_device_set_property_bool(handle.pointer, NP_ACTIVATE_FIELD, false)
    }

    /// Releases the target and closes the device (`nfc_close`); every later call throws
    /// reader-unavailable.
    public func close() async {
        await releaseTargets()
        handle = nil
        isClosed = true
    }

    // MARK: - Helpers

    /// ISO/IEC 14443 Type A at 106 kbit/s, the only modulation polled.
    static let typeA = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)

    /// The size of the receive buffer: a PN53x extended frame's data, with room to spare.
    static let receiveCapacity = 300

    /// Opens the device and sets it up; called once, by ``open(connstring:commandTimeoutMilliseconds:)``.
    private func connect() throws(NFCReaderError) {
        let opened: LibNFCDeviceHandle?
        do {
            opened = try LibNFCDeviceHandle.open(name)
        } catch {
            throw error.readerError
        }
        guard let opened else { throw LibNFCDevices.openFailure(name) }
        do {
            try opened.check(nfc_initiator_init(opened.pointer), "nfc_initiator_init")
            try opened.set(NP_INFINITE_SELECT, false, "NP_INFINITE_SELECT")
            try opened.set(NP_TIMEOUT_COMMAND, commandTimeout, "NP_TIMEOUT_COMMAND")
        } catch {
            let failure = error.readerError
            throw NFCReaderError(
                .readerUnavailable, "the libnfc device \(name) opened but did not start as a reader: \(failure.reason)")
        }
        handle = opened
        framing = .device
    }

    /// The open device, or reader-unavailable after ``close()``.
    func openHandle() throws(NFCReaderError) -> LibNFCDeviceHandle {
        guard !isClosed, let handle else {
            throw NFCReaderError(.readerUnavailable, "the libnfc device \(name) is closed")
        }
        return handle
    }

    /// The selected target, or tag-connection-lost.
    func selectedTarget() throws(NFCReaderError) -> NFCTargetInfo {
        guard let selected else {
            throw NFCReaderError(.tagConnectionLost, "no tag is selected on \(name): poll and select first")
        }
        return selected
    }

    /// Sets the framing, unless it is set already.
    func useFraming(_ wanted: Framing, _ handle: LibNFCDeviceHandle) throws(LibNFCError) {
        guard framing != wanted else { return }
        framing = nil
        switch wanted {
        case .device:
            try handle.set(NP_HANDLE_CRC, true, "NP_HANDLE_CRC")
            try handle.set(NP_EASY_FRAMING, true, "NP_EASY_FRAMING")
        case .raw:
            try handle.set(NP_EASY_FRAMING, false, "NP_EASY_FRAMING")
            try handle.set(NP_HANDLE_CRC, false, "NP_HANDLE_CRC")
        }
        framing = wanted
    }

    /// Turns the field off, waits ``fieldResetMicroseconds``, and turns it on.
    private func resetField(_ handle: LibNFCDeviceHandle) throws(LibNFCError) {
        try handle.set(NP_ACTIVATE_FIELD, false, "NP_ACTIVATE_FIELD")
        usleep(Self.fieldResetMicroseconds)
        try handle.set(NP_ACTIVATE_FIELD, true, "NP_ACTIVATE_FIELD")
    }
}

// MARK: - Exchange

/// Frames and APDUs: raw Type 2 frames (``Type2RawFrame``) and ISO-DEP APDUs through InDataExchange.
extension LibNFCReaderDevice {
    /// Sends one Type 2 frame in raw mode (see `Type2RawFrame`) and returns the tag's answer.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no tag is selected or
    ///   it does not answer; ``NFCSession/NFCReaderError/Code/tagResponseError`` for a garbled
    ///   answer, or when the selected tag is an ISO-DEP tag.
    public func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        let handle = try openHandle()
        let target = try selectedTarget()
        guard target.kind != .type4 else {
            throw NFCReaderError(
                .tagResponseError, "the selected tag \(target.uidDescription) is an ISO-DEP tag: it takes APDUs")
        }
        guard !frame.isEmpty, frame.count <= capabilities.maximumFrameSize else {
            throw NFCReaderError(.invalidParameter, "a Type 2 frame has 1 to \(capabilities.maximumFrameSize) bytes")
        }
        let command = Type2RawFrame.command(frame)
        let received: [UInt8]
        do {
            try useFraming(.raw, handle)
            received = try exchange(command, handle)
        } catch {
            throw error.readerError
        }
        return try Type2RawFrame.response(received, to: frame)
    }

    /// Sends one MIFARE Classic command through InDataExchange (UM0701 7.3.8: the PN53x runs
    /// Crypto-1 for AUTH_A and AUTH_B and both parts of a WRITE itself), with libnfc's easy
    /// framing, as libnfc's `nfc_initiator_mifare_cmd` does.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/authenticationFailed`` when the card refuses
    ///   an authentication (`NFC_EMFCAUTHFAIL`: it is halted, select it again);
    ///   ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when it does not answer;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` when the selected tag is no MIFARE
    ///   Classic card or a READ answer is not 16 bytes.
    public func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        let handle = try openHandle()
        let target = try selectedTarget()
        guard target.kind == .mifareClassic else {
            throw NFCReaderError(
                .tagResponseError, "the selected tag \(target.uidDescription) is not a MIFARE Classic card")
        }
        guard let command = frame.first.flatMap(MifareClassicCommand.init(opcode:)), frame.count >= 2 else {
            throw NFCReaderError(
                .invalidParameter, "\(MifareClassicCommand.name(of: frame.first)) is no MIFARE Classic command")
        }
        let answer: [UInt8]
        do {
            try useFraming(.device, handle)
            answer = try exchange(frame, handle)
        } catch {
            guard error.status == .mifareClassicAuthenticationFailed else { throw error.readerError }
            // The PN53x reports a card's refusal of any MIFARE command as its MIFARE error.
            if command.isAuthentication {
                throw NFCReaderError(
                    .authenticationFailed, "the card refused the authentication of block \(frame[1]): wrong key")
            }
            return .nak(0x4)
        }
        guard command == .read else { return .ack }
        guard answer.count == 16 else {
            throw NFCReaderError(.tagResponseError, "READ answered \(answer.count) bytes, not a 16-byte block")
        }
        return .data(answer)
    }

    /// Sends one command APDU to the selected ISO-DEP target (InDataExchange) and returns the
    /// response APDU.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no tag is selected,
    ///   it does not answer, or the answer is shorter than SW1 SW2;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` when the selected tag is not ISO-DEP.
    public func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        let handle = try openHandle()
        let target = try selectedTarget()
        guard target.kind == .type4 else {
            throw NFCReaderError(
                .tagResponseError, "the selected tag \(target.uidDescription) is not an ISO-DEP tag: it takes no APDUs")
        }
        let answer: [UInt8]
        do {
            try useFraming(.device, handle)
            answer = try exchange(apdu, handle)
        } catch {
            throw error.readerError
        }
        guard answer.count >= 2 else {
            throw NFCReaderError(
                .tagConnectionLost, "the answer to the APDU has \(answer.count) byte(s), not even a status word")
        }
        return answer
    }

    // MARK: - Helpers

    /// `nfc_initiator_transceive_bytes` with the command timeout: the bytes received.
    func exchange(_ bytes: [UInt8], _ handle: LibNFCDeviceHandle) throws(LibNFCError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.receiveCapacity)
        let result = bytes.withUnsafeBufferPointer { command in
            buffer.withUnsafeMutableBufferPointer { answer in
                nfc_initiator_transceive_bytes(
                    handle.pointer, command.baseAddress, command.count, answer.baseAddress, answer.count, -1)
            }
        }
        let count = try handle.check(result, "nfc_initiator_transceive_bytes")
        return Array(buffer.prefix(min(count, buffer.count)))
    }
}

// MARK: - NFCTargetInfo from libnfc

/// Target descriptions from libnfc's `nfc_target`.
extension NFCTargetInfo {
    /// The ISO/IEC 14443 Type A identification libnfc decoded from the PN53x's InListPassiveTarget
    /// answer (`nfc_iso14443a_info`), as the target at `index` of a poll.
    ///
    /// libnfc keeps SENS_RES as the PN532 and PN533 send it, most significant byte first
    /// (`00 44` for an NTAG21x): it is reversed into the order of the air interface. The ATS
    /// libnfc keeps lacks its length byte TL (ISO/IEC 14443-4 5.2.1), which is put back. Lengths
    /// are clamped to the arrays libnfc declares.
    init(libnfc target: nfc_target, index: Int) {
        let info = target.nti.nai
        let uidCount = min(max(0, Int(info.szUidLen)), MemoryLayout.size(ofValue: info.abtUid))
        let atsCount = min(max(0, Int(info.szAtsLen)), MemoryLayout.size(ofValue: info.abtAts))
        let uid = withUnsafeBytes(of: info.abtUid) { Array($0.prefix(uidCount)) }
        let atqa = withUnsafeBytes(of: info.abtAtqa) { [$0[1], $0[0]] }
        var ats: [UInt8]?
        if atsCount > 0 {
            ats =
                [UInt8(truncatingIfNeeded: atsCount + 1)]
                + withUnsafeBytes(of: info.abtAts) { Array($0.prefix(atsCount)) }
        }
        self.init(index: index, uid: uid, atqa: atqa, sak: info.btSak, ats: ats)
    }
}
