internal import CLibNFC
import NFCSession

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
