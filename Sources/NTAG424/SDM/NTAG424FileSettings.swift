/// An access condition of NTAG 424 DNA: a key number 0-4, free access (Eh), or no access (Fh)
/// (NT4H2421Gx datasheet 8.2.3.3).
public enum NTAG424Access: Sendable, Hashable, CustomStringConvertible {
    /// Access after authentication with this key (0-4).
    case key(Int)
    /// Free access (Eh).
    case free
    /// No access (Fh).
    case never

    /// The condition of a 4-bit nibble; nil for 5h-Dh, which the chip does not take.
    public init?(nibble: UInt8) {
        switch nibble & 0x0F {
        case 0x0E: self = .free
        case 0x0F: self = .never
        case let key where key <= 4: self = .key(Int(key))
        default: return nil
        }
    }

    /// The 4-bit nibble.
    public var nibble: UInt8 {
        switch self {
        case .key(let number): UInt8(clamping: number) & 0x0F
        case .free: 0x0E
        case .never: 0x0F
        }
    }

    /// `key 2`, `free` or `never`.
    public var description: String {
        switch self {
        case .key(let number): "key \(number)"
        case .free: "free"
        case .never: "never"
        }
    }
}

/// The settings of one file of the NTAG 424 DNA NDEF application, as GetFileSettings (F5h) returns
/// them and ChangeFileSettings (5Fh) takes them (NT4H2421Gx datasheet 10.7.1, 10.7.2; AN12196
/// 4.6), secure dynamic messaging (SDM) included.
///
/// Layout: FileType (00h, a standard data file; returned only), FileOption (bits 1-0 CommMode,
/// bit 6 SDM enabled), AccessRights (2 bytes: RW and Change, then Read and Write, one nibble
/// each), FileSize (3 bytes, returned only); with SDM: SDMOptions (bit 7 UID mirror, bit 6
/// SDMReadCtr mirror, bit 5 SDMReadCtrLimit, bit 4 SDMENCFileData, bit 3 TagTamper status on an
/// NTAG 424 DNA TT (NT4H2421Tx), bit 0 ASCII encoding),
/// SDMAccessRights (2 bytes: RFU and SDMCtrRet, then SDMMetaRead and SDMFileRead), then the
/// offsets that apply, 3 bytes each, least significant first:
/// - SDMMetaRead Eh (plain): UIDOffset when the UID is mirrored, SDMReadCtrOffset when the
///   counter is; SDMMetaRead a key: PICCDataOffset;
/// - TTStatusOffset when bit 3 is set;
/// - SDMFileRead a key: SDMMACInputOffset, then SDMENCOffset and SDMENCLength with
///   SDMENCFileData, then SDMMACOffset;
/// - SDMReadCtrLimit when bit 5 is set.
public struct NTAG424FileSettings: Sendable, Hashable {
    /// How the file's data travels in ReadData and WriteData.
    public var communicationMode: NTAG424CommunicationMode
    /// Read access (ReadData, ISOReadBinary).
    public var read: NTAG424Access
    /// Write access (WriteData, ISOUpdateBinary).
    public var write: NTAG424Access
    /// Read and write access.
    public var readWrite: NTAG424Access
    /// Who may change these settings.
    public var change: NTAG424Access
    /// The file size in bytes (as GetFileSettings reports it; not changed by ChangeFileSettings).
    public var size: Int
    /// The SDM settings, when SDM is enabled.
    public var sdm: SDM?

