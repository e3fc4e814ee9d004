import HexText

/// Bluetooth LE out-of-band pairing data, `application/vnd.bluetooth.le.oob` (TNF 2).
///
/// NFC Forum Bluetooth Secure Simple Pairing Using NFC (BTSSP) 1.2, section 3.2: AD data
/// structures (Bluetooth Core Specification 5.x, Vol 3 Part C, section 11) with no length
/// prefix. LE Bluetooth Device Address (0x1B) and LE Role (0x1C) are required; Security Manager
/// TK (0x10), LE Secure Connections confirmation and random values (0x22, 0x23), Appearance
/// (0x19), Flags (0x01) and the local name (0x08, 0x09) are optional.
///
/// Every data structure is kept in order, unknown ones included, so a parsed record is written
/// back byte for byte.
public struct BluetoothLowEnergyOOBRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "bluetooth-le"

    /// The media type, `application/vnd.bluetooth.le.oob`.
    public static let mediaType = "application/vnd.bluetooth.le.oob"

    /// The most zero bytes of padding the builder writes (BR/EDR OOB data, with its 16-bit
    /// length, cannot be longer either); a parsed record keeps whatever padding it had.
    public static let maximumPaddingCount = 65535

    /// Every AD data structure in payload order; encoding writes exactly these.
    public let dataStructures: [BluetoothDataStructure]
    /// How many zero bytes end the payload (a zero length byte and the non-significant part).
    public let paddingCount: Int
    /// The LE device address.
    public let address: HardwareAddress
    /// Whether ``address`` is public or random.
    public let addressType: BluetoothLEAddressType
    /// The LE role.
    public let role: BluetoothLERole
    /// The local name (type 0x09, or 0x08 when only the shortened name is given).
    public let name: String?
    /// Whether ``name`` is the shortened local name (0x08).
    public let nameIsShortened: Bool
    /// The appearance (type 0x19), a 16-bit value from Bluetooth Assigned Numbers.
    public let appearance: UInt16?
    /// The flags (type 0x01) when they are one byte.
    public let flags: UInt8?
    /// The Security Manager TK value for LE legacy pairing (type 0x10), 16 bytes as transmitted.
    public let securityManagerTK: [UInt8]?
    /// The LE Secure Connections confirmation value (type 0x22), 16 bytes as transmitted.
    public let confirmationValue: [UInt8]?
    /// The LE Secure Connections random value (type 0x23), 16 bytes as transmitted.
    public let randomValue: [UInt8]?
    /// The data structures no property covers, in order.
    public let otherData: [BluetoothDataStructure]

    /// Builds LE OOB data: address, role, TK, confirmation, random, appearance, flags, local name
    /// (complete unless `nameIsShortened`), then `otherData`.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a TK, confirmation or random value is not
    ///   16 bytes or a structure is over 254 bytes.
    public init(
        address: HardwareAddress,
        addressType: BluetoothLEAddressType = .public,
        role: BluetoothLERole,
        name: String? = nil,
        nameIsShortened: Bool = false,
        appearance: UInt16? = nil,
        flags: UInt8? = nil,
        securityManagerTK: [UInt8]? = nil,
        confirmationValue: [UInt8]? = nil,
        randomValue: [UInt8]? = nil,
        otherData: [BluetoothDataStructure] = []
    ) throws(NDEFError) {
        var list = [
            BluetoothDataStructure(
                type: BluetoothDataType.leDeviceAddress,
                data: address.littleEndianBytes + [addressType == .random ? 1 : 0]
            ),
            BluetoothDataStructure(type: BluetoothDataType.leRole, data: [role.rawValue]),
        ]
        let values: [(UInt8, [UInt8]?)] = [
            (BluetoothDataType.securityManagerTK, securityManagerTK),
            (BluetoothDataType.leSecureConnectionsConfirmation, confirmationValue),
            (BluetoothDataType.leSecureConnectionsRandom, randomValue),
        ]
        for case (let type, let data?) in values {
            list.append(BluetoothDataStructure(type: type, data: data))
        }
        if let appearance {
            let data = [UInt8(truncatingIfNeeded: appearance), UInt8(truncatingIfNeeded: appearance >> 8)]
            list.append(BluetoothDataStructure(type: BluetoothDataType.appearance, data: data))
        }
        if let flags { list.append(BluetoothDataStructure(type: BluetoothDataType.flags, data: [flags])) }
        if let name {
            let type = nameIsShortened ? BluetoothDataType.shortenedLocalName : BluetoothDataType.completeLocalName
            list.append(BluetoothDataStructure(type: type, data: Array(name.utf8)))
        }
        list += otherData
        try self.init(dataStructures: list)
    }

    /// LE OOB data from its data structures, checked as when parsing.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the address or role is missing, a known
    ///   type has the wrong length, a structure is over 254 bytes, or the padding is over
    ///   ``maximumPaddingCount`` bytes.
    public init(dataStructures: [BluetoothDataStructure], paddingCount: Int = 0) throws(NDEFError) {
        let located = dataStructures.map { BluetoothDataStructure.Located(structure: $0, dataOffset: 0) }
        // The count may come from JSON: refuse a huge one before ``makeRecord()`` allocates it.
        guard paddingCount <= Self.maximumPaddingCount else {
            throw NDEFError(
                .invalidValue, "Bluetooth LE OOB padding is \(paddingCount) bytes, at most \(Self.maximumPaddingCount)")
        }
        var probe: [UInt8] = []
        try BluetoothDataStructure.encode(dataStructures, padding: 0, into: &probe)
        try self.init(located: located, paddingCount: max(0, paddingCount), code: .invalidValue)
    }

    private init(located: [BluetoothDataStructure.Located], paddingCount: Int, code: NDEFError.Code) throws(NDEFError) {
        let context = "Bluetooth LE OOB"
        let fields = try BluetoothFields(located, reads: BluetoothFields.lowEnergyTypes, code: code, context: context)
        let at = code == .invalidPayload ? 0 : nil
        guard let address = fields.leAddress, let addressFlags = fields.leAddressFlags else {
            throw NDEFError(code, at: at, "\(context): the LE Bluetooth Device Address (type 0x1B) is missing")
        }
        guard let role = fields.leRole else {
            throw NDEFError(code, at: at, "\(context): the LE Role (type 0x1C) is missing")
        }
        self.dataStructures = located.map(\.structure)
        self.paddingCount = paddingCount
        self.address = address
        self.addressType = addressFlags & 1 == 1 ? .random : .public
        self.role = BluetoothLERole(rawValue: role)
        self.name = fields.name
        self.nameIsShortened = fields.nameIsShortened
        self.appearance = fields.appearance
        self.flags = fields.flags
        self.securityManagerTK = fields.securityManagerTK
        self.confirmationValue = fields.leConfirmation
        self.randomValue = fields.leRandom
        self.otherData = fields.other
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .media && type.equalsIgnoringASCIICase("application/vnd.bluetooth.le.oob")  // mediaType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let (located, padding) = try BluetoothDataStructure.parseList(
            record.payload, base: 0, context: "Bluetooth LE OOB")
        try self.init(located: located, paddingCount: padding, code: .invalidPayload)
    }

    /// The record, without an ID; a parsed record is written back byte for byte.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        var payload: [UInt8] = []
        try BluetoothDataStructure.encode(dataStructures, padding: paddingCount, into: &payload)
        return NFCNDEFPayload(format: .media, type: Self.mediaType, payload: payload)
    }

    /// For example `Bluetooth LE 11:22:33:44:55:66 (random), peripheral-only, "HRM"`.
    public var description: String {
        var text = "Bluetooth LE \(address) (\(addressType.rawValue)), \(role)"
        if let name { text += ", \"\(name)\"" }
        if securityManagerTK != nil || confirmationValue != nil { text += ", pairing data" }
        return text
    }
}

