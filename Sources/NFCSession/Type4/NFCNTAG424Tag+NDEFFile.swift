import HexText
import NDEF
import NTAG424

/// The NDEF file (E104h) of an NTAG 424 DNA through the ISO commands of its NDEF application
/// (NT4H2421Gx 10.9), for a caller that knows the file: no CC is read.
extension NFCNTAG424Tag {
    /// The largest piece read or written with one ISOReadBinary or ISOUpdateBinary: within a
    /// short APDU and the frames of PN532 and PC/SC readers.
    static let filePiece = 240

    /// The NDEF file's message as a phone reads it, with what SDM mirrors (NT4H2421Gx 9.3): with
    /// the NDEF application selected, ISOSelectFile E104h, then ISOReadBinary of NLEN and of the
    /// message (pieces of at most 240 bytes); nil for NLEN 0. Without a session, as a phone:
    /// with SDM on, this read counts.
    ///
    /// - Throws: ``NFCReaderError/Code/tagResponseError`` for a status word other than 90 00;
    ///   ``NFCReaderError/Code/invalidMessage`` for an NLEN past the file.
    public func ndefMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
        try check(await tag.sendCommand(apdu: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]), "ISOSelectFile E104")
        let lengthField = try await tag.sendCommand(apdu: [0x00, 0xB0, 0x00, 0x00, 0x02])
        try check(lengthField, "ISOReadBinary of NLEN")
        guard lengthField.data.count == 2 else {
            throw NFCReaderError(.tagResponseError, "ISOReadBinary of NLEN gave \(lengthField.data.count) bytes")
        }
        let length = Int(lengthField.data[0]) << 8 | Int(lengthField.data[1])
        guard length > 0 else { return nil }
        guard length <= 254 else {
            throw NFCReaderError(.invalidMessage, "NLEN \(length) is past the 256-byte NDEF file")
        }
        var bytes: [UInt8] = []
        while bytes.count < length {
            let offset = 2 + bytes.count
            let piece = min(Self.filePiece, length - bytes.count)
            let response = try await tag.sendCommand(apdu: [
                0x00, 0xB0, UInt8(offset >> 8), UInt8(truncatingIfNeeded: offset), UInt8(piece),
            ])
            try check(response, "ISOReadBinary at \(offset)")
            guard response.data.count == piece else {
                throw NFCReaderError(.tagResponseError, "ISOReadBinary at \(offset) gave \(response.data.count) bytes")
            }
            bytes += response.data
        }
        return bytes
    }

    /// The whole NDEF file, `count` bytes from offset 0, as ISOReadBinary gives it (with SDM on,
    /// with what SDM mirrors): ISOSelectFile E104h, then pieces of at most 240 bytes.
    ///
    /// - Throws: ``NFCReaderError/Code/tagResponseError`` for a status word other than 90 00 or a
    ///   short piece.
    public func ndefFileBytes(count: Int = 256) async throws(NFCReaderError) -> [UInt8] {
        try check(await tag.sendCommand(apdu: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]), "ISOSelectFile E104")
        var bytes: [UInt8] = []
        while bytes.count < count {
            let piece = min(Self.filePiece, count - bytes.count)
            let response = try await tag.sendCommand(apdu: [
                0x00, 0xB0, UInt8(bytes.count >> 8), UInt8(truncatingIfNeeded: bytes.count), UInt8(piece),
            ])
            try check(response, "ISOReadBinary at \(bytes.count)")
            guard response.data.count == piece else {
                throw NFCReaderError(
                    .tagResponseError, "ISOReadBinary at \(bytes.count) gave \(response.data.count) bytes")
            }
            bytes += response.data
        }
        return bytes
    }

    /// Writes `file` (NLEN, then the message) to the NDEF file in the order of T4T 3.0, 5.5.7:
    /// ISOSelectFile E104h, NLEN 0 (left out when `emptyAlready`: NLEN was read as 0 in this
    /// session), the message in pieces, NLEN last (a `file` with NLEN 0 in pieces from offset 0,
    /// the first of which empties it); then the file is read back and compared, but
    /// for `mirroredRanges` (offsets SDM now mirrors into, which a read shows changed). A cut
    /// leaves the old message, an empty file or the new message, never a part of one under a
    /// length that claims it whole.
    ///
    /// - Throws: ``NFCReaderError/Code/tagSizeTooSmall`` for a file over 256 bytes;
    ///   ``NFCReaderError/Code/tagUpdateFailure`` (may be half-written) when the read-back differs;
    ///   ``NFCReaderError/Code/tagResponseError`` for a status word other than 90 00.
    public func writeNDEFFile(
        _ file: [UInt8], emptyAlready: Bool = false, mirroredRanges: [Range<Int>] = []
    ) async throws(NFCReaderError) {
        guard file.count >= 2, file.count <= 256 else {
            throw NFCReaderError(.tagSizeTooSmall, "the NDEF file holds 256 bytes, not \(file.count)", capacity: 254)
        }
        try check(await tag.sendCommand(apdu: [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]), "ISOSelectFile E104")
        // A file with NLEN 0 (no message, as a reset writes it) goes from offset 0: its first
        // piece empties the file, and no last NLEN is needed.
        let isEmpty = file[0] == 0 && file[1] == 0
        if !emptyAlready && !isEmpty { try await update(offset: 0, [0x00, 0x00]) }
        var offset = isEmpty ? 0 : 2
        while offset < file.count {
            let end = min(file.count, offset + Self.filePiece)
            try await update(offset: offset, Array(file[offset..<end]))
            offset = end
        }
        if !isEmpty { try await update(offset: 0, Array(file[0..<2])) }
        var readBack: [UInt8] = []
        while readBack.count < file.count {
            let piece = min(Self.filePiece, file.count - readBack.count)
            let response = try await tag.sendCommand(apdu: [
                0x00, 0xB0, UInt8(readBack.count >> 8), UInt8(truncatingIfNeeded: readBack.count), UInt8(piece),
            ])
            try check(response, "ISOReadBinary at \(readBack.count)")
            readBack += response.data
            if response.data.isEmpty { break }
        }
        var expected = file
        // A mirror of the settings in force may reach past the end of a shorter new message.
        let end = min(file.count, readBack.count)
        for range in mirroredRanges where range.lowerBound >= 0 && range.lowerBound < end {
            let shown = range.lowerBound..<min(range.upperBound, end)
            expected.replaceSubrange(shown, with: readBack[shown])
        }
        guard readBack == expected else {
            throw NFCReaderError(
                .tagUpdateFailure, "the NDEF file does not read back as written", mayBeHalfWritten: true)
        }
    }

    /// Writes `file` (NLEN, then the message) to the NDEF file (02) with WriteData (10.8.2) in
    /// the session with key 0 this tag holds, in `mode` (the file's CommMode), in the order of
    /// ``writeNDEFFile(_:emptyAlready:mirroredRanges:)``: NLEN 0 (left out when `emptyAlready`),
    /// the message in pieces, NLEN last. The caller reads it back once the session has ended
    /// (ISOReadBinary is refused in one).
    ///
    /// - Throws: the errors of WriteData; any after the first may leave the file half-written.
    public func writeNDEFFileWithKey0(
        _ file: [UInt8], mode: NTAG424CommunicationMode, emptyAlready: Bool = false
    ) async throws(NFCReaderError) {
        guard file.count >= 2, file.count <= 256 else {
            throw NFCReaderError(.tagSizeTooSmall, "the NDEF file holds 256 bytes, not \(file.count)", capacity: 254)
        }
        // WriteData in CommMode Full pads and MACs the data: pieces of 128 bytes fit any frame.
        let piece = 128
        var written = false
        let isEmpty = file[0] == 0 && file[1] == 0
        do {
            if !emptyAlready && !isEmpty {
                try await writeData(file: 0x02, offset: 0, data: [0x00, 0x00], mode: mode)
                written = true
            }
            var offset = isEmpty ? 0 : 2
            while offset < file.count {
                let end = min(file.count, offset + piece)
                try await writeData(file: 0x02, offset: offset, data: Array(file[offset..<end]), mode: mode)
                written = true
                offset = end
            }
            if !isEmpty { try await writeData(file: 0x02, offset: 0, data: Array(file[0..<2]), mode: mode) }
        } catch {
            guard written else { throw error }
            throw NFCReaderError(error.code, error.reason, mayBeHalfWritten: true)
        }
    }

    /// ISOUpdateBinary of `data` at `offset` in the selected file; a failure may leave it half-written.
    private func update(offset: Int, _ data: [UInt8]) async throws(NFCReaderError) {
        let response = try await tag.sendCommand(
            apdu: [0x00, 0xD6, UInt8(offset >> 8), UInt8(truncatingIfNeeded: offset), UInt8(data.count)] + data)
        do {
            try check(response, "ISOUpdateBinary at \(offset)")
        } catch {
            var failed = error
            failed.mayBeHalfWritten = true
            throw failed
        }
    }

    /// Throws ``NFCReaderError/Code/tagResponseError`` unless `response` ends in 90 00.
    private func check(_ response: (data: [UInt8], sw1: UInt8, sw2: UInt8), _ what: String) throws(NFCReaderError) {
        guard response.sw1 == 0x90, response.sw2 == 0x00 else {
            throw NFCReaderError(.tagResponseError, "\(what) answered \(Hex.bytes([response.sw1, response.sw2]))")
        }
    }
}
