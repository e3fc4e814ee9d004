import NFCWireFormat
import TagSimulator

extension PN532Emulation {
    /// InCommunicateThru (UM0701 7.3.9): the frame goes to the tag as it is, framed by the CIU
    /// registers. With TxCRCEn off the host has appended CRC_A (a wrong one: the tag ignores the
    /// frame); with RxCRCEn off the answer comes with its CRC_A. A 4-bit ACK or NAK fails the
    /// CIU's CRC check while RxCRCEn is on (status 02, as nfcpy's PN53x driver notes); with it
    /// off it arrives as one byte (`0A` for ACK) and CIU_Control reports 4 valid bits.
    /// HLTA (`50 00`) halts the tag, which does not answer (status 01). Frames of fewer than 8
    /// bits in their last byte (TxLastBits, as REQA or the magic-card backdoor `40` use) are
    /// not simulated: no tag answers them (status 01), as a genuine NTAG does not answer `40`.
    /// Nor does a Type A tag answer a frame sent with another framing (CIU_TxMode bits 1-0 not
    /// 00: FeliCa or Type B, as libnfc's probes for ST SRx, ASK CTS and iClass cards use). No
    /// data at all only listens (libnfc's probe for a Thinfilm barcode, which talks first):
    /// nothing comes (status 01). A selected Type 4 tag takes ISO/IEC 14443-4 blocks
    /// (``ISODEPBlockLink``: RATS, I-blocks with APDUs, R-blocks, S(DESELECT)).
    mutating func communicateThru(_ arguments: [UInt8], _ field: inout SimulatedField) -> Result {
        rxLastBits = 0
        let timeout = Result.response([0xD5, 0x43, 0x01])
        guard !arguments.isEmpty, (registers[Self.txMode] ?? 0) & 0x03 == 0 else { return timeout }
        guard (registers[Self.bitFraming] ?? 0) & 0x07 == 0 else { return timeout }
        guard let frame = appendsCRC ? arguments : CRCA.stripping(arguments) else { return timeout }
        if frame == [0x50, 0x00] {
            field.haltSelected()
            return timeout
        }
        if case .type4? = field.selectedTag {
            switch isoDEP.receive(frame, &field) {
            case .tagLeft: return .tagLeft
            case .silent: return timeout
            case .block(let block):
                return .response([0xD5, 0x43, 0x00] + (checksCRC ? block : CRCA.appending(to: block)))
            }
        }
        switch ContactlessReaderEmulator.exchangeFrame(frame, &field) {
        case .tagLeft: return .tagLeft
        case .reply(.silent), .reply(.answer(.silent)), .reply(.corrupted(.silent)): return timeout
        case .reply(.answer(.data(let bytes))):
            return .response([0xD5, 0x43, 0x00] + (checksCRC ? bytes : CRCA.appending(to: bytes)))
        case .reply(.corrupted(.data(let bytes))):
            guard !checksCRC, let first = bytes.first else { return .response([0xD5, 0x43, 0x02]) }
            let sent = [first ^ 0xFF] + bytes.dropFirst()
            return .response([0xD5, 0x43, 0x00] + bytes + CRCA.checksum(sent))
        case .reply(.answer(let nibble)), .reply(.corrupted(let nibble)):
            rxLastBits = 4
            guard !checksCRC else { return .response([0xD5, 0x43, 0x02]) }
            return .response([0xD5, 0x43, 0x00, Self.nibble(nibble)])
        }
    }

    /// The 4-bit answer as the byte the CIU receives: ACK Ah, a NAK its code.
    static func nibble(_ response: SimulatedType2Response) -> UInt8 {
        switch response {
        case .nak(let code): code & 0x0F
        default: 0x0A
        }
    }
}
