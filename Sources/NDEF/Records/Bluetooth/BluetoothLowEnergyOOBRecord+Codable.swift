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
        try container.encodeIfPresent(securityManagerTK.map(NDEFHex.encode), forKey: .securityManagerTK)
        try container.encodeIfPresent(confirmationValue.map(NDEFHex.encode), forKey: .confirmationValue)
        try container.encodeIfPresent(randomValue.map(NDEFHex.encode), forKey: .randomValue)
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
