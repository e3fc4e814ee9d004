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
                    .invalidValue, "a class of device has 24 bits, not 0x\(String(classOfDevice, radix: 16))")
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
            text += ", class 0x" + NDEFHex.encode(bytes)
        }
        if !serviceUUIDs.isEmpty { text += ", \(serviceUUIDs.count) service" + (serviceUUIDs.count == 1 ? "" : "s") }
        if hashC != nil || hashC256 != nil { text += ", pairing hash" }
        return text
    }
}
