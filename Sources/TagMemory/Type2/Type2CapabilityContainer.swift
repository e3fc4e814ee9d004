import HexText

/// The capability container of a Type 2 tag: page 3, bytes 12-15 of the memory.
///
/// NFC Forum Type 2 Tag 1.1, section 6.1 (NDEF management):
/// - byte 0: the NDEF magic number E1h (any other value: the tag is not NDEF formatted);
/// - byte 1: the mapping version, major in the high nibble, minor in the low one (10h = 1.0);
/// - byte 2: the data area size divided by 8;
/// - byte 3: access conditions, read in the high nibble, write in the low one.
///
/// Version treating (6.1.1): a reader handles any minor version of a major version it knows
/// and refuses a higher major version. Only major version 1 is known here.
public struct Type2CapabilityContainer: Sendable, Hashable, CustomStringConvertible {
    /// An access condition nibble of CC byte 3 (T2T 1.1, 6.1).
    public enum Access: Sendable, Hashable {
        /// 0h: access granted without any security.
        case granted
        /// 1h-7h: reserved for future use; treated as no access.
        case reserved(UInt8)
        /// 8h-Eh: proprietary; access needs a means outside the NFC Forum mapping (nfcpy
        /// writes 8h for a password-protected tag, for example). Treated as no access.
        case proprietary(UInt8)
        /// Fh: no access (for write: the tag is read-only; for read the value is reserved).
        case denied

        /// The condition of a nibble (only the low 4 bits of `nibble` are used).
        public init(nibble: UInt8) {
            switch nibble & 0x0F {
            case 0x0: self = .granted
            case 0x1...0x7: self = .reserved(nibble & 0x0F)
            case 0xF: self = .denied
            default: self = .proprietary(nibble & 0x0F)
            }
        }

        /// The nibble value.
        public var nibble: UInt8 {
            switch self {
            case .granted: 0x0
            case .reserved(let value), .proprietary(let value): value & 0x0F
            case .denied: 0xF
            }
        }
    }

    /// The NDEF magic number, E1h.
    public static let ndefMagicNumber: UInt8 = 0xE1
    /// The major mapping version this implementation reads.
    public static let supportedMajorVersion: UInt8 = 1
    /// The largest data area the size byte can announce (255 × 8).
    public static let maximumDataAreaSize = 255 * 8

    /// Byte 0: E1h on an NDEF formatted tag.
    public var magicNumber: UInt8
    /// The high nibble of byte 1.
    public var majorVersion: UInt8
    /// The low nibble of byte 1.
    public var minorVersion: UInt8
    /// Byte 2: the data area size in units of 8 bytes.
    public var sizeByte: UInt8
    /// The high nibble of byte 3.
    public var readAccess: Access
    /// The low nibble of byte 3.
    public var writeAccess: Access

    /// Reads a capability container from its 4 bytes.
    ///
    /// Any 4 bytes are accepted (a CC of 00 00 00 00 is a blank tag); check
    /// ``isNDEFFormatted`` and ``isVersionSupported``.
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` unless `bytes` has exactly 4 bytes.
    public init(bytes: some Collection<UInt8>) throws(TagMemoryError) {
        let cc = Array(bytes)
        guard cc.count == 4 else {
            throw TagMemoryError(.truncatedImage, at: 12, "a capability container has 4 bytes, not \(cc.count)")
        }
        self.magicNumber = cc[0]
        self.majorVersion = cc[1] >> 4
        self.minorVersion = cc[1] & 0x0F
        self.sizeByte = cc[2]
        self.readAccess = Access(nibble: cc[3] >> 4)
        self.writeAccess = Access(nibble: cc[3])
    }

    /// Builds an NDEF capability container from its fields.
    ///
    /// - Parameters:
    ///   - majorVersion: 0-15; 1 for the mapping this implementation writes.
    ///   - minorVersion: 0-15.
    ///   - dataAreaSize: a multiple of 8 from 0 to 2040 bytes.
    ///   - readAccess: the read access condition (byte 3, high nibble).
    ///   - writeAccess: the write access condition (byte 3, low nibble).
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a field that does not fit.
    public init(
        majorVersion: UInt8 = 1,
        minorVersion: UInt8 = 0,
        dataAreaSize: Int,
        readAccess: Access = .granted,
        writeAccess: Access = .granted
    ) throws(TagMemoryError) {
        guard majorVersion <= 0x0F, minorVersion <= 0x0F else {
            throw TagMemoryError(.invalidArgument, "version numbers are nibbles (0-15)")
        }
        guard dataAreaSize >= 0, dataAreaSize <= Self.maximumDataAreaSize, dataAreaSize % 8 == 0 else {
            throw TagMemoryError(.invalidArgument, "the data area size must be a multiple of 8 from 0 to 2040")
        }
        self.magicNumber = Self.ndefMagicNumber
        self.majorVersion = majorVersion
        self.minorVersion = minorVersion
        self.sizeByte = UInt8(truncatingIfNeeded: dataAreaSize / 8)
        self.readAccess = readAccess
        self.writeAccess = writeAccess
    }

    /// The data area size in bytes (byte 2 × 8).
    public var dataAreaSize: Int { Int(sizeByte) * 8 }

    /// Whether byte 0 is the NDEF magic number.
    public var isNDEFFormatted: Bool { magicNumber == Self.ndefMagicNumber }

    /// Whether the major version is one this implementation reads (6.1.1).
    public var isVersionSupported: Bool { majorVersion == Self.supportedMajorVersion }

    /// The 4 bytes.
    public var bytes: [UInt8] {
        [magicNumber, majorVersion << 4 | minorVersion & 0x0F, sizeByte, readAccess.nibble << 4 | writeAccess.nibble]
    }

    /// Why an NDEF reader would not use this tag, or nil when the magic number and version are fine.
    public var problem: TagMemoryError? {
        if !isNDEFFormatted {
            return TagMemoryError(
                .notFormatted, at: 12,
                "the capability container starts with \(Hex.byte(magicNumber)), not the magic E1h")
        }
        if !isVersionSupported {
            return TagMemoryError(
                .notFormatted, at: 13, "mapping version \(majorVersion).\(minorVersion): major version not supported")
        }
        return nil
    }

    public var description: String {
        "CC \(Hex.bytes(bytes)): version \(majorVersion).\(minorVersion), "
            + "\(dataAreaSize) byte data area, read \(readAccess.nibble), write \(writeAccess.nibble)"
    }
}
