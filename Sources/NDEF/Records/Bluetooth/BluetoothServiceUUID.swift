/// A Bluetooth service class UUID of 16, 32 or 128 bits, as listed in EIR and AD data.
///
/// Bluetooth Core Specification Supplement, Part A, section 1.1 (Service or Service Class
/// UUID); 16- and 32-bit UUIDs are shortened forms of the Bluetooth Base UUID
/// `00000000-0000-1000-8000-00805f9b34fb`. All forms are transmitted least significant byte
/// first. Written as 4 hex digits (`110b`), 8 hex digits, or a full UUID string.
public struct BluetoothServiceUUID: Sendable, Hashable, CustomStringConvertible {
    /// The UUID bytes, most significant first: 2, 4 or 16 of them.
    public let bytes: [UInt8]

    /// A UUID from 2, 4 or 16 bytes, most significant first; `nil` for other counts.
    public init?(bytes: some Collection<UInt8>) {
        guard [2, 4, 16].contains(bytes.count) else { return nil }
        self.bytes = Array(bytes)
    }

    /// A 16-bit UUID such as 0x110B (Audio Sink).
    public init(uuid16: UInt16) {
        self.bytes = [UInt8(truncatingIfNeeded: uuid16 >> 8), UInt8(truncatingIfNeeded: uuid16)]
    }

    /// Parses `110b`, `0000110b`, `0000110b-0000-1000-8000-00805f9b34fb` or those 32 digits.
    public init?(_ text: String) {
        let digits = text.filter { $0 != "-" }
        let dashed = text.count == 36
        guard dashed || digits.count == text.count, let bytes = try? NDEFHex.decode(digits) else { return nil }
        if dashed && !(bytes.count == 16 && Self.dashesAreCanonical(text)) { return nil }
        self.init(bytes: bytes)
    }

    private static func dashesAreCanonical(_ text: String) -> Bool {
        let positions = text.utf8.enumerated().filter { $0.element == UInt8(ascii: "-") }.map(\.offset)
        return positions == [8, 13, 18, 23]
    }

    /// The width in bits: 16, 32 or 128.
    public var bitWidth: Int { bytes.count * 8 }

    /// Lower-case hex; a 128-bit UUID in the 8-4-4-4-12 form.
    public var description: String {
        let hex = NDEFHex.encode(bytes)
        guard bytes.count == 16 else { return hex }
        let characters = Array(hex)
        var parts: [String] = []
        var start = 0
        for length in [8, 4, 4, 4, 12] {
            parts.append(String(characters[start..<start + length]))
            start += length
        }
        return parts.joined(separator: "-")
    }
}
