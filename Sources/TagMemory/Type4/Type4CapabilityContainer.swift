import HexText
import NDEF

/// The capability container (CC) file of an NFC Forum Type 4 Tag, file `E103`.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1: CCLEN (2 bytes, the size of the CC content), the
/// mapping version (major version in the high nibble), MLe (2 bytes, the most data a READ
/// BINARY response may carry), MLc (2 bytes, the most data an UPDATE BINARY command may
/// carry), then the NDEF File Control TLV (T = 04, L = 06) or, from version 3.0, the Extended
/// NDEF File Control TLV (T = 06, L = 08), then optional TLVs (for example Proprietary File
/// Control TLVs, T = 05), up to CCLEN. Version 1.0 and 2.0 CCs share this layout; version 1.0
/// tags differ in their application identifier and SELECT parameters (see ``Type4Command``).
///
/// Parsing follows the spec where a reader must refuse the tag, and follows what readers do
/// where the spec is stricter than the field (see ``conformanceIssues``).
public struct Type4CapabilityContainer: Sendable, Hashable, Codable {
    /// The file identifier of the CC file, `E103`.
    public static let fileIdentifier: UInt16 = 0xE103
    /// The smallest valid CCLEN, `000F` (T4T 3.0, 5.1); `FFFF` is reserved.
    public static let minimumLength = 0x000F
    /// The smallest valid MLe, `000F` (T4T 3.0, 5.1).
    public static let minimumResponseDataSize = 0x000F
    /// The smallest MLc T4T 3.0 (5.1) allows, `000D`; readers accept any MLc of 1 or more.
    public static let minimumCommandDataSize = 0x000D

    /// The mapping version byte, for example `20` for 2.0 or `30` for 3.0.
    public var mappingVersion: UInt8
    /// MLe: the most data bytes one READ BINARY response may carry.
    public var maximumResponseDataSize: Int
    /// MLc: the most data bytes one UPDATE BINARY command may carry.
    public var maximumCommandDataSize: Int
    /// The NDEF (or Extended NDEF) File Control TLV that follows MLc.
    public var ndefFile: Type4FileControl
    /// The TLVs after the NDEF file control, as read.
    public var additionalTLVs: [Type4ControlTLV]

    /// Creates a capability container.
    public init(
        mappingVersion: UInt8 = 0x20,
        maximumResponseDataSize: Int,
        maximumCommandDataSize: Int,
        ndefFile: Type4FileControl,
        additionalTLVs: [Type4ControlTLV] = []
    ) {
        self.mappingVersion = mappingVersion
        self.maximumResponseDataSize = maximumResponseDataSize
        self.maximumCommandDataSize = maximumCommandDataSize
        self.ndefFile = ndefFile
        self.additionalTLVs = additionalTLVs
    }

    /// Parses a CC file image (T4T 3.0, 5.1); bytes after CCLEN are ignored.
    ///
    /// - Throws: ``TagMemoryError/Code/truncatedImage`` when the image ends before CCLEN;
    ///   ``TagMemoryError/Code/notFormatted`` for a CCLEN under `000F` or equal to `FFFF`, a
    ///   major version other than 1, 2 or 3 (5.1.1: a reader does not read a tag of a higher
    ///   major version), an MLe under `000F` or an MLc of 0, a reserved file identifier, a
    ///   maximum NDEF file size outside the valid range (NDEF TLV: `0005`-`7FFF`, or up to `FFFE`
    ///   in version 3.0 where offsets above `7FFF` can be reached; Extended NDEF TLV: `00000007`-
    ///   `FFFFFFFE`) or a reserved (`01`-`7F`) access condition;
    ///   ``TagMemoryError/Code/malformedTLV`` when the TLV after MLc is not an NDEF or Extended
    ///   NDEF File Control TLV, or a TLV runs past CCLEN.
    public init(parsing image: ArraySlice<UInt8>) throws(TagMemoryError) {
        var header = Type4ByteReader(image)
        guard let declared = header.word() else {
            throw TagMemoryError(
                .truncatedImage, at: 0, "the CC file image has \(image.count) bytes, too few for CCLEN")
        }
        let length = Int(declared)
        guard length >= Self.minimumLength, declared != 0xFFFF else {
            throw TagMemoryError(
                .notFormatted, at: 0, "CCLEN \(length) is outside 15...65534 (T4T 3.0, 5.1)")
        }
        guard image.count >= length else {
            throw TagMemoryError(
                .truncatedImage, at: image.count, "the CC file image has \(image.count) bytes but CCLEN is \(length)")
        }
        var reader = Type4ByteReader(image.prefix(length).dropFirst(2))
        let version = reader.byte() ?? 0
        let mle = Int(reader.word() ?? 0)
        let mlc = Int(reader.word() ?? 0)
        guard (1...3).contains(version >> 4) else {
            throw TagMemoryError(
                .notFormatted, at: 2, "mapping version \(version >> 4).\(version & 0x0F) is not 1.x, 2.x or 3.x (5.1.1)"
            )
        }
        guard mle >= Self.minimumResponseDataSize else {
            throw TagMemoryError(.notFormatted, at: 3, "MLe \(mle) is below the minimum of 15 (T4T 3.0, 5.1)")
        }
        guard mlc >= 1 else {
            throw TagMemoryError(.notFormatted, at: 5, "MLc is 0: no UPDATE BINARY could carry data (T4T 3.0, 5.1)")
        }
        let control = try Self.readNDEFFileControl(from: &reader, version: version)
        var additional: [Type4ControlTLV] = []
        while reader.remaining > 0 {
            additional.append(try Type4ControlTLV.read(from: &reader, at: length - reader.remaining))
        }
        self.init(
            mappingVersion: version, maximumResponseDataSize: mle, maximumCommandDataSize: mlc, ndefFile: control,
            additionalTLVs: additional)
    }

