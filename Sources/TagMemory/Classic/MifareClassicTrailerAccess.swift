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
