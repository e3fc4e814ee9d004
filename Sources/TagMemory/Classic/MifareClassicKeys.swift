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
