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
