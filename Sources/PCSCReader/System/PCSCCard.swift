internal import CPCSC

/// A connection to the card in one reader (`SCardConnect`), disconnected when the object goes
/// away (`SCardDisconnect`, leaving the card as it is).
///
/// Not `Sendable`: one ``PCSCReaderDevice`` owns it and calls it from its own executor. It keeps
/// its ``PCSCContext`` alive.
final class PCSCCard {
    /// T=0 or T=1, whichever the reader offers (contactless readers use T=1).
    static let protocols = DWORD(SCARD_PROTOCOL_T0 | SCARD_PROTOCOL_T1)

    /// The largest answer pcsc-lite passes (MAX_BUFFER_SIZE_EXTENDED: an extended APDU response
    /// of 65 536 bytes plus status and headers).
    static let receiveBufferSize = 4 + 3 + (1 << 16) + 3 + 2

    let context: PCSCContext
    let readerName: String
    private let handle: SCARDHANDLE
    private let share: DWORD
    private var activeProtocol: DWORD
    private var isConnected = true

    init(context: PCSCContext, handle: SCARDHANDLE, activeProtocol: DWORD, readerName: String, share: DWORD) {
        self.context = context
        self.handle = handle
        self.activeProtocol = activeProtocol
        self.readerName = readerName
        self.share = share
    }

    deinit {
        if isConnected { _ = SCardDisconnect(handle, DWORD(SCARD_LEAVE_CARD)) }
    }

    /// Sends one APDU and returns the answer as the reader gave it (`SCardTransmit`).
    func transmit(_ apdu: [UInt8]) throws(PCSCError) -> [UInt8] {
        var sendPCI = activeProtocol == DWORD(SCARD_PROTOCOL_T0) ? g_rgSCardT0Pci : g_rgSCardT1Pci
        var answer = [UInt8](repeating: 0, count: Self.receiveBufferSize)
        var length = DWORD(answer.count)
        let result = apdu.withUnsafeBufferPointer { command in
            answer.withUnsafeMutableBufferPointer { buffer in
                SCardTransmit(
                    handle, &sendPCI, command.baseAddress, DWORD(command.count), nil, buffer.baseAddress, &length)
            }
        }
        try PCSCError.check(result, "SCardTransmit", reader: readerName)
        return Array(answer.prefix(min(answer.count, Int(exactly: length) ?? 0)))
    }

    /// Sends a control request to the reader driver (`SCardControl`) and returns its answer.
    func control(_ code: UInt32, _ data: [UInt8] = []) throws(PCSCError) -> [UInt8] {
        var answer = [UInt8](repeating: 0, count: 1024)
        var length: DWORD = 0
        let result = data.withUnsafeBufferPointer { input in
            answer.withUnsafeMutableBufferPointer { buffer in
                SCardControl(
                    handle, DWORD(code), input.baseAddress, DWORD(input.count), buffer.baseAddress,
                    DWORD(buffer.count), &length)
            }
        }
        try PCSCError.check(result, "SCardControl", reader: readerName)
        return Array(answer.prefix(min(answer.count, Int(exactly: length) ?? 0)))
    }

    /// The largest APDU data field the reader driver reports (PC/SC 2.02 Part 10,
    /// `dwMaxAPDUDataSize`; 0 for short APDUs only); nil when the driver does not say.
    func reportedMaximumAPDUDataSize() -> Int? {
        guard let features = try? control(Part10Properties.featureRequestCode),
            let code = Part10Properties.controlCode(of: Part10Properties.tlvPropertiesFeature, in: features),
            let properties = try? control(code)
        else { return nil }
        return Part10Properties.property(Part10Properties.maximumAPDUDataSizeTag, in: properties)
    }

