import HexText

extension NTAG424FileSettings {
    /// The settings in a GetFileSettings response (FileType first).
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for a response that is too short, has
    ///   bytes left over, or holds an access nibble the chip does not take.
    public init(response bytes: [UInt8]) throws(NTAG424Error) {
        guard bytes.count >= 7, bytes[0] == 0x00 else {
            throw NTAG424Error(.invalidInput, "file settings start with FileType 00h and take 7 bytes at least")
        }
        var reader = SettingsReader(bytes: Array(bytes[7...]))
        let size = NTAG424Bytes.integer(littleEndian: bytes[4..<7])
        try self.init(option: bytes[1], access: [bytes[2], bytes[3]], size: size, reader: &reader)
        guard reader.isAtEnd else {
            throw NTAG424Error(.invalidInput, "file settings have \(reader.remaining) bytes left over")
        }
    }

    /// The settings in ChangeFileSettings command data (after the file number), for a file of
    /// `size` bytes.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidInput`` for data of the wrong length (the chip
    ///   answers 91 7E), ``NTAG424Error/Code/invalidSettings`` for values it does not take
    ///   (91 9E).
    public init(changeCommandData bytes: [UInt8], size: Int) throws(NTAG424Error) {
        guard bytes.count >= 3 else {
            throw NTAG424Error(.invalidInput, "ChangeFileSettings takes FileOption and AccessRights at least")
        }
        var reader = SettingsReader(bytes: Array(bytes[3...]))
        try self.init(option: bytes[0], access: [bytes[1], bytes[2]], size: size, reader: &reader)
        guard reader.isAtEnd else {
            throw NTAG424Error(.invalidInput, "ChangeFileSettings data has \(reader.remaining) bytes left over")
        }
    }

    private init(option: UInt8, access rights: [UInt8], size: Int, reader: inout SettingsReader) throws(NTAG424Error) {
        guard option & 0b1011_1100 == 0, option & 0x03 != 0x02 else {
            throw NTAG424Error(.invalidSettings, "FileOption \(Hex.byte(option))h has bits the chip does not take")
        }
        func access(_ nibble: UInt8) throws(NTAG424Error) -> NTAG424Access {
            guard let value = NTAG424Access(nibble: nibble) else {
                throw NTAG424Error(.invalidSettings, "access nibble \(Hex.byte(nibble))h is not a key 0-4, Eh or Fh")
            }
            return value
        }
        self.init(
            communicationMode: NTAG424CommunicationMode(fileOption: option), read: try access(rights[1] >> 4),
            write: try access(rights[1] & 0x0F), readWrite: try access(rights[0] >> 4),
            change: try access(rights[0] & 0x0F), size: size)
        guard option & 0x40 != 0 else { return }
        let options = try reader.byte()
        guard options & 0b0000_0110 == 0 else {
            throw NTAG424Error(.invalidSettings, "SDMOptions \(Hex.byte(options))h has RFU bits set")
        }
        let sdmRights = try reader.bytes(2)
        var sdm = SDM(
            mirrorsUID: options & 0x80 != 0, mirrorsReadCounter: options & 0x40 != 0,
            hasReadCounterLimit: options & 0x20 != 0, encryptsFileData: options & 0x10 != 0,
            mirrorsTagTamper: options & 0x08 != 0, isASCII: options & 0x01 != 0,
            counterRetrieval: try access(sdmRights[0] & 0x0F),
            metaRead: try access(sdmRights[1] >> 4), fileRead: try access(sdmRights[1] & 0x0F))
        switch sdm.metaRead {
        case .free:
            if sdm.mirrorsUID { sdm.uidOffset = try reader.offset() }
            if sdm.mirrorsReadCounter { sdm.readCounterOffset = try reader.offset() }
        case .key: sdm.piccDataOffset = try reader.offset()
        case .never: break
        }
        if sdm.mirrorsTagTamper { sdm.tagTamperOffset = try reader.offset() }
        if sdm.fileRead != .never {
            sdm.macInputOffset = try reader.offset()
            if sdm.encryptsFileData {
                sdm.encryptedDataOffset = try reader.offset()
                sdm.encryptedDataLength = try reader.offset()
            }
            sdm.macOffset = try reader.offset()
        }
        if sdm.hasReadCounterLimit { sdm.readCounterLimit = try reader.offset() }
        self.sdm = sdm
    }