    /// Parses a CC file image (T4T 3.0, 5.1), as the `ArraySlice` overload does.
    public init(parsing image: [UInt8]) throws(TagMemoryError) {
        try self.init(parsing: image[...])
    }

    /// The major mapping version (high nibble of ``mappingVersion``).
    public var majorVersion: Int { Int(mappingVersion >> 4) }
    /// The minor mapping version (low nibble of ``mappingVersion``).
    public var minorVersion: Int { Int(mappingVersion & 0x0F) }

    /// The size of the NLEN (2) or ENLEN (4) field at the start of the NDEF file.
    public var messageLengthFieldSize: Int { ndefFile.kind.messageLengthFieldSize }

    /// The offset of the NDEF file's write access byte in the CC file: `0E` after an NDEF File
    /// Control TLV, `10` after an Extended NDEF File Control TLV (its size field is 2 bytes longer).
    public var writeAccessOffset: Int { 7 + 2 + 2 + ndefFile.kind.sizeFieldLength + 1 }

    /// Whether offsets above `7FFF` can be reached (READ / UPDATE BINARY with an offset data
    /// object, mapping version 3.0).
    public var supportsOffsetDataObjects: Bool { majorVersion >= 3 }

    /// Status and capacity in CoreNFC's terms (T4T 3.0, 5.1.2 access conditions).
    ///
    /// No read access (`FF`) or a reserved access condition gives ``NFCNDEFStatus/notSupported``
    /// with capacity 0. Otherwise write access `00` gives ``NFCNDEFStatus/readWrite`` and any
    /// other write condition (`FF`, or proprietary `80`-`FE` which needs a tag-specific
    /// authorization) ``NFCNDEFStatus/readOnly``. A proprietary read condition may need the same
    /// before the NDEF file can be read. The capacity is the maximum NDEF file size less the
    /// NLEN (2) or ENLEN (4) field.
    public var ndefStatus: NDEFTagStatus {
        let read = ndefFile.readAccess
        let write = ndefFile.writeAccess
        let capacity = max(0, ndefFile.maximumFileSize - messageLengthFieldSize)
        guard read.isGranted || read.isProprietary, !write.isReserved else {
            return NDEFTagStatus(status: .notSupported, capacity: 0)
        }
        return NDEFTagStatus(status: write.isGranted ? .readWrite : .readOnly, capacity: capacity)
    }

    /// CCLEN for this content: 7 plus the size of every TLV.
    public var length: Int {
        let tlvs = additionalTLVs.reduce(0) { total, tlv in
            switch tlv {
            case .fileControl(let control): total + 2 + control.kind.valueLength
            case .other(_, let value): total + (value.count < 0xFF ? 2 : 4) + value.count
            }
        }
        return 7 + 2 + ndefFile.kind.valueLength + tlvs
    }

