import HexText
import NFCCrypto
import NFCWireFormat
import TagMemory

/// Raw commands and the NXP originality and version commands (NTAG213/215/216 section 10,
/// MF0ULX1 section 8).
extension NFCMiFareTag {
    /// Sends one raw command frame, as CoreNFC's `sendMiFareCommand` does, and returns the answer.
    ///
    /// The frame is sent without CRC: the reader appends CRC_A and checks and strips the answer's
    /// (ISO/IEC 14443-3 6.2.4). A 4-bit ACK is returned as `[0x0A]`. Nothing is planned or checked:
    /// a raw WRITE goes out as given. A successful PWD_AUTH (1Bh with a 2-byte answer) marks the tag
    /// authenticated.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for an empty frame;
    ///   ``NFCReaderError/Code/unsupportedFeature`` for a command other than READ (30h) and WRITE
    ///   (A2h) through a reader without raw commands, or FAST_READ (3Ah) without FAST_READ support;
    ///   ``NFCReaderError/Code/tagResponseError`` for a NAK, whose code ``NFCReaderError/nakCode`` and the reason give (0h invalid
    ///   argument, 1h CRC or parity error, 4h authentication counter overflow, 5h EEPROM write
    ///   error; NTAG213/215/216 9.3): the tag went back to IDLE and is selected again before the
    ///   next command, which ends any authentication.
    public func sendMiFareCommand(_ command: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        guard let opcode = command.first else {
            throw NFCReaderError(.invalidParameter, "an empty command frame")
        }
        let capabilities = reader.capabilities
        if opcode == Type2Command.fastRead.opcode, !capabilities.supportsFastRead {
            throw NFCReaderError(.unsupportedFeature, "the reader \(reader.name) does not pass FAST_READ")
        }
        if opcode != Type2Command.read.opcode, opcode != Type2Command.write.opcode, !capabilities.supportsRawCommands {
            throw NFCReaderError(
                .unsupportedFeature,
                "the reader \(reader.name) passes only READ and WRITE, not command \(Hex.bytes([opcode]))")
        }
        try await beginOperation()
        defer { endOperation() }
        switch try await exchange(command) {
        case .data(let bytes):
            if opcode == Type2Command.passwordAuthentication.opcode, bytes.count == 2 { authenticated = true }
            return bytes
        case .ack:
            return [0x0A]
        case .nak(let code):
            throw NFCReaderError(
                .tagResponseError,
                "command \(Hex.bytes([opcode])) answered NAK \(Hex.number(code))h; "
                    + "the tag is selected again before the next command", nakCode: code)
        }
    }

    /// READ_SIG 3Ch 00h: the 32-byte ECC originality signature over the UID (NTAG213/215/216 10.8,
    /// 8.9; MF0ULX1 8.8). ``checkOriginality(keys:)`` also checks it.
    public func readSignature() async throws(NFCReaderError) -> [UInt8] {
        try checkFeature(.readSignature, name: "READ_SIG")
        try await beginOperation()
        defer { endOperation() }
        return try await dataAnswer(.readSignature, [0x00], count: 32)
    }

    /// Reads the originality signature (one READ_SIG) and checks it against `keys`, by default
    /// NXP's published keys (``NFCOriginalityKey/nxpKeys``; AN11350): whether the chip is a
    /// genuine one of the keys' owners.
    ///
    /// - Throws: ``NFCReaderError/Code/unsupportedFeature`` for a chip without READ_SIG; the
    ///   errors of the command; ``NFCReaderError/Code/unsupportedFeature`` when libcrypto cannot
    ///   run the check.
    public func checkOriginality(
        keys: [NFCOriginalityKey] = NFCOriginalityKey.nxpKeys
    ) async throws(NFCReaderError) -> OriginalitySignatureCheck {
        try NFCOriginalityKey.checkRead(signature: try await readSignature(), uid: identifier, keys: keys)
    }

    /// READ_CNT 39h: a 24-bit counter, sent least significant byte first (NTAG213/215/216 10.6: the
    /// NFC counter is number 2, readable when NFC_CNT_EN is set; MF0ULX1 8.7: counters 0-2).
    ///
    /// - Throws: ``NFCReaderError/Code/tagResponseError`` for a NAK (the counter is disabled or
    ///   password-protected, NFC_CNT_PWD_PROT).
    public func readCounter(number: UInt8 = 2) async throws(NFCReaderError) -> UInt32 {
        try checkFeature(.readCounter, name: "READ_CNT")
        try await beginOperation()
        defer { endOperation() }
        let bytes = try await dataAnswer(.readCounter, [number], count: 3)
        return UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16
    }

    /// GET_VERSION 60h, sent as one byte (NTAG213/215/216 10.1; libfreefare issue 112): the 8-byte
    /// version (vendor, type, subtype, major and minor version, storage size, protocol).
    public func readVersion() async throws(NFCReaderError) -> [UInt8] {
        try checkFeature(.getVersion, name: "GET_VERSION")
        try await beginOperation()
        defer { endOperation() }
        return try await dataAnswer(.getVersion, [], count: 8)
    }

    /// Throws ``NFCReaderError/Code/unsupportedFeature`` when the reader has no raw commands or the
    /// identified chip lacks `feature`.
    private nonisolated func checkFeature(_ feature: Type2Chip.Features, name: String) throws(NFCReaderError) {
        guard reader.capabilities.supportsRawCommands else {
            throw NFCReaderError(.unsupportedFeature, "the reader \(reader.name) cannot send \(name) (no raw commands)")
        }
        if let chip, !chip.features.contains(feature) {
            throw NFCReaderError(.unsupportedFeature, "\(chip.name) has no \(name) command")
        }
    }

    /// The data answer of `frame`, which must have `count` bytes.
    private func dataAnswer(
        _ command: Type2Command, _ parameters: [UInt8], count: Int
    ) async throws(NFCReaderError) -> [UInt8] {
        let name = command.name
        switch try await exchange(command.frame(parameters)) {
        case .data(let bytes) where bytes.count == count:
            return bytes
        case .nak(let code):
            throw NFCReaderError(.tagResponseError, "\(name) was refused (NAK \(code)h)")
        case .data(let bytes):
            throw NFCReaderError(.tagResponseError, "\(name) answered \(bytes.count) bytes, not \(count)")
        case .ack:
            throw NFCReaderError(.tagResponseError, "\(name) answered ACK instead of data")
        }
    }
}