    /// Secure dynamic messaging: what is mirrored into the file on a plain read, and where.
    public struct SDM: Sendable, Hashable {
        /// Whether the UID is mirrored (in PICCData or in plain).
        public var mirrorsUID: Bool
        /// Whether SDMReadCtr is mirrored.
        public var mirrorsReadCounter: Bool
        /// Whether SDMReadCtrLimit applies.
        public var hasReadCounterLimit: Bool
        /// Whether part of the file is encrypted (SDMENCFileData).
        public var encryptsFileData: Bool
        /// Whether the TagTamper status (2 characters: permanent, current) is mirrored, on an
        /// NTAG 424 DNA TT (NT4H2421Tx; SDMOptions bit 3).
        public var mirrorsTagTamper: Bool = false
        /// TTStatusOffset (with ``mirrorsTagTamper``).
        public var tagTamperOffset: Int?
        /// Whether mirrored values are ASCII hex (always set by this library; the chip needs it
        /// for NDEF).
        public var isASCII: Bool
        /// SDMCtrRet: who may read the counter with GetFileCounters.
        public var counterRetrieval: NTAG424Access
        /// SDMMetaRead: Eh mirrors UID and counter in plain, a key encrypts them into PICCData
        /// under it, Fh mirrors neither.
        public var metaRead: NTAG424Access
        /// SDMFileRead: the key whose session key MACs (and encrypts) the file; Fh: no SDMMAC.
        public var fileRead: NTAG424Access
        /// UIDOffset (plain mirroring).
        public var uidOffset: Int?
        /// SDMReadCtrOffset (plain mirroring).
        public var readCounterOffset: Int?
        /// PICCDataOffset (SDMMetaRead a key).
        public var piccDataOffset: Int?
        /// SDMMACInputOffset.
        public var macInputOffset: Int?
        /// SDMENCOffset.
        public var encryptedDataOffset: Int?
        /// SDMENCLength.
        public var encryptedDataLength: Int?
        /// SDMMACOffset.
        public var macOffset: Int?
        /// SDMReadCtrLimit.
        public var readCounterLimit: Int?

        /// SDM settings; the offsets that apply must be given (``NTAG424FileSettings/validate(mode:)``).
        public init(
            mirrorsUID: Bool, mirrorsReadCounter: Bool, hasReadCounterLimit: Bool = false,
            encryptsFileData: Bool = false, mirrorsTagTamper: Bool = false, tagTamperOffset: Int? = nil,
            isASCII: Bool = true, counterRetrieval: NTAG424Access = .never,
            metaRead: NTAG424Access, fileRead: NTAG424Access, uidOffset: Int? = nil, readCounterOffset: Int? = nil,
            piccDataOffset: Int? = nil, macInputOffset: Int? = nil, encryptedDataOffset: Int? = nil,
            encryptedDataLength: Int? = nil, macOffset: Int? = nil, readCounterLimit: Int? = nil
        ) {
            self.mirrorsUID = mirrorsUID
            self.mirrorsReadCounter = mirrorsReadCounter
            self.hasReadCounterLimit = hasReadCounterLimit
            self.encryptsFileData = encryptsFileData
            self.mirrorsTagTamper = mirrorsTagTamper
            self.tagTamperOffset = tagTamperOffset
            self.isASCII = isASCII
            self.counterRetrieval = counterRetrieval
            self.metaRead = metaRead
            self.fileRead = fileRead
            self.uidOffset = uidOffset
            self.readCounterOffset = readCounterOffset
            self.piccDataOffset = piccDataOffset
            self.macInputOffset = macInputOffset
            self.encryptedDataOffset = encryptedDataOffset
            self.encryptedDataLength = encryptedDataLength
            self.macOffset = macOffset
            self.readCounterLimit = readCounterLimit
        }

