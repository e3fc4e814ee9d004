import NFCWireFormat
import TagSimulator

/// The PC/SC Part 3 v2.02 transparent session (section 3.2.2.1.12 of the Supplemental
/// Document: Manage Session `FF C2 00 00`, Transparent Exchange `FF C2 00 01`, Switch Protocol
/// `FF C2 00 02`), through which a client sends raw commands to a Type 2 tag.
///
/// The command data is a list of BER-TLV data objects, carried out in order (the data-object
/// tags as the ACS ACR1252U and ACR1552U reference manuals and Microsoft's NFC design guide
/// list them):
/// - Manage Session: `80` version (answers `80 03 01 00 00`), `81 00` start session, `82 00`
///   end session, `83 00` RF off, `84 00` RF on (both within a session), `5F 46 04` timer
///   (microseconds, least significant byte first; accepted, not waited).
/// - Transparent Exchange (within a session): `90 02` transmission and reception flags (bit 0
///   no CRC on transmit, bit 1 no CRC check on receive, bit 2 / bit 3 no parity, bit 4 no
///   protocol prologue: the second byte holds bits 7-0), `91 01` transmission bit framing,
///   `92 01` reception bit framing, `93` transmit, `94 00` receive, `95` transceive, `5F 46`.
/// - Switch Protocol (within a session): `8F 02 SS LL` with SS 00 (ISO/IEC 14443 Type A) and
///   layer 2, 3 (answers `8F 01 SAK`) or 4 (answers `5F 51` and the ATR).
///
/// The response: the generic error status `C0 03 00 90 00` (all done) or `C0 03 NN SW1 SW2`
/// (data object number NN, from 1, failed: `63 00` no information, `63 01` execution
/// stopped, `67 00` wrong length, `6A 81` data object not supported, `64 01` no response
/// from the card), then the response data objects of the data objects carried out, then
/// `90 00`. A transceive answers `92 01` (valid bits in the last byte), `96 02 SS 00`
/// (status: bit 0 CRC error) and `97` with the bytes received; a 4-bit ACK or NAK arrives as
/// one byte with 4 valid bits, and with the CRC check on it is flagged as a CRC error. For an
/// ISO-DEP tag, with the prologue on, the transceived data is an APDU. Frames whose last
/// byte has fewer than 8 bits, or sent without parity, get no answer (not simulated).
struct TransparentSession: Sendable {
    /// What one data object did.
    enum Step: Sendable, Hashable {
        /// Done, with these response data objects.
        case output([UInt8])
        /// Failed with this status word.
        case failure([UInt8])
        /// The tags left the field.
        case tagLeft
    }

    static let noInformation: [UInt8] = [0x63, 0x00]
    static let executionStopped: [UInt8] = [0x63, 0x01]
    static let noCardResponse: [UInt8] = [0x64, 0x01]
    static let notSupported: [UInt8] = [0x6A, 0x81]
    static let wrongLength: [UInt8] = [0x67, 0x00]

    /// Bits of the transmission and reception flags (`90`).
    static let noTransmitCRC: UInt16 = 0x01
    static let noReceiveCRC: UInt16 = 0x02
    static let noParity: UInt16 = 0x0C
    static let noPrologue: UInt16 = 0x10

    /// Whether a session was started and not ended.
    var isOpen = false
    /// The transmission and reception flags.
    var flags: UInt16 = 0
    /// The valid bits of the last byte transmitted (0: all 8).
    var transmitLastBits: UInt8 = 0
    /// The timer last set, in microseconds.
    var timerMicroseconds: UInt32?

