import HexText

/// A file control TLV of the Type 4 capability container: which file, how large, who may
/// read and write it.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1.2: the NDEF File Control TLV (T = 04, L = 06) and
/// the Proprietary File Control TLV (T = 05, L = 06) hold a file identifier (2 bytes), a
/// maximum file size (2 bytes), the read and the write access condition; the Extended NDEF
/// File Control TLV (T = 06, L = 08, mapping version 3.0) has a 4-byte maximum file size.
public struct Type4FileControl: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The TLV type, which says what the file is and how wide its size field is.
    public enum Kind: UInt8, Sendable, Hashable, Codable, CaseIterable {
        /// NDEF File Control TLV (T = 04): an NDEF file with a 2-byte NLEN field.
        case ndef = 0x04
        /// Proprietary File Control TLV (T = 05): a file this mapping does not interpret.
        case proprietary = 0x05
        /// Extended NDEF File Control TLV (T = 06, version 3.0): an NDEF file with a 4-byte ENLEN.
        case extendedNDEF = 0x06

        /// The TLV length (the size of the value field): 6, or 8 for ``extendedNDEF``.
        public var valueLength: Int { self == .extendedNDEF ? 8 : 6 }
        /// The size of the maximum-file-size field: 2, or 4 for ``extendedNDEF``.
        public var sizeFieldLength: Int { self == .extendedNDEF ? 4 : 2 }
        /// The size of the length field at the start of the file: NLEN (2) or ENLEN (4).
        public var messageLengthFieldSize: Int { sizeFieldLength }
    }

    /// The TLV type.
    public var kind: Kind
    /// The file identifier to SELECT, for example `E104`.
    public var fileIdentifier: UInt16
    /// The maximum file size in bytes, including the NLEN or ENLEN field.
    public var maximumFileSize: Int
    /// Who may read the file.
    public var readAccess: Type4AccessCondition
    /// Who may write the file.
    public var writeAccess: Type4AccessCondition

    /// Creates a file control.
    public init(
        kind: Kind,
        fileIdentifier: UInt16,
        maximumFileSize: Int,
        readAccess: Type4AccessCondition = .granted,
        writeAccess: Type4AccessCondition = .granted
    ) {
        self.kind = kind
        self.fileIdentifier = fileIdentifier
        self.maximumFileSize = maximumFileSize
        self.readAccess = readAccess
        self.writeAccess = writeAccess
    }

    /// File identifiers a file control must not name (T4T 3.0, 5.1.2): `0000`, `E102`,
    /// `E103` (the CC file), `3F00` (the MF), `3FFF` and `FFFF` (reserved by ISO/IEC 7816-4).
    ///
    /// Mapping version 1.0 did not reserve `0000`; readers accept it on version 1.0 tags.
    public static let reservedFileIdentifiers: Set<UInt16> = [0x0000, 0xE102, 0xE103, 0x3F00, 0x3FFF, 0xFFFF]

    /// The TLV bytes: T, L, file identifier, size, read access, write access.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when the size does not fit the size field.
    public func encoded() throws(TagMemoryError) -> [UInt8] {
        let limit = kind == .extendedNDEF ? Int(UInt32.max) : Int(UInt16.max)
        guard (0...limit).contains(maximumFileSize) else {
            throw TagMemoryError(
                .invalidArgument, "a maximum file size of \(maximumFileSize) does not fit the \(kind) TLV's field")
        }
        var bytes: [UInt8] = [kind.rawValue, UInt8(kind.valueLength)]
        bytes += [UInt8(truncatingIfNeeded: fileIdentifier >> 8), UInt8(truncatingIfNeeded: fileIdentifier)]
        let size = UInt32(truncatingIfNeeded: maximumFileSize)
        if kind == .extendedNDEF {
            bytes += [UInt8(truncatingIfNeeded: size >> 24), UInt8(truncatingIfNeeded: size >> 16)]
        }
        bytes += [UInt8(truncatingIfNeeded: size >> 8), UInt8(truncatingIfNeeded: size)]
        bytes += [readAccess.rawValue, writeAccess.rawValue]
        return bytes
    }

    /// Reads the value field of a TLV of type `kind` (exactly `kind.valueLength` bytes).
    init(kind: Kind, value: ArraySlice<UInt8>) {
        var reader = Type4ByteReader(value)
        self.kind = kind
        self.fileIdentifier = reader.word() ?? 0
        self.maximumFileSize = (kind == .extendedNDEF ? reader.longWord() : reader.word().map(Int.init)) ?? 0
        self.readAccess = Type4AccessCondition(rawValue: reader.byte() ?? 0xFF)
        self.writeAccess = Type4AccessCondition(rawValue: reader.byte() ?? 0xFF)
    }

    public var description: String {
        "\(kind) file \(Hex.word(fileIdentifier)), \(maximumFileSize) bytes, "
            + "read \(readAccess), write \(writeAccess)"
    }
}

extension Type4FileControl.Kind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .ndef: "NDEF"
        case .proprietary: "proprietary"
        case .extendedNDEF: "extended NDEF"
        }
    }
}

/// A read or write access condition byte of a Type 4 file control TLV.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1.2 (NDEF File Control TLV, tables for the read and
/// write access fields): `00` access granted without any security, `01`-`7F` reserved (RFU),
/// `80`-`FE` proprietary (for example an authentication the tag defines), `FF` no access.
/// The raw byte is kept, so a reserved or proprietary value reads back unchanged.
public struct Type4AccessCondition: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The byte as stored in the capability container.
    public var rawValue: UInt8

    /// Creates a condition from its byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// `00`: access granted without any security.
    public static let granted = Type4AccessCondition(rawValue: 0x00)
    /// `FF`: no access granted (for write access: the file is read-only).
    public static let none = Type4AccessCondition(rawValue: 0xFF)

    /// Whether access is granted without any security (`00`).
    public var isGranted: Bool { rawValue == 0x00 }
    /// Whether no access is granted at all (`FF`).
    public var isNone: Bool { rawValue == 0xFF }
    /// Whether the value is in the proprietary range `80`-`FE`.
    public var isProprietary: Bool { (0x80...0xFE).contains(rawValue) }
    /// Whether the value is reserved for future use (`01`-`7F`).
    public var isReserved: Bool { (0x01...0x7F).contains(rawValue) }

    public var description: String {
        let hex = Hex.byte(rawValue)
        if isGranted { return "granted (00)" }
        if isNone { return "none (FF)" }
        if isProprietary { return "proprietary (\(hex))" }
        return "reserved (\(hex))"
    }
}

/// Big-endian reads from a byte slice that never trap: each read returns nil past the end.
struct Type4ByteReader {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The number of bytes not read yet.
    var remaining: Int { bytes.count }

    mutating func byte() -> UInt8? {
        bytes.popFirst()
    }

    /// Two bytes, most significant first.
    mutating func word() -> UInt16? {
        guard bytes.count >= 2, let high = bytes.popFirst(), let low = bytes.popFirst() else { return nil }
        return UInt16(high) << 8 | UInt16(low)
    }

    /// Four bytes, most significant first, as an Int (nil past the end or where Int is too small).
    mutating func longWord() -> Int? {
        guard bytes.count >= 4, let high = word(), let low = word() else { return nil }
        return Int(exactly: UInt32(high) << 16 | UInt32(low))
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count else { return nil }
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return taken
    }
}
