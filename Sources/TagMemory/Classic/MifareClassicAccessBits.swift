import HexText

/// The three access-bit bytes of a sector trailer (bytes 6-8).
///
/// NXP MF1S50yyX section 8.7.1, Figure 10: each of C1, C2 and C3 is a nibble whose bit n is
/// the condition of group n (group 3 is the trailer), stored once inverted and once plain:
///
/// | byte | bits 7-4 | bits 3-0 |
/// |------|----------|----------|
/// | 6    | ¬C2      | ¬C1      |
/// | 7    | C1       | ¬C3      |
/// | 8    | C3       | C2       |
///
/// "With each memory access the internal logic verifies the format of the access conditions.
/// If it detects a format violation the whole sector is irreversibly blocked" (8.7.1): a
/// sector whose bytes fail ``isConsistent`` cannot be read or written at all. For example
/// FF 07 80 (transport) gives data blocks 000 and trailer 001; 7F 07 88 (NFC sectors, AN1304)
/// gives data blocks 000 and trailer 011; 78 77 88 (MAD sector, AN10787) data blocks 100 and
/// trailer 011; 07 8F 0F (read-only NFC sector, AN1305) data blocks 010 and trailer 110.
public struct MifareClassicAccessBits: Sendable, Hashable, CustomStringConvertible {
    /// Byte 6.
    public let byte6: UInt8
    /// Byte 7.
    public let byte7: UInt8
    /// Byte 8.
    public let byte8: UInt8

    /// The access bits stored in `byte6`, `byte7`, `byte8`.
    public init(byte6: UInt8, byte7: UInt8, byte8: UInt8) {
        self.byte6 = byte6
        self.byte7 = byte7
        self.byte8 = byte8
    }

    /// The access bits giving condition `conditions[n]` (C1 C2 C3 in bits 2, 1, 0) to group n.
    ///
    /// The inverse of ``condition(ofGroup:)``: the bytes are always consistent. Groups past the
    /// fourth are ignored, missing ones get 000.
    public init(conditions: [UInt8]) {
        var c1: UInt8 = 0
        var c2: UInt8 = 0
        var c3: UInt8 = 0
        for (group, condition) in conditions.prefix(4).enumerated() {
            c1 |= (condition >> 2 & 1) << group
            c2 |= (condition >> 1 & 1) << group
            c3 |= (condition & 1) << group
        }
        self.byte6 = (~c2 & 0x0F) << 4 | (~c1 & 0x0F)
        self.byte7 = c1 << 4 | (~c3 & 0x0F)
        self.byte8 = c3 << 4 | c2
    }

    /// The three bytes, in order.
    public var bytes: [UInt8] { [byte6, byte7, byte8] }

    /// The C1 nibble (byte 7, bits 7-4).
    public var c1: UInt8 { byte7 >> 4 }
    /// The C2 nibble (byte 8, bits 3-0).
    public var c2: UInt8 { byte8 & 0x0F }
    /// The C3 nibble (byte 8, bits 7-4).
    public var c3: UInt8 { byte8 >> 4 }

    /// Whether every inverted copy matches its plain bit (MF1S50yyX 8.7.1). A sector whose
    /// access bits are not consistent is blocked for good.
    public var isConsistent: Bool {
        (~byte6 & 0x0F) == c1 && (~byte6 >> 4) == c2 && (~byte7 & 0x0F) == c3
    }

    /// The condition of group `group` (0-3) as C1 C2 C3 in bits 2, 1, 0, read from the plain
    /// copies; nil for another group.
    public func condition(ofGroup group: Int) -> UInt8? {
        guard (0...3).contains(group) else { return nil }
        return (c1 >> group & 1) << 2 | (c2 >> group & 1) << 1 | (c3 >> group & 1)
    }

    /// The access of data-block group `group` (0-2), nil for another group or inconsistent bits.
    public func dataBlockAccess(group: Int) -> MifareClassicDataBlockAccess? {
        guard isConsistent, group < 3, let condition = condition(ofGroup: group) else { return nil }
        return MifareClassicDataBlockAccess(condition: condition)
    }

    /// The access of data groups 0, 1 and 2; empty when the bits are inconsistent.
    public var dataBlockAccess: [MifareClassicDataBlockAccess] { (0..<3).compactMap { dataBlockAccess(group: $0) } }

    /// The access to the sector trailer (group 3), nil when the bits are inconsistent.
    public var trailerAccess: MifareClassicTrailerAccess? {
        guard isConsistent, let condition = condition(ofGroup: 3) else { return nil }
        return MifareClassicTrailerAccess(condition: condition)
    }

    /// The factory (transport) access bits FF 07 80 (MF1S50yyX 8.6.3).
    public static let transport = MifareClassicAccessBits(byte6: 0xFF, byte7: 0x07, byte8: 0x80)
    /// The access bits of a MAD sector, 78 77 88 (AN10787; libfreefare mad.c, Android rw_mfc.cc).
    public static let directory = MifareClassicAccessBits(byte6: 0x78, byte7: 0x77, byte8: 0x88)
    /// The access bits of a read/write NFC sector, 7F 07 88 (AN1304; Android rw_mfc.cc).
    public static let ndefReadWrite = MifareClassicAccessBits(byte6: 0x7F, byte7: 0x07, byte8: 0x88)
    /// The access bits of a read-only NFC sector, 07 8F 0F (AN1305; NXP phFriNfc_MifareStdMap).
    public static let ndefReadOnly = MifareClassicAccessBits(byte6: 0x07, byte7: 0x8F, byte8: 0x0F)