/// The LE Role data type (0x1C): which GAP roles a device supports and prefers.
///
/// Bluetooth Core Specification Supplement, Part A, section 1.17. Values 0x04-0xFF are
/// reserved and kept as they are.
public struct BluetoothLERole: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The role byte.
    public var rawValue: UInt8

    /// Creates a role from its byte.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// 0x00: only the Peripheral role is supported.
    public static let peripheralOnly = BluetoothLERole(rawValue: 0)
    /// 0x01: only the Central role is supported.
    public static let centralOnly = BluetoothLERole(rawValue: 1)
    /// 0x02: both roles; Peripheral preferred for connection establishment.
    public static let peripheralPreferred = BluetoothLERole(rawValue: 2)
    /// 0x03: both roles; Central preferred for connection establishment.
    public static let centralPreferred = BluetoothLERole(rawValue: 3)

    private static let names = ["peripheral-only", "central-only", "peripheral-preferred", "central-preferred"]

    /// The stable JSON name (for example `"peripheral-only"`), or `nil` for a reserved value.
    public var name: String? {
        rawValue < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    /// The role with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: UInt8(index))
    }

    /// The name, or `reserved 0x04` for a reserved value.
    public var description: String { name ?? "reserved 0x" + Hex.encode([rawValue]) }
}

/// Whether an LE device address is public or random (bit 0 of the address type byte of the
/// LE Bluetooth Device Address data type, Core Specification Supplement, Part A, 1.16).
public enum BluetoothLEAddressType: String, Sendable, Hashable, Codable {
    /// A public device address.
    case `public`
    /// A random device address (static or private).
    case random
}

