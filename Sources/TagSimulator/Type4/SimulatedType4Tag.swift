import NDEF
import NFCWireFormat
import TagMemory

/// A simulated NFC Forum Type 4 tag: a pure state machine that answers command APDUs as an
/// ISO-DEP tag with the NDEF Tag Application does.
///
/// Behaviour follows NFC Forum Type 4 Tag 3.0 (section 5: the CC file `E103`, the NDEF file
/// and the commands SELECT, READ BINARY and UPDATE BINARY), ISO/IEC 7816-4 for the APDU cases
/// and status words, and the NTAG 424 DNA datasheet (NT4H2421Gx, section 10.9) where the
/// standards leave a choice. The files are the CC file, built from ``configuration`` by
/// ``TagMemory/Type4CapabilityContainer``, and the NDEF file; SELECT reaches them only once the NDEF
/// Tag Application is selected.
///
/// Status words (``NFCWireFormat/StatusWord``):
/// - `6700` for an APDU shorter than its header or whose Lc and Le do not match its length;
///   an extended-length APDU on a tag whose MLe and MLc fit short APDUs; a READ BINARY without
///   Le or with Ne above MLe (including Le `00`, 256, when MLe is smaller: the reader must not
///   exceed MLe, 5.4.4); an UPDATE BINARY without data, with Lc above MLc, or with an Le field
///   (an NTAG 424 DNA refuses that too).
/// - `6E00` for a CLA other than `00`; `6D00` for another instruction (`B1` and `D7` exist only
///   from version 3.0); `6A86` for P1-P2 that are not supported (P1 other than `00` or `04` in
///   SELECT, P2 other than `00` or `0C`, a short EF identifier in READ or UPDATE BINARY).
/// - `6A82` when SELECT finds no such application or file (the selection stays as it was);
///   `6A87` for a SELECT by file identifier whose data is not 2 bytes.
/// - `6986` for READ or UPDATE BINARY with no file selected (ISO/IEC 7816-4: no current EF;
///   an NTAG 424 DNA answers `6985`); `6982` when the access condition refuses it.
/// - `6B00` for an offset at or past the end of the file; `6A84` for an UPDATE BINARY whose
///   data runs past the end (nothing is written; an NTAG 424 DNA answers `6985`);
///   `6A80` for a malformed offset or discretionary data object in `B1` / `D7`.
///
/// A READ BINARY that reaches the end of the file returns the bytes up to the end, with `9000`
/// or, when ``Configuration/reportsEndOfFile`` is set, `6282`.
///
/// Simplifications: ISO-DEP (RATS, block framing, chaining, waiting time extensions) is reduced
/// to ``select()``; no proprietary file, FCI, short EF identifier, logical channel, secure
/// messaging or native (CLA `90`) command is simulated; every UPDATE BINARY is committed whole
/// unless ``applyPartialUpdate(_:keepingBytes:)`` tears it.
public struct SimulatedType4Tag: Sendable {
    /// The ISO/IEC 14443-3 state; ISO-DEP is active whenever the state is ACTIVE.
    public typealias State = ISO14443State

    /// The tag as it was made (the CC file may have changed since, see
    /// ``Configuration/isCapabilityContainerWritable``).
    public let configuration: Configuration
    /// The CC the tag was made with; its offsets say where the access bytes are.
    let factoryCapabilityContainer: Type4CapabilityContainer
    /// The CC file `E103` as it is now.
    public internal(set) var capabilityContainerFile: [UInt8]
    /// The whole NDEF file as it is now, NLEN (or ENLEN) first, ``Configuration/maximumNDEFFileSize`` bytes.
    public internal(set) var ndefFile: [UInt8]
    /// The ISO/IEC 14443-3 state.
    public internal(set) var state: State = .idle
    /// Whether the NDEF Tag Application is selected.
    public internal(set) var isApplicationSelected = false
    /// The selected file (`E103` or the NDEF file identifier), or nil.
    public internal(set) var selectedFile: UInt16?
    /// How many APDUs of each kind the tag received, answered or not.
    public internal(set) var commandCounts: [SimulatedType4Command: Int] = [:]
    /// Whether ``recordedCommands`` keeps every APDU's kind in order (off by default).
    public var isRecordingCommands = false
    /// The kinds of the APDUs received while ``isRecordingCommands`` was on, in order.
    public internal(set) var recordedCommands: [SimulatedType4Command] = []
    /// The NTAG 424 DNA state (keys, file settings, SDM, authentication) of a tag that answers
    /// native commands (`sim:ntag424`); nil for a plain Type 4 tag.
    public internal(set) var ntag424: SimulatedNTAG424Chip?
    /// Whether the tag was woken from HALT since it was powered: an unexpected frame in ACTIVE
    /// sends it back to HALT, not IDLE (see ``returnToWaitingState()``).
    var wasHalted = false