    /// Deviations from T4T 3.0 that this parser tolerates because readers in the field do.
    ///
    /// An MLc of 1 to 12 (5.1 asks for at least `000D`; Android and Nordic's parser accept 1);
    /// an Extended NDEF File Control TLV in a CC below version 3.0, or an NDEF File Control TLV
    /// in a version 3.0 CC (Android and nfcpy read either; Nordic's parser insists on the
    /// version's own TLV).
    public var conformanceIssues: [String] {
        var issues: [String] = []
        if maximumCommandDataSize < Self.minimumCommandDataSize {
            issues.append("MLc \(maximumCommandDataSize) is below the minimum of 13 (T4T 3.0, 5.1)")
        }
        if ndefFile.kind == .extendedNDEF, majorVersion < 3 {
            issues.append("an Extended NDEF File Control TLV in a version \(majorVersion) CC (T4T 3.0, 5.1.2)")
        }
        if ndefFile.kind == .ndef, majorVersion >= 3 {
            issues.append("an NDEF File Control TLV in a version 3 CC, which expects the Extended one (T4T 3.0, 5.1.2)")
        }
        return issues
    }

    /// The CC file bytes, with CCLEN computed from the content.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when MLe, MLc or a file size does not
    ///   fit its field, the first file control is not an NDEF or Extended NDEF one, or the CC
    ///   would be longer than 65 534 bytes.
    public func encoded() throws(TagMemoryError) -> [UInt8] {
        guard ndefFile.kind != .proprietary else {
            throw TagMemoryError(.invalidArgument, "the first file control must be an NDEF or Extended NDEF one")
        }
        guard let mle = UInt16(exactly: maximumResponseDataSize), let mlc = UInt16(exactly: maximumCommandDataSize)
        else {
            throw TagMemoryError(.invalidArgument, "MLe and MLc must be within 0...65535")
        }
        let total = length
        guard let cclen = UInt16(exactly: total), cclen != 0xFFFF else {
            throw TagMemoryError(.invalidArgument, "a CC of \(total) bytes is longer than CCLEN allows")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(total)
        for word in [cclen] { bytes += [UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)] }
        bytes.append(mappingVersion)
        for word in [mle, mlc] { bytes += [UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)] }
        bytes += try ndefFile.encoded()
        for tlv in additionalTLVs { bytes += try tlv.encoded() }
        return bytes
    }

    /// Reads and checks the mandatory NDEF or Extended NDEF File Control TLV at offset 7.
    private static func readNDEFFileControl(
        from reader: inout Type4ByteReader,
        version: UInt8
    ) throws(TagMemoryError) -> Type4FileControl {
        guard let type = reader.byte(), let valueLength = reader.byte() else {
            throw TagMemoryError(.malformedTLV, at: 7, "CCLEN leaves no room for the NDEF File Control TLV")
        }
        guard let kind = Type4FileControl.Kind(rawValue: type), kind != .proprietary,
            Int(valueLength) == kind.valueLength
        else {
            throw TagMemoryError(
                .malformedTLV, at: 7,
                "the TLV after MLc is T=\(Hex.byte(type)) L=\(Hex.byte(valueLength)), not an NDEF File "
                    + "Control TLV (04 06) or an Extended one (06 08) (T4T 3.0, 5.1.2)")
        }
        guard let value = reader.take(kind.valueLength) else {
            throw TagMemoryError(.malformedTLV, at: 7, "the \(kind) File Control TLV runs past CCLEN")
        }
        let control = Type4FileControl(kind: kind, value: value)
        try checkNDEFFileControl(control, version: version)
        return control
    }

    /// The value rules of T4T 3.0, 5.1.2 for the NDEF file control.
    private static func checkNDEFFileControl(_ control: Type4FileControl, version: UInt8) throws(TagMemoryError) {
        let id = control.fileIdentifier
        let reservedHere = Type4FileControl.reservedFileIdentifiers.contains(id) && !(id == 0 && version >> 4 == 1)
        guard !reservedHere else {
            throw TagMemoryError(
                .notFormatted, at: 9, "file identifier \(Hex.word(id)) is reserved (T4T 3.0, 5.1.2)")
        }
        let sizes =
            switch control.kind {
            case .extendedNDEF: 0x0000_0007...0xFFFF_FFFE
            default: 0x0005...(version >> 4 >= 3 ? 0xFFFE : 0x7FFF)
            }
        guard sizes.contains(control.maximumFileSize) else {
            throw TagMemoryError(
                .notFormatted, at: 11,
                "a maximum NDEF file size of \(control.maximumFileSize) is outside \(sizes.lowerBound)..."
                    + "\(sizes.upperBound) for this TLV and version (T4T 3.0, 5.1.2)")
        }
        let accessOffset = 11 + control.kind.sizeFieldLength
        for (offset, condition, what) in [
            (accessOffset, control.readAccess, "read"), (accessOffset + 1, control.writeAccess, "write"),
        ] where condition.isReserved {
            throw TagMemoryError(
                .notFormatted, at: offset,
                "the \(what) access condition \(Hex.byte(condition.rawValue)) is reserved (T4T 3.0, 5.1.2)")
        }
    }
}

