import HexText

/// The typed values read from EIR or AD data structures by the Bluetooth views.
///
/// Each known type is read from its first structure (service UUID lists from all of them);
/// later repeats and unknown types stay in ``other``. A known type with a wrong length is an
/// error: `invalidPayload` when parsing, `invalidValue` when building.
struct BluetoothFields {
    var name: String?
    var nameIsShortened = false
    var classOfDevice: UInt32?
    var hashC192: [UInt8]?
    var randomizerR192: [UInt8]?
    var hashC256: [UInt8]?
    var randomizerR256: [UInt8]?
    var serviceUUIDs: [BluetoothServiceUUID] = []
    var serviceUUIDsComplete = true
    var leAddress: HardwareAddress?
    var leAddressFlags: UInt8?
    var leRole: UInt8?
    var appearance: UInt16?
    var flags: UInt8?
    var securityManagerTK: [UInt8]?
    var leConfirmation: [UInt8]?
    var leRandom: [UInt8]?
    var other: [BluetoothDataStructure] = []

    /// The types the BR/EDR view reads (NFC Forum BTSSP 1.2, section 3.1).
    static let basicRateTypes: Set<UInt8> = [
        BluetoothDataType.incomplete16BitUUIDs, BluetoothDataType.complete16BitUUIDs,
        BluetoothDataType.incomplete32BitUUIDs, BluetoothDataType.complete32BitUUIDs,
        BluetoothDataType.incomplete128BitUUIDs, BluetoothDataType.complete128BitUUIDs,
        BluetoothDataType.shortenedLocalName, BluetoothDataType.completeLocalName, BluetoothDataType.classOfDevice,
        BluetoothDataType.simplePairingHashC192, BluetoothDataType.simplePairingRandomizerR192,
        BluetoothDataType.simplePairingHashC256, BluetoothDataType.simplePairingRandomizerR256,
    ]

    /// The types the LE view reads (NFC Forum BTSSP 1.2, section 3.2).
    static let lowEnergyTypes: Set<UInt8> = [
        BluetoothDataType.flags, BluetoothDataType.shortenedLocalName, BluetoothDataType.completeLocalName,
        BluetoothDataType.securityManagerTK, BluetoothDataType.appearance, BluetoothDataType.leDeviceAddress,
        BluetoothDataType.leRole, BluetoothDataType.leSecureConnectionsConfirmation,
        BluetoothDataType.leSecureConnectionsRandom,
    ]

    init(
        _ list: [BluetoothDataStructure.Located],
        reads: Set<UInt8>,
        code: NDEFError.Code,
        context: String
    ) throws(NDEFError) {
        let hasCompleteName =
            reads.contains(BluetoothDataType.completeLocalName)
            && list.contains {
                $0.structure.type == BluetoothDataType.completeLocalName
                    && CarrierCoding.utf8String($0.structure.data) != nil
            }
        var seen: Set<UInt8> = []
        for item in list {
            let type = item.structure.type
            guard reads.contains(type), !seen.contains(type) || Self.isUUIDList(type) else {
                other.append(item.structure)
                continue
            }
            let taken = try take(item, hasCompleteName: hasCompleteName, code: code, context: context)
            if taken {
                seen.insert(type)
            } else {
                other.append(item.structure)
            }
        }
    }

    private static func isUUIDList(_ type: UInt8) -> Bool {
        type >= BluetoothDataType.incomplete16BitUUIDs && type <= BluetoothDataType.complete128BitUUIDs
    }

    /// Reads one structure into its field; returns `false` when it stays among ``other``.
    private mutating func take(
        _ item: BluetoothDataStructure.Located,
        hasCompleteName: Bool,
        code: NDEFError.Code,
        context: String
    ) throws(NDEFError) -> Bool {
        let data = item.structure.data
        let type = item.structure.type
        func require(_ count: Int, _ what: String) throws(NDEFError) {
            guard data.count == count else {
                let offset = code == .invalidPayload ? item.dataOffset : nil
                throw NDEFError(code, at: offset, "\(context): \(what) is \(count) bytes, not \(data.count)")
            }
        }
        switch type {
        case BluetoothDataType.completeLocalName, BluetoothDataType.shortenedLocalName:
            let shortened = type == BluetoothDataType.shortenedLocalName
            guard !(shortened && hasCompleteName), let text = CarrierCoding.utf8String(data) else { return false }
            name = text
            nameIsShortened = shortened
        case BluetoothDataType.classOfDevice:
            try require(3, "a class of device")
            classOfDevice = UInt32(data[0]) | UInt32(data[1]) << 8 | UInt32(data[2]) << 16
        case BluetoothDataType.simplePairingHashC192:
            try require(16, "a simple pairing hash C")
            hashC192 = data
        case BluetoothDataType.simplePairingRandomizerR192:
            try require(16, "a simple pairing randomizer R")
            randomizerR192 = data
        case BluetoothDataType.simplePairingHashC256:
            try require(16, "a simple pairing hash C-256")
            hashC256 = data
        case BluetoothDataType.simplePairingRandomizerR256:
            try require(16, "a simple pairing randomizer R-256")
            randomizerR256 = data
        case _ where Self.isUUIDList(type):
            let width = [2, 4, 16][Int((type - BluetoothDataType.incomplete16BitUUIDs) / 2)]
            guard data.count % width == 0 else {
                let offset = code == .invalidPayload ? item.dataOffset : nil
                throw NDEFError(
                    code, at: offset, "\(context): a list of \(width * 8)-bit UUIDs has \(data.count) bytes")
            }
            var start = 0
            while start < data.count {
                if let uuid = BluetoothServiceUUID(bytes: data[start..<start + width].reversed()) {
                    serviceUUIDs.append(uuid)
                }
                start += width
            }
            if type % 2 == 0 { serviceUUIDsComplete = false }
        case BluetoothDataType.leDeviceAddress:
            try require(7, "an LE Bluetooth device address")
            leAddress = HardwareAddress(littleEndian: data[0..<6])
            leAddressFlags = data[6]
        case BluetoothDataType.leRole:
            try require(1, "an LE role")
            leRole = data[0]
        case BluetoothDataType.appearance:
            try require(2, "an appearance")
            appearance = UInt16(data[0]) | UInt16(data[1]) << 8
        case BluetoothDataType.flags:
            guard data.count == 1 else { return false }
            flags = data[0]
        case BluetoothDataType.securityManagerTK:
            try require(16, "a security manager TK value")
            securityManagerTK = data
        case BluetoothDataType.leSecureConnectionsConfirmation:
            try require(16, "an LE secure connections confirmation value")
            leConfirmation = data
        case BluetoothDataType.leSecureConnectionsRandom:
            try require(16, "an LE secure connections random value")
            leRandom = data
        default:
            return false
        }
        return true
    }

    /// Service UUID lists as data structures: one per width, complete or incomplete.
    static func uuidStructures(_ uuids: [BluetoothServiceUUID], complete: Bool) -> [BluetoothDataStructure] {
        var structures: [BluetoothDataStructure] = []
        for (index, width) in [2, 4, 16].enumerated() {
            let group = uuids.filter { $0.bytes.count == width }
            guard !group.isEmpty else { continue }
            let type = BluetoothDataType.incomplete16BitUUIDs + UInt8(index * 2) + (complete ? 1 : 0)
            structures.append(BluetoothDataStructure(type: type, data: group.flatMap { $0.bytes.reversed() }))
        }
        return structures
    }
}

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
        guard dashed || digits.count == text.count, let bytes = try? Hex.decode(digits) else { return nil }
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
        let hex = Hex.encode(bytes)
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