    /// The UID of tags created without one (NXP manufacturer code 04h first).
    public static let defaultUID: [UInt8] = [0x04, 0x3C, 0x6A, 0x92, 0x2F, 0x61, 0x80]

    /// Creates a tag whose NDEF file starts with `ndefFile` (NLEN or ENLEN, then the message),
    /// padded with 00h to the file size.
    ///
    /// - Throws: ``TagMemory/TagMemoryError/Code/invalidArgument`` for a configuration that makes no
    ///   valid CC (see ``Configuration/capabilityContainer()``);
    ///   ``TagMemory/TagMemoryError/Code/insufficientCapacity`` when `ndefFile` is longer than the file.
    public init(configuration: Configuration, ndefFile: [UInt8]) throws(TagMemoryError) {
        let cc = try configuration.capabilityContainer()
        let size = cc.ndefFile.maximumFileSize
        guard ndefFile.count <= size else {
            throw TagMemoryError(
                .insufficientCapacity, "\(ndefFile.count) bytes do not fit the \(size)-byte NDEF file")
        }
        self.configuration = configuration
        self.factoryCapabilityContainer = cc
        self.capabilityContainerFile = try cc.encoded()
        self.ndefFile = ndefFile + [UInt8](repeating: 0, count: size - ndefFile.count)
    }

    /// Creates a tag as it leaves the factory: an empty NDEF file (NLEN `0000`, T4T 3.0 5.2).
    ///
    /// - Throws: as ``init(configuration:ndefFile:)``.
    public init(configuration: Configuration = Configuration()) throws(TagMemoryError) {
        try self.init(configuration: configuration, ndefFile: [])
    }

    /// Creates a tag holding `message` (an empty message gives NLEN `0000`).
    ///
    /// - Throws: ``TagMemory/TagMemoryError/Code/malformedMessage`` when the message cannot be encoded,
    ///   and as ``init(configuration:ndefFile:)``.
    public init(configuration: Configuration = Configuration(), message: NFCNDEFMessage) throws(TagMemoryError) {
        let cc = try configuration.capabilityContainer()
        var bytes: [UInt8] = []
        if !message.records.isEmpty {
            do {
                bytes = try message.encoded()
            } catch {
                throw TagMemoryError(.malformedMessage, "the message cannot be encoded: \(error.reason)")
            }
        }
        try self.init(
            configuration: configuration,
            ndefFile: try Type4NDEFFile.encoded(messageBytes: bytes, capabilityContainer: cc))
    }

    /// The UID.
    public var uid: [UInt8] { configuration.uid }
    /// ATQA, least significant byte first (see ``Configuration/atqa``).
    public var atqa: [UInt8] { configuration.atqa }
    /// SAK `20`: UID complete, ISO/IEC 14443-4 compliant (ISO/IEC 14443-3, 6.4.3.4).
    public var sak: UInt8 { 0x20 }
    /// The ATS sent in answer to RATS (see ``Configuration/ats``).
    public var ats: [UInt8] { configuration.ats }

    /// The files as ``TagMemory/Type4FileImages``, for TagMemory's parsers (`ndefFile()`, `capabilityContainer()`).
    public var fileImages: Type4FileImages {
        Type4FileImages(files: [
            Type4CapabilityContainer.fileIdentifier: capabilityContainerFile,
            configuration.ndefFileIdentifier: ndefFile,
        ])
    }

    /// REQA or WUPA, anticollision, SELECT and RATS in one step: the tag becomes ACTIVE with
    /// ISO-DEP on and nothing selected, as after a fresh activation.
    public mutating func select() {
        wasHalted = wasHalted || state == .halt
        state = .active
        clearSelection()
    }

    /// S(DESELECT) or HLTA: the tag halts and forgets its selection.
    public mutating func halt() {
        state = .halt
        clearSelection()
    }

    /// The field goes off: the tag powers down to IDLE and forgets the selected application
    /// and file; the files are non-volatile.
    public mutating func fieldOff() {
        state = .idle
        wasHalted = false
        clearSelection()
        ntag424?.powerOff()
    }

    /// How many APDUs of `command` the tag received.
    public func count(of command: SimulatedType4Command) -> Int { commandCounts[command] ?? 0 }

    /// The total number of APDUs received.
    public var totalCommandCount: Int { commandCounts.values.reduce(0, +) }

    /// Forgets the command counts and the recorded commands.
    public mutating func resetCommandCounts() {
        commandCounts = [:]
        recordedCommands = []
    }