        /// The ranges of the file a plain read shows changed (NT4H2421Gx 9.3.2-9.3.7): the UID (14
        /// characters) and counter (6) in plain, or PICCData (32 characters in AES, 48 in LRP:
        /// `mode`), the encrypted file data window, the SDMMAC (16).
        public func mirroredRanges(mode: NTAG424CryptoMode) -> [Range<Int>] {
            var ranges: [(Int?, Int?)] = []
            switch metaRead {
            case .free:
                if mirrorsUID { ranges.append((uidOffset, 14)) }
                if mirrorsReadCounter { ranges.append((readCounterOffset, 6)) }
            case .key: ranges.append((piccDataOffset, mode.piccDataLength * 2))
            case .never: break
            }
            if mirrorsTagTamper { ranges.append((tagTamperOffset, 2)) }
            if fileRead != .never {
                if encryptsFileData { ranges.append((encryptedDataOffset, encryptedDataLength)) }
                ranges.append((macOffset, 16))
            }
            return ranges.compactMap { offset, length in
                guard let offset, let length, offset >= 0, length >= 0 else { return nil }
                return offset..<(offset + length)
            }
        }

        /// The SDMOptions byte.
        var optionsByte: UInt8 {
            (mirrorsUID ? 0x80 : 0) | (mirrorsReadCounter ? 0x40 : 0) | (hasReadCounterLimit ? 0x20 : 0)
                | (encryptsFileData ? 0x10 : 0) | (mirrorsTagTamper ? 0x08 : 0) | (isASCII ? 0x01 : 0)
        }
    }

    /// Settings.
    public init(
        communicationMode: NTAG424CommunicationMode, read: NTAG424Access, write: NTAG424Access,
        readWrite: NTAG424Access, change: NTAG424Access, size: Int, sdm: SDM? = nil
    ) {
        self.communicationMode = communicationMode
        self.read = read
        self.write = write
        self.readWrite = readWrite
        self.change = change
        self.size = size
        self.sdm = sdm
    }

    /// The NDEF file (02, `E104`) as delivered (NT4H2421Gx 8.2.3, Table 8): CommMode Plain, Read,
    /// Write and ReadWrite free, Change key 0, 256 bytes, SDM off.
    public static let factoryNDEFFile = NTAG424FileSettings(
        communicationMode: .plain, read: .free, write: .free, readWrite: .free, change: .key(0), size: 256)

    /// The 2 AccessRights bytes: RW and Change, Read and Write.
    public var accessRightsBytes: [UInt8] {
        [readWrite.nibble << 4 | change.nibble, read.nibble << 4 | write.nibble]
    }

    /// The data of ChangeFileSettings after the file number: FileOption, AccessRights and, with
    /// SDM, the SDM fields.
    public var changeCommandData: [UInt8] {
        let option = communicationMode.rawValue | (sdm == nil ? 0 : 0x40)
        return [option] + accessRightsBytes + sdmBytes
    }

    /// The GetFileSettings response: FileType 00h, FileOption, AccessRights, FileSize, SDM fields.
    public var encoded: [UInt8] {
        let option = communicationMode.rawValue | (sdm == nil ? 0 : 0x40)
        return [0x00, option] + accessRightsBytes + NTAG424Bytes.littleEndian(size, count: 3) + sdmBytes
    }

    /// The SDM fields, empty without SDM.
    private var sdmBytes: [UInt8] {
        guard let sdm else { return [] }
        var bytes = [
            sdm.optionsByte, 0xF0 | sdm.counterRetrieval.nibble, sdm.metaRead.nibble << 4 | sdm.fileRead.nibble,
        ]
        func add(_ value: Int?) { bytes += NTAG424Bytes.littleEndian(value ?? 0, count: 3) }
        switch sdm.metaRead {
        case .free:
            if sdm.mirrorsUID { add(sdm.uidOffset) }
            if sdm.mirrorsReadCounter { add(sdm.readCounterOffset) }
        case .key: add(sdm.piccDataOffset)
        case .never: break
        }
        if sdm.mirrorsTagTamper { add(sdm.tagTamperOffset) }
        if sdm.fileRead != .never {
            add(sdm.macInputOffset)
            if sdm.encryptsFileData {
                add(sdm.encryptedDataOffset)
                add(sdm.encryptedDataLength)
            }
            add(sdm.macOffset)
        }
        if sdm.hasReadCounterLimit { add(sdm.readCounterLimit) }
        return bytes
    }
}
