/// The JSON `value` of a Wi-Fi record.
///
/// ```json
/// {"ssid":"Home","networkKey":"secret-pass","authentication":"wpa2-personal","encryption":"aes",
///  "macAddress":"ff:ff:ff:ff:ff:ff","networkIndex":1,"otherAttributes":[],
///  "version":"1.0","version2":"2.0"}
/// ```
///
/// The first credential's fields are at the top level; further credentials are in
/// `additionalCredentials` with the same keys. `ssid` and `networkKey` are text when valid UTF-8,
/// else `ssidHex` / `networkKeyHex`. `authentication` and `encryption` are names (see
/// ``WiFiAuthenticationType/name`` and ``WiFiEncryptionType/name``) or numbers. Attributes no key
/// covers are `{"type": Int, "dataHex": String}` entries: `otherAttributes` inside a credential,
/// `recordAttributes` at the top level.
///
/// When decoding, only `ssid` (or `ssidHex`) is required. A missing key takes the builder's
/// default (authentication WPA2-Personal with a key and open without, encryption AES or none,
/// MAC broadcast, network index 1, version 1.0, version2 2.0); an explicit `null` leaves the
/// attribute out, which is how a record without it is written as JSON.
extension WiFiCredentialRecord {
    enum CodingKeys: String, CodingKey {
        case ssid, ssidHex, networkKey, networkKeyHex, authentication, encryption, macAddress, networkIndex
        case networkKeyShareable, otherAttributes, additionalCredentials, version, version2, recordAttributes
        case lengthPrefixed
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let first = credentials.first {
            try Self.encode(first, into: &container)
        }
        if credentials.count > 1 {
            var list = container.nestedUnkeyedContainer(forKey: .additionalCredentials)
            for credential in credentials.dropFirst() {
                var nested = list.nestedContainer(keyedBy: CodingKeys.self)
                try Self.encode(credential, into: &nested)
            }
        }
        try container.encode(version.map(CarrierCoding.versionString), forKey: .version)
        let loneVersion2 = version2 != nil && Self.version2(in: recordAttributes) == nil
        try container.encode(loneVersion2 ? version2.map(CarrierCoding.versionString) : nil, forKey: .version2)
        if !recordAttributes.isEmpty {
            try container.encode(recordAttributes.map(Self.typedData), forKey: .recordAttributes)
        }
        if isLengthPrefixed { try container.encode(true, forKey: .lengthPrefixed) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var credentials = [try Self.decodeCredential(from: container)]
        if container.contains(.additionalCredentials) {
            var list = try container.nestedUnkeyedContainer(forKey: .additionalCredentials)
            while !list.isAtEnd {
                credentials.append(try Self.decodeCredential(from: try list.nestedContainer(keyedBy: CodingKeys.self)))
            }
        }
        let version = try Self.decodeVersion(container, .version, default: 0x10)
        let version2 = try Self.decodeVersion(container, .version2, default: 0x20)
        let other = try CarrierJSON.typedData(container, .recordAttributes, maximumType: 0xFFFF) {
            WSCAttribute(type: UInt16(truncatingIfNeeded: $0), value: $1)
        }
        let built: WiFiCredentialRecord
        do {
            built = try WiFiCredentialRecord(
                credentials: credentials,
                version: version,
                version2: version2,
                recordAttributes: other
            )
        } catch {
            throw CarrierJSON.invalid(container, .ssid, error)
        }
        let prefixed = try container.decodeIfPresent(Bool.self, forKey: .lengthPrefixed) ?? false
        self.init(copying: built, lengthPrefixed: prefixed)
    }

    private init(copying other: WiFiCredentialRecord, lengthPrefixed: Bool) {
        self.attributes = other.attributes
        self.credentials = other.credentials
        self.version = other.version
        self.version2 = other.version2
        self.recordAttributes = other.recordAttributes
        self.isLengthPrefixed = lengthPrefixed
    }

    private static func typedData(_ attribute: WSCAttribute) -> CarrierJSON.TypedData {
        CarrierJSON.TypedData(type: Int(attribute.type), dataHex: NDEFHex.encode(attribute.value))
    }

    private static func encode(_ credential: Credential, into container: inout KeyedEncodingContainer<CodingKeys>)
        throws
    {
        try CarrierJSON.encodeTextOrHex(credential.ssid, into: &container, text: .ssid, hex: .ssidHex)
        if let key = credential.networkKey {
            try CarrierJSON.encodeTextOrHex(key, into: &container, text: .networkKey, hex: .networkKeyHex)
        } else {
            try container.encodeNil(forKey: .networkKey)
        }
        if let authentication = credential.authentication {
            if let name = authentication.name {
                try container.encode(name, forKey: .authentication)
            } else {
                try container.encode(authentication.rawValue, forKey: .authentication)
            }
        } else {
            try container.encodeNil(forKey: .authentication)
        }
        if let encryption = credential.encryption {
            if let name = encryption.name {
                try container.encode(name, forKey: .encryption)
            } else {
                try container.encode(encryption.rawValue, forKey: .encryption)
            }
        } else {
            try container.encodeNil(forKey: .encryption)
        }
        try container.encode(credential.macAddress?.description, forKey: .macAddress)
        try container.encode(credential.networkIndex, forKey: .networkIndex)
        if credential.hasLoneShareableExtension {
            try container.encodeIfPresent(credential.networkKeyShareable, forKey: .networkKeyShareable)
        }
        try container.encode(credential.otherAttributes.map(typedData), forKey: .otherAttributes)
    }