    /// Answers one command APDU: the response data then SW1 SW2, or nil (no answer) when the
    /// tag is not ACTIVE. Every APDU is counted in ``commandCounts``.
    public mutating func transceiveAPDU(_ apdu: [UInt8]) -> [UInt8]? {
        record(apdu)
        guard state == .active else { return nil }
        return answer(apdu).bytes
    }

    /// Answers one command, as ``transceiveAPDU(_:)`` does, with the response split.
    public mutating func transceive(_ command: Type4Command) -> Type4Response? {
        record(command.bytes)
        guard state == .active else { return nil }
        return answer(command.bytes)
    }

    /// Counts and records the kind of `apdu`.
    mutating func record(_ apdu: [UInt8]) {
        let kind = SimulatedType4Command(apdu: apdu)
        commandCounts[kind, default: 0] += 1
        if isRecordingCommands { recordedCommands.append(kind) }
    }

    mutating func clearSelection() {
        isApplicationSelected = false
        selectedFile = nil
    }

    /// The response to `bytes` from an ACTIVE tag.
    private mutating func answer(_ bytes: [UInt8]) -> Type4Response {
        guard bytes.count >= 4 else { return Type4Response(status: .wrongLength) }
        // Any command but a read of the NDEF file ends a run of SDM reads (NT4H2421Gx 9.3.1).
        if var chip = ntag424 {
            chip.previousSDMRead = chip.lastSDMRead
            chip.lastSDMRead = nil
            ntag424 = chip
        }
        if bytes[0] == 0x90, ntag424 != nil {
            let answer = nativeCommand(bytes)
            let status = answer.suffix(2).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
            return Type4Response(data: Array(answer.dropLast(2)), status: StatusWord(rawValue: status))
        }
        guard bytes[0] == 0x00 else { return Type4Response(status: .classNotSupported) }
        guard let apdu = CommandAPDU(bytes),
            !apdu.isExtended || configuration.acceptsExtendedLength
        else { return Type4Response(status: .wrongLength) }
        do {
            switch apdu.ins {
            case 0xA4:
                return try selectCommand(apdu)
            case 0xB0, 0xB1:
                let request = try readRequest(apdu)
                return try readBinary(request)
            case 0xD6, 0xD7:
                try updateBinary(updateRequest(apdu), keeping: nil)
                return Type4Response(status: .success)
            default:
                return Type4Response(status: .instructionNotSupported)
            }
        } catch {
            return Type4Response(status: error.status)
        }
    }
}

/// A command the tag refuses, with the status word it answers.
struct SimulatedType4Refusal: Error {
    let status: StatusWord

    init(_ status: StatusWord) {
        self.status = status
    }
}

extension SimulatedType4Tag {
    /// A frame the tag does not expect in READY or ACTIVE (a REQA or WUPA of a new poll, a
    /// SELECT for another UID): the tag goes back to its waiting state, IDLE, or HALT if it was
    /// woken from HALT (ISO/IEC 14443-3, 6.3), and forgets its selection. Nothing is answered
    /// or counted.
    mutating func returnToWaitingState() {
        guard state == .active || state == .ready else { return }
        state = wasHalted ? .halt : .idle
        clearSelection()
    }

    /// The number of data bytes `apdu` carries when it is an UPDATE BINARY (`D6`, or `D7` on a
    /// version 3.0 tag: the bytes inside its discretionary data object) the tag can parse; nil
    /// for every other APDU. Whether the tag would accept the write is not checked.
    func updateDataCount(of apdu: [UInt8]) -> Int? {
        guard SimulatedType4Command(apdu: apdu) == .updateBinary, let parsed = CommandAPDU(apdu),
            !parsed.isExtended || configuration.acceptsExtendedLength
        else { return nil }
        do {
            return try updateRequest(parsed).data.count
        } catch {
            return nil
        }
    }

    /// Receives `apdu` and answers `status` (SW1 SW2) without carrying it out, as a tag whose
    /// EEPROM fails (fault injection): the APDU is counted, the selection stays.
    mutating func refuse(_ apdu: [UInt8], status: UInt16) -> [UInt8] {
        record(apdu)
        return [UInt8(truncatingIfNeeded: status >> 8), UInt8(truncatingIfNeeded: status)]
    }

    /// Receives `apdu` and answers `9000` without storing anything, as an EEPROM that fails
    /// silently (fault injection): the APDU is counted, the selection stays.
    mutating func acknowledgeWithoutStoring(_ apdu: [UInt8]) -> [UInt8] {
        record(apdu)
        return StatusWord.success.bytes
    }
}

extension SimulatedType4Tag {
    /// The file identifier of the master file, `3F00` (ISO/IEC 7816-4, 7.1.1).
    static let masterFileIdentifier: [UInt8] = [0x3F, 0x00]

