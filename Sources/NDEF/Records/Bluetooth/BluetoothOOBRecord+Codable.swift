/// The JSON `value` of Bluetooth BR/EDR OOB data.
///
/// ```json
/// {"address":"00:0c:78:51:c4:06","name":"Headset","classOfDevice":2360324,
///  "serviceUUIDs":["110b","111e"],"hashC":"...","randomizerR":"...","otherData":[]}
/// ```
///
/// `address` is required when decoding. `name` is the complete local name (`nameShortened`:
/// true when it is the shortened one); `serviceUUIDs` are 4 or 8 hex digits or a full UUID
/// (`serviceUUIDsComplete`: false when the lists are incomplete ones); `hashC`, `randomizerR`,
/// `hashC256` and `randomizerR256` are 16 bytes of hex as transmitted; `otherData` holds the
/// other data structures as `{"type": Int, "dataHex": String}`; `padding` counts trailing zero
/// bytes.
///
/// Decoding the named keys lays the data structures out as the builder does. When that would
/// not give back this value's data structures (another order, UUID lists split or empty, ...),
/// `dataStructures` lists every one of them in payload order, in the form of `otherData`; when
/// decoding it takes precedence over the keys other than `address` and `padding`.
extension BluetoothOOBRecord {
    enum CodingKeys: String, CodingKey {
        case address, name, nameShortened, classOfDevice, serviceUUIDs, serviceUUIDsComplete
        case hashC, randomizerR, hashC256, randomizerR256, otherData, padding, dataStructures
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address.description, forKey: .address)
        try container.encodeIfPresent(name, forKey: .name)
        if nameIsShortened { try container.encode(true, forKey: .nameShortened) }
        try container.encodeIfPresent(classOfDevice, forKey: .classOfDevice)
        if !serviceUUIDs.isEmpty { try container.encode(serviceUUIDs.map(\.description), forKey: .serviceUUIDs) }
        if !serviceUUIDsComplete { try container.encode(false, forKey: .serviceUUIDsComplete) }
        try container.encodeIfPresent(hashC.map(NDEFHex.encode), forKey: .hashC)
        try container.encodeIfPresent(randomizerR.map(NDEFHex.encode), forKey: .randomizerR)
        try container.encodeIfPresent(hashC256.map(NDEFHex.encode), forKey: .hashC256)
        try container.encodeIfPresent(randomizerR256.map(NDEFHex.encode), forKey: .randomizerR256)
        try container.encode(otherData.map(BluetoothCodingSupport.typedData), forKey: .otherData)
        if paddingCount > 0 { try container.encode(paddingCount, forKey: .padding) }
        let rebuilt = try? Self.build(NamedFields(self), address: address, paddingCount: paddingCount)
        if rebuilt != self {
            try container.encode(dataStructures.map(BluetoothCodingSupport.typedData), forKey: .dataStructures)
        }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try BluetoothCodingSupport.address(container, .address)
        let padding = try container.decodeIfPresent(Int.self, forKey: .padding) ?? 0
        do {
            if container.contains(.dataStructures) {
                let structures = try BluetoothCodingSupport.otherData(container, .dataStructures)
                self = try BluetoothOOBRecord(address: address, dataStructures: structures, paddingCount: padding)
            } else {
                self = try Self.build(try NamedFields(container), address: address, paddingCount: padding)
            }
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .address, error)
        }
    }

    /// The values of the named keys other than `address` and `padding`.
    private struct NamedFields {
        var name: String?
        var nameIsShortened: Bool
        var classOfDevice: UInt32?
        var serviceUUIDs: [BluetoothServiceUUID]
        var serviceUUIDsComplete: Bool
        var hashC: [UInt8]?
        var randomizerR: [UInt8]?
        var hashC256: [UInt8]?
        var randomizerR256: [UInt8]?
        var otherData: [BluetoothDataStructure]

        init(_ value: BluetoothOOBRecord) {
            name = value.name
            nameIsShortened = value.nameIsShortened
            classOfDevice = value.classOfDevice
            serviceUUIDs = value.serviceUUIDs
            serviceUUIDsComplete = value.serviceUUIDsComplete
            hashC = value.hashC
            randomizerR = value.randomizerR
            hashC256 = value.hashC256
            randomizerR256 = value.randomizerR256
            otherData = value.otherData
        }

        init(_ container: KeyedDecodingContainer<CodingKeys>) throws {
            name = try container.decodeIfPresent(String.self, forKey: .name)
            nameIsShortened = try container.decodeIfPresent(Bool.self, forKey: .nameShortened) ?? false
            classOfDevice = try container.decodeIfPresent(UInt32.self, forKey: .classOfDevice)
            serviceUUIDs = try BluetoothCodingSupport.uuids(container, .serviceUUIDs)
            serviceUUIDsComplete = try container.decodeIfPresent(Bool.self, forKey: .serviceUUIDsComplete) ?? true
            hashC = try CarrierJSON.hex(container, .hashC)
            randomizerR = try CarrierJSON.hex(container, .randomizerR)
            hashC256 = try CarrierJSON.hex(container, .hashC256)
            randomizerR256 = try CarrierJSON.hex(container, .randomizerR256)
            otherData = try BluetoothCodingSupport.otherData(container, .otherData)
        }
    }

    /// The value the named keys describe, laid out by the builder.
    private static func build(_ fields: NamedFields, address: HardwareAddress, paddingCount: Int) throws(NDEFError)
        -> BluetoothOOBRecord
    {
        let built = try BluetoothOOBRecord(
            address: address,
            name: fields.name,
            nameIsShortened: fields.nameIsShortened,
            classOfDevice: fields.classOfDevice,
            serviceUUIDs: fields.serviceUUIDs,
            serviceUUIDsComplete: fields.serviceUUIDsComplete,
            hashC: fields.hashC,
            randomizerR: fields.randomizerR,
            hashC256: fields.hashC256,
            randomizerR256: fields.randomizerR256,
            otherData: fields.otherData
        )
        return try BluetoothOOBRecord(
            address: address, dataStructures: built.dataStructures, paddingCount: paddingCount)
    }
}

/// JSON pieces shared by the two Bluetooth views.
enum BluetoothCodingSupport {
    static func typedData(_ structure: BluetoothDataStructure) -> CarrierJSON.TypedData {
        CarrierJSON.TypedData(type: Int(structure.type), dataHex: NDEFHex.encode(structure.data))
    }

    static func address<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> HardwareAddress {
        let text = try container.decode(String.self, forKey: key)
        guard let address = HardwareAddress(text) else {
            throw CarrierJSON.invalid(container, key, "not a Bluetooth device address: \"\(text)\"")
        }
        return address
    }

    static func uuids<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> [BluetoothServiceUUID] {
        var uuids: [BluetoothServiceUUID] = []
        for text in try container.decodeIfPresent([String].self, forKey: key) ?? [] {
            guard let uuid = BluetoothServiceUUID(text) else {
                throw CarrierJSON.invalid(container, key, "not a 16-, 32- or 128-bit UUID: \"\(text)\"")
            }
            uuids.append(uuid)
        }
        return uuids
    }

    static func otherData<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws
        -> [BluetoothDataStructure]
    {
        try CarrierJSON.typedData(container, key, maximumType: 0xFF) {
            BluetoothDataStructure(type: UInt8(truncatingIfNeeded: $0), data: $1)
        }
    }
}
