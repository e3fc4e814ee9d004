import NDEF

/// The memory image of an NFC Forum Type 2 tag, read as far as it goes.
///
/// Any image is accepted: too short, cut mid-page, or hostile. Each part is parsed if the
/// image holds it (NFC Forum Type 2 Tag 1.1, section 2 for the memory structure, 6 for NDEF):
/// - bytes 0-8: the 7-byte UID and its check bytes BCC0 = 88h ⊕ UID0 ⊕ UID1 ⊕ UID2 and
///   BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6 (ISO/IEC 14443-3 cascade level 2; 2.1.1);
/// - bytes 10-11: the static lock bytes (2.1.2);
/// - bytes 12-15: the capability container (6.1);
/// - from byte 16: the data area and its TLV blocks (2.3), up to the size the CC announces,
///   or up to the end of the chip's user memory when the CC announces more.
///
/// Nothing here throws: what could not be read is nil and ``problem`` says why. The NDEF status
/// (``ndefStatus``) and the addresses a writer needs (``ndefTLVAddress``, ``dataArea``,
/// ``dataRanges(from:)``) are derived from these parts.
public struct Type2Memory: Sendable, Hashable {
    /// The image, indexed by byte address (byte 0 = page 0 byte 0).
    public let bytes: [UInt8]
    /// The chip, when known (from GET_VERSION or the page count): lock bits, configuration.
    public let chip: Type2Chip?
    /// The capability container, if the image reaches byte 16.
    public let capabilityContainer: Type2CapabilityContainer?
    /// The TLV blocks of the data area, if the CC is an NDEF CC of a known version.
    public let tlvScan: TagTLVScan?
    /// The address of the first NDEF Message TLV's T byte, also when its length is malformed.
    public let ndefTLVAddress: Int?
    /// The bytes of the NDEF message (the NDEF TLV's value, around reserved bytes).
    public let ndefMessageBytes: [UInt8]?
    /// The NDEF message, strictly decoded; nil for an empty NDEF TLV (an INITIALIZED tag, 6.3.1).
    public let message: NFCNDEFMessage?
    /// The first problem that keeps the NDEF message from being read, if any.
    public let problem: TagMemoryError?

    /// Parses `bytes`.
    ///
    /// - Parameters:
    ///   - bytes: the memory image from page 0 on.
    ///   - chip: the chip, when known; it bounds the data area and gives the lock layout.
    ///   - options: limits for decoding the NDEF message.
    public init(bytes: [UInt8], chip: Type2Chip? = nil, options: NDEFDecodingOptions = NDEFDecodingOptions()) {
        self.bytes = bytes
        self.chip = chip
        let cc = try? Type2CapabilityContainer(bytes: bytes.dropFirst(12).prefix(4))
        self.capabilityContainer = cc
        guard let cc else {
            self.tlvScan = nil
            self.ndefTLVAddress = nil
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem = TagMemoryError(
                .truncatedImage, at: bytes.count, "the image ends before the capability container (bytes 12-15)")
            return
        }
        if let problem = cc.problem {
            self.tlvScan = nil
            self.ndefTLVAddress = nil
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem = problem
            return
        }
        let area = Self.dataArea(capabilityContainer: cc, chip: chip)
        let scan = TagTLVScanner.scan(bytes[...], area: area)
        self.tlvScan = scan
        let ndef = scan.firstNDEFMessage
        self.ndefTLVAddress = ndef?.typeAddress ?? (scan.failedType == 0x03 ? scan.failedTypeAddress : nil)
        guard let ndef else {
            self.ndefMessageBytes = nil
            self.message = nil
            self.problem =
                scan.error
                ?? TagMemoryError(.notFormatted, at: area.lowerBound, "the data area holds no NDEF Message TLV")
            return
        }
        let value = ndef.value(in: bytes[...])
        self.ndefMessageBytes = value
        (message, problem) = ndef.decodedMessage(value, options: options)
    }

    /// The data area a reader uses: from byte 16, the size in the CC, cut to the chip's user
    /// memory when the chip is known (a CC may announce more than the chip has).
    public static func dataArea(capabilityContainer cc: Type2CapabilityContainer, chip: Type2Chip?) -> Range<Int> {
        var size = cc.dataAreaSize
        if let chip { size = min(size, chip.userBytes.upperBound - Type2Page.dataAreaStart) }
        return Type2Page.dataAreaStart..<(Type2Page.dataAreaStart + max(0, size))
    }

    /// The data area, when the CC is an NDEF CC of a known version.
    public var dataArea: Range<Int>? {
        guard let cc = capabilityContainer, cc.problem == nil else { return nil }
        return Self.dataArea(capabilityContainer: cc, chip: chip)
    }

    /// The 7-byte UID (bytes 0-2 and 4-7), if the image holds it.
    public var uid: [UInt8]? {
        guard bytes.count >= 8 else { return nil }
        return Array(bytes[0..<3] + bytes[4..<8])
    }

    /// Whether BCC0 (byte 3) equals 88h ⊕ UID0 ⊕ UID1 ⊕ UID2; nil if the image is shorter.
    public var isBCC0Valid: Bool? {
        guard bytes.count >= 4 else { return nil }
        return bytes[3] == 0x88 ^ bytes[0] ^ bytes[1] ^ bytes[2]
    }

    /// Whether BCC1 (byte 8) equals UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6; nil if the image is shorter.
    public var isBCC1Valid: Bool? {
        guard bytes.count >= 9 else { return nil }
        return bytes[8] == bytes[4] ^ bytes[5] ^ bytes[6] ^ bytes[7]
    }

    /// The static lock bytes (bytes 10-11), if the image holds them.
    public var staticLock: Type2StaticLock? {
        guard bytes.count >= 12 else { return nil }
        return Type2StaticLock(lock0: bytes[10], lock1: bytes[11])
    }

    /// The TLV blocks read from the data area (empty when none could be).
    public var tlvs: [TagTLV] { tlvScan?.tlvs ?? [] }

    /// The first NDEF Message TLV, if one was read whole.
    public var ndefTLV: TagTLV? { tlvScan?.firstNDEFMessage }

    /// The byte ranges Lock Control and Memory Control TLVs reserve (T2T 1.1, 2.2.1, 2.3.2, 2.3.3).
    public var reservedRanges: ReservedByteRanges { tlvScan?.reserved ?? ReservedByteRanges() }

    /// The 4 bytes of `page`, or nil if the image does not hold all of them.
    public func page(_ page: Int) -> [UInt8]? {
        guard page >= 0, page < bytes.count / Type2Page.size else { return nil }
        return Array(bytes[Type2Page.bytes(of: page)])
    }

    /// The password configuration, for a known chip with configuration pages the image holds.
    public var configuration: Type2Configuration? {
        guard let chip, chip.configurationPages != nil else { return nil }
        return try? Type2Configuration(chip: chip, memory: bytes)
    }
}
