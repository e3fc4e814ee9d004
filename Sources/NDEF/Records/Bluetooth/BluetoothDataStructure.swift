import HexText

/// One EIR or AD data structure: a length byte (covering type and data), a type byte, data.
///
/// Bluetooth Core Specification 5.x, Vol 3 Part C, section 8 (Extended Inquiry Response data
/// format) and section 11 (Advertising and Scan Response data format); the types are listed in
/// the Core Specification Supplement, Part A, and Bluetooth Assigned Numbers.
public struct BluetoothDataStructure: Sendable, Hashable {
    /// The data type, for example 0x09 (Complete Local Name).
    public var type: UInt8
    /// The data (at most 254 bytes, since the length byte also counts the type).
    public var data: [UInt8]

    /// Creates a data structure.
    public init(type: UInt8, data: [UInt8]) {
        self.type = type
        self.data = data
    }
}

extension BluetoothDataStructure {
    /// A data structure and where its data starts in the payload.
    struct Located {
        var structure: BluetoothDataStructure
        var dataOffset: Int
    }

    /// Reads data structures filling `bytes`. A zero length byte ends the significant part; the
    /// rest of the bytes, the non-significant part, must all be zero (Core Vol 3 Part C, 8 and
    /// 11) and their count (the zero length byte included) is returned as `padding`.
    static func parseList(
        _ bytes: ArraySlice<UInt8>,
        base: Int,
        context: String
    ) throws(NDEFError) -> (structures: [Located], padding: Int) {
        var reader = CarrierByteReader(bytes, context: context, base: base)
        var list: [Located] = []
        while !reader.isAtEnd {
            let start = reader.offset
            let length = try reader.readByte("data structure length")
            if length == 0 {
                let rest = reader.readRest()
                if let nonZero = rest.firstIndex(where: { $0 != 0 }) {
                    let offset = start + 1 + (nonZero - rest.startIndex)
                    throw reader.error("non-zero byte after the zero length that ends the data structures", at: offset)
                }
                return (list, rest.count + 1)
            }
            let type = try reader.readByte("data structure type")
            let dataOffset = reader.offset
            let data = try reader.readBytes(Int(length) - 1, "data of structure type 0x\(Hex.encode([type]))")
            list.append(
                Located(structure: BluetoothDataStructure(type: type, data: Array(data)), dataOffset: dataOffset))
        }
        return (list, 0)
    }

    /// Appends `structures`, then `padding` zero bytes.
    static func encode(_ structures: [BluetoothDataStructure], padding: Int, into bytes: inout [UInt8])
        throws(NDEFError)
    {
        for structure in structures {
            guard structure.data.count <= 254 else {
                throw NDEFError(
                    .invalidValue,
                    "Bluetooth data type 0x\(Hex.encode([structure.type])) has \(structure.data.count) bytes, at most 254"
                )
            }
            bytes.append(UInt8(structure.data.count + 1))
            bytes.append(structure.type)
            bytes.append(contentsOf: structure.data)
        }
        bytes.append(contentsOf: repeatElement(0, count: max(0, padding)))
    }
}

/// Data types read by the Bluetooth views (Bluetooth Assigned Numbers, Common Data Types).
enum BluetoothDataType {
    static let flags: UInt8 = 0x01
    static let incomplete16BitUUIDs: UInt8 = 0x02
    static let complete16BitUUIDs: UInt8 = 0x03
    static let incomplete32BitUUIDs: UInt8 = 0x04
    static let complete32BitUUIDs: UInt8 = 0x05
    static let incomplete128BitUUIDs: UInt8 = 0x06
    static let complete128BitUUIDs: UInt8 = 0x07
    static let shortenedLocalName: UInt8 = 0x08
    static let completeLocalName: UInt8 = 0x09
    static let classOfDevice: UInt8 = 0x0D
    static let simplePairingHashC192: UInt8 = 0x0E
    static let simplePairingRandomizerR192: UInt8 = 0x0F
    static let securityManagerTK: UInt8 = 0x10
    static let appearance: UInt8 = 0x19
    static let leDeviceAddress: UInt8 = 0x1B
    static let leRole: UInt8 = 0x1C
    static let simplePairingHashC256: UInt8 = 0x1D
    static let simplePairingRandomizerR256: UInt8 = 0x1E
    static let leSecureConnectionsConfirmation: UInt8 = 0x22
    static let leSecureConnectionsRandom: UInt8 = 0x23
}
