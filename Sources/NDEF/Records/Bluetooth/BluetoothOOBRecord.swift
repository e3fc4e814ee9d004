import HexText

/// Bluetooth BR/EDR out-of-band pairing data, `application/vnd.bluetooth.ep.oob` (TNF 2).
///
/// NFC Forum Bluetooth Secure Simple Pairing Using NFC (BTSSP) 1.2, section 3.1, and Bluetooth
/// Core Specification 5.x, Vol 3 Part C, section 5.2.2.7: a 2-byte little-endian OOB data
/// length (the whole payload, these 2 bytes and the address included), the 6-byte BD_ADDR
/// least significant byte first, then EIR data structures (local name, class of device, simple
/// pairing hash C and randomizer R, service class UUIDs, ...).
///
/// Every data structure is kept in order, unknown ones included, as is zero padding after a
/// zero length byte, so a parsed record is written back byte for byte.
public struct BluetoothOOBRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "bluetooth"

    /// The media type, `application/vnd.bluetooth.ep.oob`.
    public static let mediaType = "application/vnd.bluetooth.ep.oob"

    /// The device address (BD_ADDR).
    public let address: HardwareAddress
    /// Every EIR data structure in payload order; encoding writes exactly these.
    public let dataStructures: [BluetoothDataStructure]
    /// How many zero bytes end the payload (a zero length byte and the non-significant part).
    public let paddingCount: Int
    /// The local name (type 0x09, or 0x08 when only the shortened name is given).
    public let name: String?
    /// Whether ``name`` is the shortened local name (0x08).
    public let nameIsShortened: Bool
    /// The class of device (type 0x0D), a 24-bit value.
    public let classOfDevice: UInt32?
    /// The service class UUIDs of every list (types 0x02-0x07), in order.
    public let serviceUUIDs: [BluetoothServiceUUID]
    /// Whether every UUID list is a complete one (types 0x03, 0x05, 0x07).
    public let serviceUUIDsComplete: Bool
    /// Simple Pairing Hash C (C-192, type 0x0E), 16 bytes as transmitted.
    public let hashC: [UInt8]?
    /// Simple Pairing Randomizer R (R-192, type 0x0F), 16 bytes as transmitted.
    public let randomizerR: [UInt8]?
    /// Simple Pairing Hash C-256 (type 0x1D), 16 bytes as transmitted.
    public let hashC256: [UInt8]?
    /// Simple Pairing Randomizer R-256 (type 0x1E), 16 bytes as transmitted.
    public let randomizerR256: [UInt8]?
    /// The data structures no property covers, in order.
    public let otherData: [BluetoothDataStructure]

    /// Builds OOB data with the structures in the order of the BTSSP examples: class of device,
    /// hash C, randomizer R, hash C-256, randomizer R-256, service UUID lists (one per UUID
    /// width), local name (complete unless `nameIsShortened`), then `otherData`.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` for a class of device over 24 bits, a hash or
    ///   randomizer that is not 16 bytes, a structure over 254 bytes, or a payload over 65535.
    public init(
        address: HardwareAddress,
        name: String? = nil,
        nameIsShortened: Bool = false,
        classOfDevice: UInt32? = nil,
        serviceUUIDs: [BluetoothServiceUUID] = [],
        serviceUUIDsComplete: Bool = true,
        hashC: [UInt8]? = nil,
        randomizerR: [UInt8]? = nil,
        hashC256: [UInt8]? = nil,
        randomizerR256: [UInt8]? = nil,
        otherData: [BluetoothDataStructure] = []
    ) throws(NDEFError) {
        var list: [BluetoothDataStructure] = []
        if let classOfDevice {
            guard classOfDevice <= 0xFF_FFFF else {
                throw NDEFError(
                    .invalidValue, "a class of device has 24 bits, not 0x\(Hex.number(classOfDevice, uppercase: false))"
                )
            }
            let bytes = (0..<3).map { UInt8(truncatingIfNeeded: classOfDevice >> ($0 * 8)) }
            list.append(BluetoothDataStructure(type: BluetoothDataType.classOfDevice, data: bytes))
        }
        let pairing: [(UInt8, [UInt8]?)] = [
            (BluetoothDataType.simplePairingHashC192, hashC),
            (BluetoothDataType.simplePairingRandomizerR192, randomizerR),
            (BluetoothDataType.simplePairingHashC256, hashC256),
            (BluetoothDataType.simplePairingRandomizerR256, randomizerR256),
        ]
        for case (let type, let data?) in pairing {
            list.append(BluetoothDataStructure(type: type, data: data))
        }
        list += BluetoothFields.uuidStructures(serviceUUIDs, complete: serviceUUIDsComplete)
        if let name {
            let type = nameIsShortened ? BluetoothDataType.shortenedLocalName : BluetoothDataType.completeLocalName
            list.append(BluetoothDataStructure(type: type, data: Array(name.utf8)))
        }
        list += otherData
        try self.init(address: address, dataStructures: list)
    }

    /// OOB data from its data structures, checked as when parsing.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a known type has the wrong length, a
    ///   structure is over 254 bytes, or the payload (padding included) would be over 65535
    ///   bytes, the most its 16-bit length field can say.
    public init(address: HardwareAddress, dataStructures: [BluetoothDataStructure], paddingCount: Int = 0)
        throws(NDEFError)
    {
        let located = dataStructures.map { BluetoothDataStructure.Located(structure: $0, dataOffset: 0) }
        let fields = try BluetoothFields(
            located, reads: BluetoothFields.basicRateTypes, code: .invalidValue, context: "Bluetooth OOB")
        var probe: [UInt8] = []
        try BluetoothDataStructure.encode(dataStructures, padding: 0, into: &probe)
        // Checked before any padding is made: the count may come from JSON and be huge.
        let limit = Int(UInt16.max) - 8
        guard paddingCount <= limit, probe.count <= limit - max(0, paddingCount) else {
            throw NDEFError(
                .invalidValue,
                "Bluetooth OOB data with \(paddingCount) bytes of padding is over 65535 bytes")
        }
        self.init(address: address, dataStructures: dataStructures, paddingCount: max(0, paddingCount), fields: fields)
    }

    private init(
        address: HardwareAddress, dataStructures: [BluetoothDataStructure], paddingCount: Int, fields: BluetoothFields
    ) {
        self.address = address
        self.dataStructures = dataStructures
        self.paddingCount = paddingCount
        self.name = fields.name
        self.nameIsShortened = fields.nameIsShortened
        self.classOfDevice = fields.classOfDevice
        self.serviceUUIDs = fields.serviceUUIDs
        self.serviceUUIDsComplete = fields.serviceUUIDsComplete
        self.hashC = fields.hashC192
        self.randomizerR = fields.randomizerR192
        self.hashC256 = fields.hashC256
        self.randomizerR256 = fields.randomizerR256
        self.otherData = fields.other
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .media && type.equalsIgnoringASCIICase("application/vnd.bluetooth.ep.oob")  // mediaType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let context = "Bluetooth OOB"
        var reader = CarrierByteReader(record.payload, context: context)
        let length = try reader.readUInt16LittleEndian("OOB data length")
        guard Int(length) == record.payload.count else {
            throw NDEFError(
                .invalidPayload,
                at: 0,
                "\(context): the OOB data length says \(length) bytes but the payload has \(record.payload.count)"
            )
        }
        let addressBytes = try reader.readBytes(6, "device address")
        let (located, padding) = try BluetoothDataStructure.parseList(reader.readRest(), base: 8, context: context)
        let fields = try BluetoothFields(
            located, reads: BluetoothFields.basicRateTypes, code: .invalidPayload, context: context)
        // Six bytes were read, so the address always forms.
        let address = HardwareAddress(littleEndian: addressBytes) ?? .broadcast
        self.init(address: address, dataStructures: located.map(\.structure), paddingCount: padding, fields: fields)
    }

    /// The record, without an ID; a parsed record is written back byte for byte.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        var body: [UInt8] = address.littleEndianBytes
        try BluetoothDataStructure.encode(dataStructures, padding: paddingCount, into: &body)
        guard let length = UInt16(exactly: body.count + 2) else {
            throw NDEFError(.invalidValue, "Bluetooth OOB data is \(body.count + 2) bytes, at most 65535")
        }
        var payload: [UInt8] = []
        CarrierCoding.appendLittleEndian(length, to: &payload)
        payload += body
        return NFCNDEFPayload(format: .media, type: Self.mediaType, payload: payload)
    }

    /// For example `Bluetooth 00:0c:78:51:c4:06 "Headset", class 0x240404, 2 services`.
    public var description: String {
        var text = "Bluetooth \(address)"
        if let name { text += " \"\(name)\"" }
        if let classOfDevice {
            let bytes = (0..<3).reversed().map { UInt8(truncatingIfNeeded: classOfDevice >> ($0 * 8)) }
            text += ", class 0x" + Hex.encode(bytes)
        }
        if !serviceUUIDs.isEmpty { text += ", \(serviceUUIDs.count) service" + (serviceUUIDs.count == 1 ? "" : "s") }
        if hashC != nil || hashC256 != nil { text += ", pairing hash" }
        return text
    }
}

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
        try container.encodeIfPresent(hashC.map { Hex.encode($0) }, forKey: .hashC)
        try container.encodeIfPresent(randomizerR.map { Hex.encode($0) }, forKey: .randomizerR)
        try container.encodeIfPresent(hashC256.map { Hex.encode($0) }, forKey: .hashC256)
        try container.encodeIfPresent(randomizerR256.map { Hex.encode($0) }, forKey: .randomizerR256)
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
        CarrierJSON.TypedData(type: Int(structure.type), dataHex: Hex.encode(structure.data))
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