    /// Runs `FF C2 00 P2` with its data objects.
    mutating func run(
        _ command: CommandAPDU, _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> ContactlessReaderEmulator.Outcome {
        guard command.p1 == 0x00, command.p2 <= 0x02 else { return .response(Self.notSupported) }
        guard command.hasCommandData else { return .response(StatusWord.wrongLength.bytes) }
        var reader = BERTLV.Reader(Array(command.data))
        var output: [UInt8] = []
        var number = 0
        var failure: [UInt8]?
        while !reader.isAtEnd, failure == nil {
            number += 1
            guard let object = reader.next() else {
                failure = Self.wrongLength
                break
            }
            switch step(object, p2: command.p2, &field, &activeUID) {
            case .output(let bytes): output += bytes
            case .failure(let status): failure = status
            case .tagLeft: return .tagLeft
            }
        }
        let status = failure.map { [UInt8(truncatingIfNeeded: number)] + $0 } ?? [0x00, 0x90, 0x00]
        return .response([0xC0, 0x03] + status + output + StatusWord.success.bytes)
    }

    private mutating func step(
        _ object: BERTLV.DataObject, p2: UInt8, _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Step {
        let value = object.value
        if object.tag == 0x5F46 {
            guard value.count == 4 else { return .failure(Self.wrongLength) }
            timerMicroseconds = value.reversed().reduce(0) { $0 << 8 | UInt32($1) }
            return .output([])
        }
        switch (p2, object.tag) {
        case (0x00, 0x80): return .output([0x80, 0x03, 0x01, 0x00, 0x00])
        case (0x00, 0x81...0x84): return manage(UInt8(truncatingIfNeeded: object.tag), value, &field)
        case (0x01, 0x90...0x95):
            guard isOpen else { return .failure(Self.noInformation) }
            return exchange(UInt8(truncatingIfNeeded: object.tag), value, &field)
        case (0x02, 0x8F):
            guard isOpen else { return .failure(Self.noInformation) }
            return switchProtocol(value, &field, &activeUID)
        default: return .failure(Self.notSupported)
        }
    }

    /// Start and end session, RF off and on.
    private mutating func manage(_ tag: UInt8, _ value: [UInt8], _ field: inout SimulatedField) -> Step {
        guard value.isEmpty else { return .failure(Self.wrongLength) }
        switch tag {
        case 0x81:
            self = TransparentSession()
            isOpen = true
        case 0x82:
            self = TransparentSession()
        case 0x83:
            guard isOpen else { return .failure(Self.executionStopped) }
            field.fieldOff()
        default:
            guard isOpen else { return .failure(Self.executionStopped) }
            field.fieldOn()
        }
        return .output([])
    }

    /// The data objects of Transparent Exchange.
    private mutating func exchange(_ tag: UInt8, _ value: [UInt8], _ field: inout SimulatedField) -> Step {
        switch tag {
        case 0x90:
            guard value.count == 2 else { return .failure(Self.wrongLength) }
            flags = UInt16(value[0]) << 8 | UInt16(value[1])
            return .output([])
        case 0x91:
            guard value.count == 1 else { return .failure(Self.wrongLength) }
            transmitLastBits = value[0] & 0x07
            return .output([])
        case 0x92:
            return value.count == 1 ? .output([]) : .failure(Self.wrongLength)
        case 0x93:
            guard !value.isEmpty else { return .failure(Self.wrongLength) }
            switch transceive(value, &field) {
            case .tagLeft: return .tagLeft
            default: return .output([])
            }
        case 0x94:
            return value.isEmpty ? .failure(Self.noCardResponse) : .failure(Self.wrongLength)
        default:
            guard !value.isEmpty else { return .failure(Self.wrongLength) }
            return transceive(value, &field)
        }
    }

    /// Sends `frame` to the selected tag and returns the response data objects.
    private mutating func transceive(_ frame: [UInt8], _ field: inout SimulatedField) -> Step {
        let noResponse = Step.failure(Self.noCardResponse)
        guard flags & Self.noParity == 0, transmitLastBits == 0, let selected = field.selectedTag else {
            return noResponse
        }
        if case .type4 = selected {
            guard flags & Self.noPrologue == 0 else { return noResponse }
            switch ContactlessReaderEmulator.exchangeAPDU(frame, &field) {
            case .tagLeft: return .tagLeft
            case .answer(let response): return .output(Self.received(response, lastBits: 0, status: 0x00))
            case .silent: return noResponse
            }
        }
        let checksCRC = flags & Self.noReceiveCRC == 0
        guard let body = flags & Self.noTransmitCRC == 0 ? frame : CRCA.stripping(frame) else { return noResponse }
        if body == [0x50, 0x00] {
            field.haltSelected()
            return noResponse
        }
        switch ContactlessReaderEmulator.exchangeFrame(body, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.silent), .reply(.answer(.silent)), .reply(.corrupted(.silent)): return noResponse
        case .reply(.answer(.data(let bytes))):
            return .output(Self.received(checksCRC ? bytes : CRCA.appending(to: bytes), lastBits: 0, status: 0x00))
        case .reply(.corrupted(.data(let bytes))):
            guard !checksCRC, let first = bytes.first else {
                return .output(Self.received(bytes, lastBits: 0, status: 0x01))
            }
            let sent = [first ^ 0xFF] + bytes.dropFirst()
            return .output(Self.received(bytes + CRCA.checksum(sent), lastBits: 0, status: 0x00))
        case .reply(.answer(let nibble)), .reply(.corrupted(let nibble)):
            let status: UInt8 = checksCRC ? 0x01 : 0x00
            return .output(Self.received([PN532Emulation.nibble(nibble)], lastBits: 4, status: status))
        }
    }

    /// The response data objects of a transceive: `92 01` valid bits, `96 02` status, `97` data.
    static func received(_ bytes: [UInt8], lastBits: UInt8, status: UInt8) -> [UInt8] {
        [0x92, 0x01, lastBits, 0x96, 0x02, status, 0x00] + BERTLV.encode(tag: 0x97, bytes)
    }

    /// Switch Protocol to ISO/IEC 14443 Type A layer 2, 3 or 4: layers 3 and 4 activate the
    /// tag again (the one activated before, else the first in the field).
    private mutating func switchProtocol(
        _ value: [UInt8], _ field: inout SimulatedField, _ activeUID: inout [UInt8]?
    ) -> Step {
        guard value.count == 2 else { return .failure(Self.wrongLength) }
        let (standard, layer) = (value[0], value[1])
        guard standard == 0x00 else { return .failure(Self.noInformation) }
        if layer == 0x02 || layer & 0xF0 == 0x20 { return .output([]) }
        let toLayer3 = layer == 0x03 || layer & 0xF0 == 0x30
        guard toLayer3 || layer == 0x04 || layer == 0xFF else { return .failure(Self.noInformation) }
        field.fieldOn()
        let previous = activeUID.flatMap { uid in field.tags.first { $0.uid == uid } }
        guard let tag = previous ?? field.tags.first, field.select(uid: tag.uid) else {
            return .failure(Self.noCardResponse)
        }
        activeUID = tag.uid
        if toLayer3 { return .output([0x8F, 0x01, tag.sak]) }
        return .output(BERTLV.encode(tag: 0x5F51, ContactlessReaderEmulator.answerToReset(for: tag)))
    }
}
