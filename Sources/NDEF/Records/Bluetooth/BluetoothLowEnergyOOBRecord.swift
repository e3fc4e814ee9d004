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