    /// The three bytes as upper-case hex, for example `7F 07 88`.
    public var hexText: String { Hex.bytes(bytes) }

    public var description: String {
        isConsistent ? hexText : hexText + " (inconsistent: sector blocked)"
    }
}

/// The keys that may perform an operation on a MIFARE Classic block.
///
/// The access condition tables of NXP MF1S50yyX (section 8.7.2, Table 7 for the sector trailer
/// and 8.7.3, Table 8 for data blocks) name, for each operation, "key A", "key B",
/// "key A|B" or "never": the empty set is "never".
public struct MifareClassicKeys: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Key A.
    public static let keyA = MifareClassicKeys(rawValue: 1)
    /// Key B.
    public static let keyB = MifareClassicKeys(rawValue: 2)
    /// Either key ("key A|B" in the datasheet tables).
    public static let either: MifareClassicKeys = [.keyA, .keyB]
    /// No key: the operation is never allowed.
    public static let never: MifareClassicKeys = []

    public var description: String {
        switch self {
        case .either: "key A|B"
        case .keyA: "key A"
        case .keyB: "key B"
        default: "never"
        }
    }
}

/// What the access bits C1 C2 C3 of group 3 allow on the sector trailer.
///
/// NXP MF1S50yyX section 8.7.2, Table 7 (access conditions for the sector trailer). Key A is
/// never readable; "A" is key A, "B" key B:
///
/// | C1 C2 C3 | key A write | access bits read | access bits write | key B read | key B write |
/// |----------|-------------|------------------|-------------------|------------|-------------|
/// | 0 0 0    | A           | A                | never             | A          | A           |
/// | 0 1 0    | never       | A                | never             | A          | never       |
/// | 1 0 0    | B           | A\|B             | never             | never      | B           |
/// | 1 1 0    | never       | A\|B             | never             | never      | never       |
/// | 0 0 1    | A           | A                | A                 | A          | A           |
/// | 0 1 1    | B           | A\|B             | B                 | never      | B           |
/// | 1 0 1    | never       | A\|B             | B                 | never      | never       |
/// | 1 1 1    | never       | A\|B             | never             | never      | never       |
///
/// 0 0 1 is the transport configuration (factory access bits FF 07 80). Where key B may be
/// read (000, 010, 001) it cannot serve for authentication (note [1] of Tables 7 and 8).
/// The general purpose byte (byte 9) has the same rights as the access bits (8.6.3).
/// libfreefare (`mifare_trailer_access_permissions` in mifare_classic.c) encodes the same table.
public struct MifareClassicTrailerAccess: Sendable, Hashable, CustomStringConvertible {
    /// The condition as the three bits C1 C2 C3, C1 the most significant.
    public let condition: UInt8
    /// The keys that may read key A: always none (key A reads back as zeros).
    public var keyARead: MifareClassicKeys { .never }
    /// The keys that may write key A.
    public let keyAWrite: MifareClassicKeys
    /// The keys that may read the access bits and the general purpose byte.
    public let accessBitsRead: MifareClassicKeys
    /// The keys that may write the access bits and the general purpose byte.
    public let accessBitsWrite: MifareClassicKeys
    /// The keys that may read key B.
    public let keyBRead: MifareClassicKeys
    /// The keys that may write key B.
    public let keyBWrite: MifareClassicKeys

    /// The access for condition `condition` (C1 C2 C3 in bits 2, 1, 0; higher bits ignored).
    public init(condition: UInt8) {
        let bits = condition & 0b111
        self.condition = bits
        let a: MifareClassicKeys = .keyA
        let b: MifareClassicKeys = .keyB
        let n: MifareClassicKeys = .never
        switch bits {
        case 0b000: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (a, a, n, a, a)
        case 0b010: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (n, a, n, a, n)
        case 0b100: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (b, .either, n, n, b)
        case 0b110: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (n, .either, n, n, n)
        case 0b001: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (a, a, a, a, a)
        case 0b011: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (b, .either, b, n, b)
        case 0b101: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (n, .either, b, n, n)
        default: (keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite) = (n, .either, n, n, n)
        }
    }

    /// Whether key B may be read, and so cannot authenticate (Tables 7 and 8, note [1]).
    public var isKeyBReadable: Bool { !keyBRead.isEmpty }

    /// Whether this is the transport configuration (001), the factory setting.
    public var isTransportConfiguration: Bool { condition == 0b001 }

    /// Whether no key may ever change the trailer again (110, 111).
    public var isFrozen: Bool { keyAWrite.isEmpty && accessBitsWrite.isEmpty && keyBWrite.isEmpty }