/// The JSON `value` of Bluetooth LE OOB data.
///
/// ```json
/// {"address":"11:22:33:44:55:66","addressType":"random","role":"peripheral-only",
///  "name":"HRM","appearance":832,"flags":6,"otherData":[]}
/// ```
///
/// `address` and `role` are required when decoding; `addressType` defaults to `public`. `role`
/// is a name (see ``BluetoothLERole/name``) or a number; `securityManagerTK`,
/// `confirmationValue` and `randomValue` are 16 bytes of hex as transmitted; `otherData` holds
/// the other data structures as `{"type": Int, "dataHex": String}`; `padding` counts trailing
/// zero bytes.
///
/// Decoding the named keys lays the data structures out as the builder does. When that would
/// not give back this value's data structures (another order, reserved bits in the address
/// type byte, ...), `dataStructures` lists every one of them in payload order, in the form of
/// `otherData`; when decoding it takes precedence over every key but `padding`, and `address`
/// and `role` are then not required.
extension BluetoothLowEnergyOOBRecord {
    enum CodingKeys: String, CodingKey {
        case address, addressType, role, name, nameShortened, appearance, flags
        case securityManagerTK, confirmationValue, randomValue, otherData, padding, dataStructures
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address.description, forKey: .address)
        try container.encode(addressType, forKey: .addressType)
        if let name = role.name {
            try container.encode(name, forKey: .role)
        } else {
            try container.encode(role.rawValue, forKey: .role)
        }
        try container.encodeIfPresent(name, forKey: .name)
        if nameIsShortened { try container.encode(true, forKey: .nameShortened) }
        try container.encodeIfPresent(appearance, forKey: .appearance)
        try container.encodeIfPresent(flags, forKey: .flags)
        try container.encodeIfPresent(securityManagerTK.map { Hex.encode($0) }, forKey: .securityManagerTK)
        try container.encodeIfPresent(confirmationValue.map { Hex.encode($0) }, forKey: .confirmationValue)
        try container.encodeIfPresent(randomValue.map { Hex.encode($0) }, forKey: .randomValue)
        try container.encode(otherData.map(BluetoothCodingSupport.typedData), forKey: .otherData)
        if paddingCount > 0 { try container.encode(paddingCount, forKey: .padding) }
        if (try? Self.build(NamedFields(self), paddingCount: paddingCount)) != self {
            try container.encode(dataStructures.map(BluetoothCodingSupport.typedData), forKey: .dataStructures)
        }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let padding = try container.decodeIfPresent(Int.self, forKey: .padding) ?? 0
        do {
            if container.contains(.dataStructures) {
                let structures = try BluetoothCodingSupport.otherData(container, .dataStructures)
                self = try BluetoothLowEnergyOOBRecord(dataStructures: structures, paddingCount: padding)
            } else {
                self = try Self.build(try NamedFields(container), paddingCount: padding)
            }
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .address, error)
        }
    }

    /// The values of the named keys other than `padding`.
    private struct NamedFields {
        var address: HardwareAddress
        var addressType: BluetoothLEAddressType
        var role: BluetoothLERole
        var name: String?
        var nameIsShortened: Bool
        var appearance: UInt16?
        var flags: UInt8?
        var securityManagerTK: [UInt8]?
        var confirmationValue: [UInt8]?
        var randomValue: [UInt8]?
        var otherData: [BluetoothDataStructure]

        init(_ value: BluetoothLowEnergyOOBRecord) {
            address = value.address
            addressType = value.addressType
            role = value.role
            name = value.name
            nameIsShortened = value.nameIsShortened
            appearance = value.appearance
            flags = value.flags
            securityManagerTK = value.securityManagerTK
            confirmationValue = value.confirmationValue
            randomValue = value.randomValue
            otherData = value.otherData
        }

        init(_ container: KeyedDecodingContainer<CodingKeys>) throws {
            address = try BluetoothCodingSupport.address(container, .address)
            if let number = try? container.decode(UInt8.self, forKey: .role) {
                role = BluetoothLERole(rawValue: number)
            } else {
                let name = try container.decode(String.self, forKey: .role)
                guard let named = BluetoothLERole(name: name) else {
                    throw CarrierJSON.invalid(container, .role, "unknown LE role \"\(name)\"")
                }
                role = named
            }
            addressType = try container.decodeIfPresent(BluetoothLEAddressType.self, forKey: .addressType) ?? .public
            name = try container.decodeIfPresent(String.self, forKey: .name)
            nameIsShortened = try container.decodeIfPresent(Bool.self, forKey: .nameShortened) ?? false
            appearance = try container.decodeIfPresent(UInt16.self, forKey: .appearance)
            flags = try container.decodeIfPresent(UInt8.self, forKey: .flags)
            securityManagerTK = try CarrierJSON.hex(container, .securityManagerTK)
            confirmationValue = try CarrierJSON.hex(container, .confirmationValue)
            randomValue = try CarrierJSON.hex(container, .randomValue)
            otherData = try BluetoothCodingSupport.otherData(container, .otherData)
        }
    }

    /// The value the named keys describe, laid out by the builder.
    private static func build(_ fields: NamedFields, paddingCount: Int) throws(NDEFError) -> BluetoothLowEnergyOOBRecord
    {
        let built = try BluetoothLowEnergyOOBRecord(
            address: fields.address,
            addressType: fields.addressType,
            role: fields.role,
            name: fields.name,
            nameIsShortened: fields.nameIsShortened,
            appearance: fields.appearance,
            flags: fields.flags,
            securityManagerTK: fields.securityManagerTK,
            confirmationValue: fields.confirmationValue,
            randomValue: fields.randomValue,
            otherData: fields.otherData
        )
        return try BluetoothLowEnergyOOBRecord(dataStructures: built.dataStructures, paddingCount: paddingCount)
    }
}