    /// Checks the SDM settings against the file as the chip does before ChangeFileSettings
    /// (NT4H2421Gx 10.7.1; NT4H2421Tx for TagTamper): ASCII encoding, each mirror inside the file
    /// (UID 14 characters, counter 6, PICCData 32, 48 in LRP (`mode`), SDMMAC 16, the TagTamper
    /// status 2), the MAC input before the MAC, encrypted data (a multiple of 32 characters)
    /// between them, a TagTamper status that is either outside every other mirror or wholly in
    /// the plaintext half of the encrypted data (which encrypts it), and mirrors that do not
    /// overlap.
    ///
    /// - Throws: ``NTAG424Error/Code/invalidSettings`` naming the first rule broken.
    public func validate(mode: NTAG424CryptoMode = .aes) throws(NTAG424Error) {
        guard let sdm else { return }
        guard sdm.isASCII else { throw NTAG424Error(.invalidSettings, "SDM mirrors in ASCII only (SDMOptions bit 0)") }
        var regions: [(name: String, range: Range<Int>)] = []
        func place(_ name: String, _ offset: Int?, length: Int) throws(NTAG424Error) {
            guard let offset else { throw NTAG424Error(.invalidSettings, "\(name) is missing") }
            guard offset >= 0, offset + length <= size else {
                throw NTAG424Error(
                    .invalidSettings, "\(name) \(offset) with \(length) characters runs past the \(size)-byte file")
            }
            regions.append((name, offset..<(offset + length)))
        }
        switch sdm.metaRead {
        case .free:
            if sdm.mirrorsUID { try place("UIDOffset", sdm.uidOffset, length: 14) }
            if sdm.mirrorsReadCounter { try place("SDMReadCtrOffset", sdm.readCounterOffset, length: 6) }
        case .key: try place("PICCDataOffset", sdm.piccDataOffset, length: mode.piccDataLength * 2)
        case .never: break
        }
        if sdm.mirrorsTagTamper {
            guard let offset = sdm.tagTamperOffset, offset >= 0, offset + 2 <= size else {
                throw NTAG424Error(.invalidSettings, "TTStatusOffset is missing or runs past the \(size)-byte file")
            }
            // Inside the encrypted data's plaintext half it is encrypted with it; else it is a mirror of its own.
            let inPlaintext =
                sdm.encryptsFileData
                && sdm.encryptedDataOffset.map { start in
                    offset >= start && offset + 2 <= start + (sdm.encryptedDataLength ?? 0) / 2
                } ?? false
            if !inPlaintext { try place("TTStatusOffset", offset, length: 2) }
        }
        if sdm.fileRead != .never {
            try place("SDMMACOffset", sdm.macOffset, length: 16)
            guard let input = sdm.macInputOffset, let mac = sdm.macOffset, input >= 0, input <= mac else {
                throw NTAG424Error(.invalidSettings, "SDMMACInputOffset must not lie after SDMMACOffset")
            }
            if sdm.encryptsFileData {
                guard sdm.mirrorsUID, sdm.mirrorsReadCounter else {
                    throw NTAG424Error(.invalidSettings, "SDMENCFileData needs both the UID and the counter mirrored")
                }
                guard let length = sdm.encryptedDataLength, length > 0, length % 32 == 0 else {
                    throw NTAG424Error(.invalidSettings, "SDMENCLength is a multiple of 32 characters")
                }
                try place("SDMENCOffset", sdm.encryptedDataOffset, length: length)
                guard let start = sdm.encryptedDataOffset, start >= input, start + length <= mac else {
                    throw NTAG424Error(.invalidSettings, "the encrypted data must lie inside the MAC input")
                }
            }
        } else if sdm.encryptsFileData {
            throw NTAG424Error(.invalidSettings, "SDMENCFileData needs an SDMFileRead key")
        }
        if sdm.hasReadCounterLimit {
            guard let limit = sdm.readCounterLimit, limit <= 0xFF_FFFF else {
                throw NTAG424Error(.invalidSettings, "SDMReadCtrLimit is missing")
            }
        }
        let sorted = regions.sorted { $0.range.lowerBound < $1.range.lowerBound }
        for (first, second) in zip(sorted, sorted.dropFirst()) where first.range.overlaps(second.range) {
            throw NTAG424Error(.invalidSettings, "\(first.name) and \(second.name) overlap")
        }
    }
}

/// Reads the SDM fields of file settings in order.
private struct SettingsReader {
    let bytes: [UInt8]
    var position = 0

    var isAtEnd: Bool { position == bytes.count }
    var remaining: Int { bytes.count - position }

    mutating func byte() throws(NTAG424Error) -> UInt8 {
        try bytes(1)[0]
    }

    mutating func bytes(_ count: Int) throws(NTAG424Error) -> [UInt8] {
        guard position + count <= bytes.count else {
            throw NTAG424Error(.invalidInput, "the SDM settings end early, at byte \(position) of \(bytes.count)")
        }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func offset() throws(NTAG424Error) -> Int {
        NTAG424Bytes.integer(littleEndian: try bytes(3))
    }
}