    /// The card's ATR and state (`SCardStatus`).
    func status() throws(PCSCError) -> (atr: [UInt8], state: UInt32) {
        var nameBuffer = [CChar](repeating: 0, count: Int(MAX_READERNAME) + 1)
        var nameLength = DWORD(nameBuffer.count)
        var state: DWORD = 0
        var cardProtocol: DWORD = 0
        var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
        var atrLength = DWORD(atr.count)
        let result = nameBuffer.withUnsafeMutableBufferPointer { name in
            atr.withUnsafeMutableBufferPointer { atrBuffer in
                SCardStatus(
                    handle, name.baseAddress, &nameLength, &state, &cardProtocol, atrBuffer.baseAddress, &atrLength)
            }
        }
        try PCSCError.check(result, "SCardStatus", reader: readerName)
        return (Array(atr.prefix(min(atr.count, Int(exactly: atrLength) ?? 0))), UInt32(truncatingIfNeeded: state))
    }

    /// Resets the card and connects again (`SCardReconnect` with `SCARD_RESET_CARD`): a
    /// contactless reader activates the tag anew, so it leaves HALT or IDLE and any
    /// authentication ends.
    func reset() throws(PCSCError) {
        var newProtocol: DWORD = 0
        let result = SCardReconnect(handle, share, Self.protocols, DWORD(SCARD_RESET_CARD), &newProtocol)
        try PCSCError.check(result, "SCardReconnect", reader: readerName)
        activeProtocol = newProtocol
    }

    /// Disconnects, powering the card down (`SCARD_UNPOWER_CARD`: the reader switches the field
    /// off for it, so the tag returns to its power-on state); failures are ignored.
    func disconnectUnpowering() {
        guard isConnected else { return }
        isConnected = false
        _ = SCardDisconnect(handle, DWORD(SCARD_UNPOWER_CARD))
    }
}

@available(*, unavailable)
extension PCSCCard: Sendable {}

/// The reader-driver features of PC/SC 2.02 Part 10 (section 2.2) that the backend uses: the
/// feature list of `CM_IOCTL_GET_FEATURE_REQUEST` and the TLV properties of
/// `FEATURE_GET_TLV_PROPERTIES`.
enum Part10Properties {
    /// `SCARD_CTL_CODE(3400)`: asks the driver for its features (Part 10, 2.2).
    static let featureRequestCode: UInt32 = 0x4200_0000 + 3400
    /// `FEATURE_GET_TLV_PROPERTIES` (Part 10, 2.3).
    static let tlvPropertiesFeature: UInt8 = 0x12
    /// `PCSCv2_PART10_PROPERTY_dwMaxAPDUDataSize` (Part 10, 2.6.14).
    static let maximumAPDUDataSizeTag: UInt8 = 0x0A

    /// The control code of `feature` in a feature-request answer: TLVs of a tag byte, a length
    /// byte of 4 and the control code most significant byte first. Nil when it is not listed or
    /// the answer is malformed.
    static func controlCode(of feature: UInt8, in answer: [UInt8]) -> UInt32? {
        var index = 0
        while index + 2 <= answer.count {
            let tag = answer[index]
            let length = Int(answer[index + 1])
            let valueStart = index + 2
            guard valueStart + length <= answer.count else { return nil }
            if tag == feature, length == 4 {
                return answer[valueStart..<valueStart + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            index = valueStart + length
        }
        return nil
    }

    /// The value of property `tag` in a TLV-properties answer: TLVs of a tag byte, a length byte
    /// and a value of 1, 2 or 4 bytes, least significant byte first. Nil when it is not there or
    /// the answer is malformed.
    static func property(_ tag: UInt8, in answer: [UInt8]) -> Int? {
        var index = 0
        while index + 2 <= answer.count {
            let found = answer[index]
            let length = Int(answer[index + 1])
            let valueStart = index + 2
            guard valueStart + length <= answer.count else { return nil }
            if found == tag, [1, 2, 4].contains(length) {
                return answer[valueStart..<valueStart + length].reversed().reduce(0) { $0 << 8 | Int($1) }
            }
            index = valueStart + length
        }
        return nil
    }
}
