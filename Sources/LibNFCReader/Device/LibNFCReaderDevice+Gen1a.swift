internal import CLibNFC
import NFCSession
import NFCWireFormat

/// The "Gen1a" backdoor of magic MIFARE Classic clones, probed in raw mode.
extension LibNFCReaderDevice {
    /// HLTA, then the 7-bit frame 40h and, when the card acknowledges it, 43h, all without
    /// CRC (`nfc_initiator_transceive_bits`, easy framing and the PN53x's CRC off), as libnfc's
    /// `nfc-mfsetuid` sends them: whether the card acknowledged both (4-bit ACK Ah). Nothing is
    /// written; the card is left halted, and ``select(_:)`` (which resets the field) wakes it.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no card is selected;
    ///   ``NFCSession/NFCReaderError/Code/tagResponseError`` when the selected tag is no MIFARE
    ///   Classic card; a libnfc failure other than a time-out, as the reader error it means.
    public func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool {
        let handle = try openHandle()
        let target = try selectedTarget()
        guard target.kind == .mifareClassic else {
            throw NFCReaderError(
                .tagResponseError, "the selected tag \(target.uidDescription) is not a MIFARE Classic card")
        }
        do {
            try useFraming(.raw, handle)
            // HLTA with its CRC_A (ISO/IEC 14443-3 6.4.3): no answer is expected.
            _ = try? exchange([0x50, 0x00, 0x57, 0xCD], handle)
            guard try shortFrame(0x40, bits: 7, handle) == 0x0A else { return false }
            return try shortFrame(0x43, bits: 8, handle) == 0x0A
        } catch {
            throw error.readerError
        }
    }

    /// Sends `bits` bits of `byte` without CRC and returns the 4-bit answer, or nil when nothing
    /// or something else came (a time-out is no answer).
    private func shortFrame(_ byte: UInt8, bits: Int, _ handle: LibNFCDeviceHandle) throws(LibNFCError) -> UInt8? {
        var command = [byte]
        var answer = [UInt8](repeating: 0, count: 4)
        let received = command.withUnsafeMutableBufferPointer { sent in
            answer.withUnsafeMutableBufferPointer { buffer in
                nfc_initiator_transceive_bits(
                    handle.pointer, sent.baseAddress, bits, nil, buffer.baseAddress, buffer.count, nil)
            }
        }
        if received == LibNFCStatusCode.timeout.rawValue || received == LibNFCStatusCode.rfTransmission.rawValue {
            return nil
        }
        let count = try handle.check(received, "nfc_initiator_transceive_bits")
        return count == 4 ? answer[0] & 0x0F : nil
    }
}