    /// SELECT (INS A4h): P1 `04` selects the NDEF Tag Application by name (T4T 3.0, 5.4.2),
    /// P1 `00` a file by identifier (5.4.3); P2 `00` (FCI asked, none is returned, as on an
    /// NTAG 424 DNA, NT4H2421Gx 10.9.1) or `0C` (no response data). Any other P1 or P2 answers
    /// `6A86`.
    mutating func selectCommand(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) -> Type4Response {
        guard apdu.p2 == 0x00 || apdu.p2 == 0x0C else { throw SimulatedType4Refusal(.incorrectParameters) }
        switch apdu.p1 {
        case 0x04: try selectApplication(apdu)
        case 0x00: try selectFile(apdu)
        default: throw SimulatedType4Refusal(.incorrectParameters)
        }
        return Type4Response(status: .success)
    }

    /// SELECT by name: `9000` for the tag's NDEF Tag Application identifier (`D2760000850101`,
    /// or `D2760000850100` on a version 1.0 tag), which deselects any file; `6A82` for any
    /// other name, keeping the selection (NT4H2421Gx 10.9.1); `6700` without a name.
    private mutating func selectApplication(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) {
        guard apdu.hasCommandData else { throw SimulatedType4Refusal(.wrongLength) }
        guard apdu.data.elementsEqual(configuration.applicationIdentifier) else {
            throw SimulatedType4Refusal(.fileNotFound)
        }
        isApplicationSelected = true
        selectedFile = nil
        // Selecting the application ends an NTAG 424 DNA session, as NXP's reader library
        // assumes (the datasheet does not say).
        ntag424?.dropAuthentication()
    }

    /// SELECT by file identifier: the CC file `E103` or the NDEF file, once the application is
    /// selected (`6A82` before, and for any other identifier, keeping the selection); no data
    /// or `3F00` selects the master file, which leaves the application (ISO/IEC 7816-4, 7.1.1;
    /// NT4H2421Gx 10.9.1); data of another length answers `6A87`.
    private mutating func selectFile(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) {
        if apdu.data.isEmpty || apdu.data.elementsEqual(Self.masterFileIdentifier) {
            isApplicationSelected = false
            selectedFile = nil
            return
        }
        guard apdu.data.count == 2, let high = apdu.data.first, let low = apdu.data.last else {
            throw SimulatedType4Refusal(StatusWord(rawValue: 0x6A87))
        }
        let identifier = UInt16(high) << 8 | UInt16(low)
        guard isApplicationSelected,
            identifier == Type4CapabilityContainer.fileIdentifier || identifier == configuration.ndefFileIdentifier
                || (ntag424 != nil && identifier == SimulatedNTAG424Chip.proprietaryFileIdentifier)
        else { throw SimulatedType4Refusal(.fileNotFound) }
        selectedFile = identifier
    }
}

/// The command kinds a simulated Type 4 tag tells apart (ISO/IEC 7816-4 instructions used by
/// NFC Forum Type 4 Tag 3.0, section 5.4).
public enum SimulatedType4Command: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// SELECT by name (INS A4h, P1 04h): the NDEF Tag Application (T4T 3.0, 5.4.2).
    case selectApplication = "SELECT_APPLICATION"
    /// SELECT by file identifier (INS A4h, any other P1): the CC or the NDEF file (5.4.3).
    case selectFile = "SELECT_FILE"
    /// READ BINARY (INS B0h, or B1h with an offset data object) (5.4.4).
    case readBinary = "READ_BINARY"
    /// UPDATE BINARY (INS D6h, or D7h with an offset data object) (5.4.5).
    case updateBinary = "UPDATE_BINARY"
    /// A native command wrapped in ISO/IEC 7816-4 (CLA 90h: NTAG 424 DNA, NT4H2421Gx 10.2).
    case native = "NATIVE"
    /// Anything else: an APDU shorter than its four header bytes, a CLA other than 00h or 90h,
    /// or another instruction.
    case unknown = "UNKNOWN"

    /// The kind of `apdu` from its CLA, INS and P1.
    public init(apdu: [UInt8]) {
        if apdu.count >= 4, apdu[0] == 0x90 {
            self = .native
            return
        }
        guard apdu.count >= 4, apdu[0] == 0x00 else {
            self = .unknown
            return
        }
        switch apdu[1] {
        case 0xA4: self = apdu[2] == 0x04 ? .selectApplication : .selectFile
        case 0xB0, 0xB1: self = .readBinary
        case 0xD6, 0xD7: self = .updateBinary
        default: self = .unknown
        }
    }

    /// The command name.
    public var description: String { rawValue }
}
