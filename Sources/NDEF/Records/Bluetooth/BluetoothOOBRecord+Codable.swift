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
extension BluetoothOOBRecord {
    enum CodingKeys: String, CodingKey {
        case address, name, nameShortened, classOfDevice, serviceUUIDs, serviceUUIDsComplete
        case hashC, randomizerR, hashC256, randomizerR256, otherData, padding
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
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let address = try BluetoothCodingSupport.address(container, .address)
        let uuids = try BluetoothCodingSupport.uuids(container, .serviceUUIDs)
        let record: BluetoothOOBRecord
        do {
            let built = try BluetoothOOBRecord(
                address: address,
                name: try container.decodeIfPresent(String.self, forKey: .name),
                nameIsShortened: try container.decodeIfPresent(Bool.self, forKey: .nameShortened) ?? false,
                classOfDevice: try container.decodeIfPresent(UInt32.self, forKey: .classOfDevice),
                serviceUUIDs: uuids,
                serviceUUIDsComplete: try container.decodeIfPresent(Bool.self, forKey: .serviceUUIDsComplete) ?? true,
                hashC: try CarrierJSON.hex(container, .hashC),
                randomizerR: try CarrierJSON.hex(container, .randomizerR),
                hashC256: try CarrierJSON.hex(container, .hashC256),
                randomizerR256: try CarrierJSON.hex(container, .randomizerR256),
                otherData: try BluetoothCodingSupport.otherData(container, .otherData)
            )
            let padding = try container.decodeIfPresent(Int.self, forKey: .padding) ?? 0
            record = try BluetoothOOBRecord(
                address: address, dataStructures: built.dataStructures, paddingCount: padding)
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .address, error)
        }
        self = record
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
