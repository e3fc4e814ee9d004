import HexText

/// A 48-bit IEEE MAC address or Bluetooth device address (BD_ADDR), most significant byte first.
///
/// Written as `00:0c:78:51:c4:06`. Wi-Fi Simple Configuration transmits a MAC address in this
/// order; Bluetooth OOB data transmits BD_ADDR least significant byte first (Bluetooth Core
/// Specification, Vol 3 Part C, section 5.2.2.7), which the Bluetooth views reverse.
public struct HardwareAddress: Sendable, Hashable, CustomStringConvertible {
    /// The six bytes, most significant first.
    public let bytes: [UInt8]

    /// The broadcast address `ff:ff:ff:ff:ff:ff`, which Wi-Fi credentials use when the access
    /// point's address is unknown.
    public static let broadcast = HardwareAddress(validated: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])

    private init(validated bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// An address from six bytes, most significant first; `nil` for any other count.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 6 else { return nil }
        self.bytes = Array(bytes)
    }

    /// An address from six bytes transmitted least significant first (Bluetooth BD_ADDR).
    init?(littleEndian bytes: some Collection<UInt8>) {
        self.init(bytes: bytes.reversed())
    }

    /// Parses `00:0c:78:51:c4:06`, `00-0C-78-51-C4-06` or `000c7851c406`; `nil` if not six bytes.
    public init?(_ text: String) {
        guard let bytes = try? Hex.decode(text, allowSeparators: true) else { return nil }
        self.init(bytes: bytes)
    }

    /// The bytes least significant first, as Bluetooth transmits them.
    var littleEndianBytes: [UInt8] { bytes.reversed() }

    /// Lower-case hex bytes separated by colons, most significant first.
    public var description: String {
        bytes.map { Hex.encode([$0]) }.joined(separator: ":")
    }
}