    public var description: String {
        let bits = String(condition, radix: 2)
        let padded = String(repeating: "0", count: max(0, 3 - bits.count)) + bits
        return "C1C2C3=\(padded): key A write \(keyAWrite), access bits read \(accessBitsRead) "
            + "write \(accessBitsWrite), key B read \(keyBRead) write \(keyBWrite)"
    }
}

/// What the access bits C1 C2 C3 allow on a data block.
///
/// NXP MF1S50yyX section 8.7.3, Table 8 (access conditions for data blocks):
///
/// | C1 C2 C3 | read  | write | increment | decrement, transfer, restore | application         |
/// |----------|-------|-------|-----------|------------------------------|---------------------|
/// | 0 0 0    | A\|B  | A\|B  | A\|B      | A\|B                         | transport config.   |
/// | 0 1 0    | A\|B  | never | never     | never                        | read/write block    |
/// | 1 0 0    | A\|B  | B     | never     | never                        | read/write block    |
/// | 1 1 0    | A\|B  | B     | B         | A\|B                         | value block         |
/// | 0 0 1    | A\|B  | never | never     | A\|B                         | value block         |
/// | 0 1 1    | B     | B     | never     | never                        | read/write block    |
/// | 1 0 1    | B     | never | never     | never                        | read/write block    |
/// | 1 1 1    | never | never | never     | never                        | read/write block    |
///
/// The table gives the datasheet's permissions. Note [1] of Table 8 adds that key B cannot
/// authenticate when the sector trailer's conditions let key B be read
/// (``MifareClassicTrailerAccess/isKeyBReadable``); ``effective(keyBReadable:)`` applies it.
/// libfreefare (`mifare_data_access_permissions` in mifare_classic.c) encodes the same table.
public struct MifareClassicDataBlockAccess: Sendable, Hashable, CustomStringConvertible {
    /// The condition as the three bits C1 C2 C3, C1 the most significant (0b100 is "1 0 0").
    public let condition: UInt8
    /// The keys that may read the block.
    public let read: MifareClassicKeys
    /// The keys that may write the block.
    public let write: MifareClassicKeys
    /// The keys that may increment a value block.
    public let increment: MifareClassicKeys
    /// The keys that may decrement a value block, or transfer or restore it.
    public let decrementTransferRestore: MifareClassicKeys

    /// The access for condition `condition` (C1 C2 C3 in bits 2, 1, 0; higher bits ignored).
    public init(condition: UInt8) {
        let bits = condition & 0b111
        self.condition = bits
        let a: MifareClassicKeys = .either
        switch bits {
        case 0b000: (read, write, increment, decrementTransferRestore) = (a, a, a, a)
        case 0b010: (read, write, increment, decrementTransferRestore) = (a, .never, .never, .never)
        case 0b100: (read, write, increment, decrementTransferRestore) = (a, .keyB, .never, .never)
        case 0b110: (read, write, increment, decrementTransferRestore) = (a, .keyB, .keyB, a)
        case 0b001: (read, write, increment, decrementTransferRestore) = (a, .never, .never, a)
        case 0b011: (read, write, increment, decrementTransferRestore) = (.keyB, .keyB, .never, .never)
        case 0b101: (read, write, increment, decrementTransferRestore) = (.keyB, .never, .never, .never)
        default: (read, write, increment, decrementTransferRestore) = (.never, .never, .never, .never)
        }
    }

    /// The access for the bits C1, C2 and C3 (each 0 or 1; only bit 0 of each is used).
    public init(c1: UInt8, c2: UInt8, c3: UInt8) {
        self.init(condition: (c1 & 1) << 2 | (c2 & 1) << 1 | (c3 & 1))
    }

    /// Whether the datasheet calls the block a value block under this condition (110, 001).
    public var isValueBlock: Bool { condition == 0b110 || condition == 0b001 }

    /// Whether this is the transport configuration (000), the factory setting.
    public var isTransportConfiguration: Bool { condition == 0b000 }

    /// The permissions once key B is taken away when it is readable (Table 8, note [1]).
    public func effective(keyBReadable: Bool) -> MifareClassicDataBlockAccess.Permissions {
        let remove: MifareClassicKeys = keyBReadable ? .keyB : []
        return Permissions(
            read: read.subtracting(remove), write: write.subtracting(remove),
            increment: increment.subtracting(remove),
            decrementTransferRestore: decrementTransferRestore.subtracting(remove))
    }

    /// Permissions after applying note [1] of Table 8.
    public struct Permissions: Sendable, Hashable {
        /// The keys that may read.
        public var read: MifareClassicKeys
        /// The keys that may write.
        public var write: MifareClassicKeys
        /// The keys that may increment.
        public var increment: MifareClassicKeys
        /// The keys that may decrement, transfer or restore.
        public var decrementTransferRestore: MifareClassicKeys
    }

    public var description: String {
        let bits = String(condition, radix: 2)
        let padded = String(repeating: "0", count: max(0, 3 - bits.count)) + bits
        return "C1C2C3=\(padded): read \(read), write \(write), increment \(increment), "
            + "decrement/transfer/restore \(decrementTransferRestore)"
    }
}