extension Type4CapabilityContainer {
    /// What a session must know about the lock plan: the tag may refuse it, so verify.
    public static let lockCaveat =
        "many Type 4 tags refuse an UPDATE BINARY on the CC file (NTAG 424 DNA, for example, changes access "
        + "rights only through ChangeFileSettings): read the CC back to check that the write access is FF"

    /// Plans making the NDEF file read-only, as CoreNFC's `writeLock` does (T4T 3.0, 5.5.8, state
    /// change from READ/WRITE to READ-ONLY).
    ///
    /// One UPDATE BINARY on the CC file (`E103`) writes `FF` (no write access, 5.1.2) at the
    /// NDEF file's write access byte: offset `0E` after an NDEF File Control TLV, `10` after an
    /// Extended one. The step's reason carries ``lockCaveat``: the plan cannot be trusted until
    /// the session has read the CC back. A CC whose write access is already `FF` gives an empty
    /// plan.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when the CC grants no NDEF access.
    public func lockPlan() throws(TagMemoryError) -> TagWritePlan {
        guard ndefStatus.status != .notSupported else {
            throw TagMemoryError(
                .notFormatted, at: writeAccessOffset - 1,
                "the CC grants no NDEF access (read \(ndefFile.readAccess), write \(ndefFile.writeAccess))")
        }
        if ndefFile.writeAccess.isNone { return TagWritePlan(steps: []) }
        let reason =
            "write access \(Hex.byte(ndefFile.writeAccess.rawValue)) -> FF: the NDEF file becomes read-only "
            + "(T4T 3.0, 5.1.2 and 5.5.8); \(Self.lockCaveat)"
        return TagWritePlan(steps: [
            PlanStep(file: Self.fileIdentifier, address: writeAccessOffset, data: [0xFF], reason: reason)
        ])
    }
}

/// A TLV block of the Type 4 capability container after the mandatory NDEF file control.
///
/// NFC Forum Type 4 Tag 3.0, section 5.1.2: the CC may list further files, typically with
/// Proprietary File Control TLVs (T = 05). They are kept as read so a CC written back (for
/// example by the lock plan, which changes one byte) and the description of a tag keep them.
public enum Type4ControlTLV: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A file control TLV of a known type and length (T = 04 or 05 with L = 06, T = 06 with L = 08).
    case fileControl(Type4FileControl)
    /// Any other TLV, byte for byte.
    case other(type: UInt8, value: [UInt8])

    /// The TLV bytes; a value of 255 bytes or more uses the 3-byte length form (FF, then 2 bytes).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a value longer than 65 535 bytes or
    ///   a file size that does not fit its field.
    public func encoded() throws(TagMemoryError) -> [UInt8] {
        switch self {
        case .fileControl(let control):
            return try control.encoded()
        case .other(let type, let value):
            guard value.count <= Int(UInt16.max) else {
                throw TagMemoryError(
                    .invalidArgument, "a TLV value of \(value.count) bytes does not fit a length field")
            }
            if value.count < 0xFF { return [type, UInt8(value.count)] + value }
            let length = UInt16(truncatingIfNeeded: value.count)
            return [type, 0xFF, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)] + value
        }
    }

    public var description: String {
        switch self {
        case .fileControl(let control): control.description
        case .other(let type, let value): "TLV \(Hex.byte(type)) with \(value.count) value bytes"
        }
    }

    /// Reads one TLV from the front of `reader`; `offset` is where it starts in the CC file.
    static func read(from reader: inout Type4ByteReader, at offset: Int) throws(TagMemoryError) -> Type4ControlTLV {
        guard let type = reader.byte(), let first = reader.byte() else {
            throw TagMemoryError(.malformedTLV, at: offset, "a TLV header is cut off by CCLEN")
        }
        var length = Int(first)
        if first == 0xFF {
            guard let long = reader.word() else {
                throw TagMemoryError(.malformedTLV, at: offset, "a 3-byte TLV length is cut off by CCLEN")
            }
            guard long >= 0xFF else {
                throw TagMemoryError(.malformedTLV, at: offset, "a 3-byte TLV length of \(long) should use 1 byte")
            }
            length = Int(long)
        }
        guard let value = reader.take(length) else {
            throw TagMemoryError(
                .malformedTLV, at: offset, "TLV \(Hex.byte(type)) with \(length) value bytes runs past CCLEN")
        }
        if let kind = Type4FileControl.Kind(rawValue: type), first == UInt8(kind.valueLength) {
            return .fileControl(Type4FileControl(kind: kind, value: value))
        }
        return .other(type: type, value: Array(value))
    }
}
