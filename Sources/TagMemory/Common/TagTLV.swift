import NDEF

/// One TLV block found in a tag's data area, with the physical byte address of each part.
///
/// NFC Forum Type 2 Tag 1.1, section 2.3 (the same blocks appear in the MIFARE Classic and
/// Type 5 mappings). NULL (00h) and Terminator (FEh) are a single T byte; every other block
/// has a length field of one byte (00h-FEh) or three bytes (FFh then a big-endian 00FFh-FFFEh)
/// and that many value bytes. Reserved bytes (lock bytes, Memory Control areas) are not part of
/// the block: its T, L and V bytes flow around them (2.2.1), so the value is a list of runs.
public struct TagTLV: Sendable, Hashable {
    /// What a TLV block is, from its T byte (T2T 1.1, 2.3, Table 3).
    public enum Kind: Sendable, Hashable {
        /// 00h: padding, one byte, no length (2.3.1).
        case null
        /// 01h: where the dynamic lock bits are (2.3.2).
        case lockControl
        /// 02h: a reserved memory area (2.3.3).
        case memoryControl
        /// 03h: an NDEF message (2.3.4).
        case ndefMessage
        /// FDh: proprietary data (2.3.5).
        case proprietary
        /// FEh: the last TLV block, one byte, no length (2.3.6).
        case terminator
        /// A T value the specification reserves (04h-FCh, FFh); the scanner skips it by its length.
        case unknown(UInt8)

        /// The kind of a T byte.
        public init(type: UInt8) {
            switch type {
            case 0x00: self = .null
            case 0x01: self = .lockControl
            case 0x02: self = .memoryControl
            case 0x03: self = .ndefMessage
            case 0xFD: self = .proprietary
            case 0xFE: self = .terminator
            default: self = .unknown(type)
            }
        }

        /// The T byte.
        public var type: UInt8 {
            switch self {
            case .null: 0x00
            case .lockControl: 0x01
            case .memoryControl: 0x02
            case .ndefMessage: 0x03
            case .proprietary: 0xFD
            case .terminator: 0xFE
            case .unknown(let type): type
            }
        }
    }

    /// The kind of block.
    public var kind: Kind
    /// The byte address of the T byte.
    public var typeAddress: Int
    /// The byte addresses of the length field: none for NULL and Terminator, else 1 or 3.
    public var lengthAddresses: [Int]
    /// The number of value bytes (0 for NULL and Terminator).
    public var length: Int
    /// The value bytes as runs of consecutive addresses, in order (empty when `length` is 0).
    public var valueRanges: [Range<Int>]
    /// The decoded value of a Lock Control TLV.
    public var lockControl: LockControlTLV?
    /// The decoded value of a Memory Control TLV.
    public var memoryControl: MemoryControlTLV?

    /// Creates a block description.
    public init(
        kind: Kind,
        typeAddress: Int,
        lengthAddresses: [Int] = [],
        length: Int = 0,
        valueRanges: [Range<Int>] = [],
        lockControl: LockControlTLV? = nil,
        memoryControl: MemoryControlTLV? = nil
    ) {
        self.kind = kind
        self.typeAddress = typeAddress
        self.lengthAddresses = lengthAddresses
        self.length = length
        self.valueRanges = valueRanges
        self.lockControl = lockControl
        self.memoryControl = memoryControl
    }

    /// The T byte.
    public var type: UInt8 { kind.type }

    /// The address of the first length byte, if the block has a length field.
    public var lengthAddress: Int? { lengthAddresses.first }

    /// The address of the first value byte, if the block has a value.
    public var valueAddress: Int? { valueRanges.first?.lowerBound }

    /// One past the address of the block's last byte.
    public var endAddress: Int {
        if let last = valueRanges.last { return last.upperBound }
        if let last = lengthAddresses.last { return last + 1 }
        return typeAddress + 1
    }

    /// The value bytes, gathered from `memory` (indexed by byte address) around reserved bytes.
    ///
    /// Runs outside `memory` are left out, so a block from another image cannot trap.
    public func value(in memory: ArraySlice<UInt8>) -> [UInt8] {
        var value: [UInt8] = []
        value.reserveCapacity(length)
        for run in valueRanges {
            let clamped = run.clamped(to: memory.startIndex..<memory.endIndex)
            value.append(contentsOf: memory[clamped])
        }
        return value
    }