    /// What a key holds: nothing (use the default), an explicit `null` (leave the attribute
    /// out), or a value.
    private enum Field<T> {
        case absent
        case null
        case value(T)

        /// The value, `default` when absent, `nil` when explicitly null.
        func resolved(default value: T) -> T? {
            switch self {
            case .absent: value
            case .null: nil
            case .value(let found): found
            }
        }
    }

    private static func field<T>(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ keys: [CodingKeys],
        _ read: (CodingKeys) throws -> T?
    ) throws -> Field<T> {
        for key in keys where container.contains(key) {
            if try container.decodeNil(forKey: key) { return .null }
            if let value = try read(key) { return .value(value) }
        }
        return .absent
    }

    private static func decodeCredential(from container: KeyedDecodingContainer<CodingKeys>) throws -> Credential {
        guard let ssid = try CarrierJSON.textOrHex(container, text: .ssid, hex: .ssidHex) else {
            throw DecodingError.keyNotFound(
                CodingKeys.ssid,
                DecodingError.Context(
                    codingPath: container.codingPath, debugDescription: "a Wi-Fi credential needs ssid")
            )
        }
        let key = try field(container, [.networkKey, .networkKeyHex]) { key throws -> [UInt8]? in
            key == .networkKey
                ? Array(try container.decode(String.self, forKey: key).utf8) : try CarrierJSON.hex(container, key)
        }
        let authentication = try field(container, [.authentication]) { key throws -> WiFiAuthenticationType? in
            if let number = try? container.decode(UInt16.self, forKey: key) {
                return WiFiAuthenticationType(rawValue: number)
            }
            let name = try container.decode(String.self, forKey: key)
            guard let value = WiFiAuthenticationType(name: name) else {
                throw CarrierJSON.invalid(container, key, "unknown authentication \"\(name)\"")
            }
            return value
        }
        let encryption = try field(container, [.encryption]) { key throws -> WiFiEncryptionType? in
            if let number = try? container.decode(UInt16.self, forKey: key) {
                return WiFiEncryptionType(rawValue: number)
            }
            let name = try container.decode(String.self, forKey: key)
            guard let value = WiFiEncryptionType(name: name) else {
                throw CarrierJSON.invalid(container, key, "unknown encryption \"\(name)\"")
            }
            return value
        }
        let mac = try field(container, [.macAddress]) { key throws -> HardwareAddress? in
            let text = try container.decode(String.self, forKey: key)
            guard let address = HardwareAddress(text) else {
                throw CarrierJSON.invalid(container, key, "not a MAC address: \"\(text)\"")
            }
            return address
        }
        let index = try field(container, [.networkIndex]) { try container.decode(UInt8.self, forKey: $0) }
        let shareable = try container.decodeIfPresent(Bool.self, forKey: .networkKeyShareable)
        let other = try CarrierJSON.typedData(container, .otherAttributes, maximumType: 0xFFFF) {
            WSCAttribute(type: UInt16(truncatingIfNeeded: $0), value: $1)
        }

        let networkKey: [UInt8]? = key.resolved(default: [])
        let resolvedAuthentication = authentication.resolved(
            default: networkKey?.isEmpty ?? true ? .open : .wpa2Personal)
        let resolvedEncryption = encryption.resolved(default: resolvedAuthentication == .open ? .none : .aes)
        if let networkKey, networkKey.isEmpty, resolvedAuthentication != .open {
            throw CarrierJSON.invalid(container, .networkKey, "an empty network key is only allowed on an open network")
        }
        do {
            return try Credential(
                layout: ssid,
                networkIndex: index.resolved(default: 1),
                authentication: resolvedAuthentication,
                encryption: resolvedEncryption,
                networkKey: networkKey,
                macAddress: mac.resolved(default: .broadcast),
                networkKeyShareable: shareable,
                otherAttributes: other
            )
        } catch {
            throw CarrierJSON.invalid(container, .ssid, error)
        }
    }

    private static func decodeVersion(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ key: CodingKeys,
        default value: UInt8
    ) throws -> UInt8? {
        let version = try field(container, [key]) { key throws -> UInt8? in
            let text = try container.decode(String.self, forKey: key)
            guard let byte = CarrierCoding.versionByte(text) else {
                throw CarrierJSON.invalid(container, key, "a version is \"major.minor\", not \"\(text)\"")
            }
            return byte
        }
        return version.resolved(default: value)
    }
}