    /// The T and L bytes of a block with a `length`-byte value: one length byte below 255,
    /// else FFh and two big-endian bytes (T2T 1.1, 2.3).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for a NULL or Terminator type (they
    ///   have no length) or a length outside 0...0xFFFE.
    public static func header(type: UInt8, length: Int) throws(TagMemoryError) -> [UInt8] {
        guard type != 0x00, type != 0xFE else {
            throw TagMemoryError(.invalidArgument, "NULL and Terminator TLVs have no length field")
        }
        guard (0...0xFFFE).contains(length) else {
            throw TagMemoryError(.invalidArgument, "a TLV length must be 0 to 65534, not \(length)")
        }
        if length < 0xFF { return [type, UInt8(truncatingIfNeeded: length)] }
        return [type, 0xFF, UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
    }

    /// The size of the T and L bytes for a value of `length` bytes: 2 below 255, else 4.
    public static func headerSize(length: Int) -> Int { length < 0xFF ? 2 : 4 }
}

extension TagTLV {
    /// The NDEF message this NDEF Message TLV holds in `value` (its value bytes): nil and no
    /// problem for an empty TLV (`03 00`, an INITIALIZED tag, T2T 1.1 6.3.1); nil and a
    /// ``TagMemoryError/Code/malformedMessage`` naming the value's address when the bytes are not
    /// NDEF 1.0.
    func decodedMessage(
        _ value: [UInt8], options: NDEFDecodingOptions
    ) -> (message: NFCNDEFMessage?, problem: TagMemoryError?) {
        guard !value.isEmpty else { return (nil, nil) }
        do {
            return (try NFCNDEFMessage(decoding: value, options: options), nil)
        } catch {
            let address = valueAddress ?? typeAddress
            return (
                nil,
                TagMemoryError(
                    .malformedMessage, at: address,
                    "the NDEF message at byte \(address) is not valid NDEF: \(error.description)")
            )
        }
    }
}

/// The value of a Memory Control TLV: a range of reserved bytes inside the data area.
///
/// NFC Forum Type 2 Tag 1.1, section 2.3.3. The three value bytes are:
/// - Position: page address (4 most significant bits) and byte offset (4 least significant);
/// - Size: the number of reserved bytes (0 means 256);
/// - Page control: 4 most significant bits reserved, 4 least significant bits `MPS`
///   (a page has 2^`MPS` bytes).
///
/// The first reserved byte is at `PageAddr × 2^MPS + ByteOffset`; TLV blocks, NDEF data
/// included, skip the reserved bytes (2.2.1).
public struct MemoryControlTLV: Sendable, Hashable {
    /// The page address nibble of the position byte.
    public var pageAddress: Int
    /// The byte offset nibble of the position byte.
    public var byteOffset: Int
    /// The number of reserved bytes (1 to 256).
    public var size: Int
    /// The page size used by the position (2^`MPS`).
    public var bytesPerPage: Int

    /// Decodes the three value bytes.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` unless `value` has exactly three bytes
    ///   (T2T 1.1, 2.3.3: the length of a Memory Control TLV is 3).
    public init(value: some Collection<UInt8>) throws(TagMemoryError) {
        let bytes = Array(value)
        guard bytes.count == 3 else {
            throw TagMemoryError(
                .malformedTLV, "a Memory Control TLV has 3 value bytes (T2T 1.1, 2.3.3); this one has \(bytes.count)")
        }
        self.pageAddress = Int(bytes[0] >> 4)
        self.byteOffset = Int(bytes[0] & 0x0F)
        self.size = bytes[1] == 0 ? 256 : Int(bytes[1])
        self.bytesPerPage = 1 << Int(bytes[2] & 0x0F)
    }

    /// The byte address of the first reserved byte.
    public var byteAddress: Int { pageAddress * bytesPerPage + byteOffset }

    /// The reserved byte addresses.
    public var reservedBytes: Range<Int> { byteAddress..<(byteAddress + max(0, size)) }
}

/// The value of a Lock Control TLV: where the dynamic lock bytes are and what each bit locks.
///
/// NFC Forum Type 2 Tag 1.1, section 2.3.2. The three value bytes are:
/// - Position: the 4 most significant bits give the page address (`PageAddr`), the 4 least
///   significant bits the byte offset in that page (`ByteOffset`);
/// - Size: the number of dynamic lock bits (0 means 256);
/// - Page control: the 4 most significant bits give `BLPLB_Index` (each lock bit locks
///   2^`BLPLB_Index` bytes), the 4 least significant bits `MPS` (a page has 2^`MPS` bytes).
///
/// The first lock byte is at byte address `PageAddr × 2^MPS + ByteOffset`. For the factory
/// NTAG213 TLV `01 03 A0 0C 34` that is 10 × 16 + 0 = 160 (page 0x28), 12 bits of 8 bytes each.
public struct LockControlTLV: Sendable, Hashable {
    /// The page address nibble of the position byte.
    public var pageAddress: Int
    /// The byte offset nibble of the position byte.
    public var byteOffset: Int
    /// The number of dynamic lock bits (1 to 256).
    public var lockBitCount: Int
    /// How many bytes each lock bit locks (2^`BLPLB_Index`).
    public var bytesLockedPerBit: Int
    /// The page size used by the position (2^`MPS`).
    public var bytesPerPage: Int

    /// Decodes the three value bytes.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedTLV`` unless `value` has exactly three bytes
    ///   (T2T 1.1, 2.3.2: the length of a Lock Control TLV is 3).
    public init(value: some Collection<UInt8>) throws(TagMemoryError) {
        let bytes = Array(value)
        guard bytes.count == 3 else {
            throw TagMemoryError(
                .malformedTLV, "a Lock Control TLV has 3 value bytes (T2T 1.1, 2.3.2); this one has \(bytes.count)")
        }
        self.pageAddress = Int(bytes[0] >> 4)
        self.byteOffset = Int(bytes[0] & 0x0F)
        self.lockBitCount = bytes[1] == 0 ? 256 : Int(bytes[1])
        self.bytesLockedPerBit = 1 << Int(bytes[2] >> 4)
        self.bytesPerPage = 1 << Int(bytes[2] & 0x0F)
    }

    /// The byte address of the first dynamic lock byte.
    public var byteAddress: Int { pageAddress * bytesPerPage + byteOffset }

    /// The number of bytes holding the lock bits.
    public var lockByteCount: Int { max(0, lockBitCount + 7) / 8 }

    /// The byte addresses of the lock bytes: reserved, TLV blocks flow around them (2.2.1).
    public var lockBytes: Range<Int> { byteAddress..<(byteAddress + lockByteCount) }
}
