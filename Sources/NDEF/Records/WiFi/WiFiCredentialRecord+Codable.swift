import HexText

/// The JSON `value` of a Wi-Fi record.
///
/// ```json
/// {"ssid":"Home","networkKey":"secret-pass","authentication":"wpa2-personal","encryption":"aes",
///  "macAddress":"ff:ff:ff:ff:ff:ff","networkIndex":1,"otherAttributes":[],
///  "version":"1.0","version2":"2.0"}
/// ```
///
/// The first credential's fields are at the top level; further credentials are in
/// `additionalCredentials` with the same keys. `ssid` and `networkKey` are text when valid UTF-8
/// without control characters (other than tab, line feed and carriage return), else `ssidHex` /
/// `networkKeyHex`. `authentication` and `encryption` are names (see
/// ``WiFiAuthenticationType/name`` and ``WiFiEncryptionType/name``) or numbers. Attributes no key
/// covers are `{"type": Int, "dataHex": String}` entries: `otherAttributes` inside a credential,
/// `recordAttributes` at the top level.
///
/// When decoding, only `ssid` (or `ssidHex`) is required. A missing key takes the builder's
/// default (authentication WPA2-Personal with a key and open without, encryption AES or none,
/// MAC broadcast, network index 1, version 1.0, version2 2.0); an explicit `null` leaves the
/// attribute out, which is how a record without it is written as JSON.
///
/// Decoding the named keys lays the attributes out as the builder does. When that would not
/// give back this value's attributes (another order, a record without a credential, an empty
/// SSID, ...), `attributes` lists every top-level attribute in payload order, in the form of
/// `recordAttributes` (a Credential's data is its attributes encoded); when decoding it takes
/// precedence over every key but `lengthPrefixed`, and `ssid` is then not required.
extension WiFiCredentialRecord {
    enum CodingKeys: String, CodingKey {
        case ssid, ssidHex, networkKey, networkKeyHex, authentication, encryption, macAddress, networkIndex
        case networkKeyShareable, otherAttributes, additionalCredentials, version, version2, recordAttributes
        case lengthPrefixed, attributes
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let named = RecordJSON(self)
        try named.encode(into: &container)
        if isLengthPrefixed { try container.encode(true, forKey: .lengthPrefixed) }
        if (try? named.build(lengthPrefixed: isLengthPrefixed)) != self {
            try container.encode(attributes.map(Self.typedData), forKey: .attributes)
        }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let prefixed = try container.decodeIfPresent(Bool.self, forKey: .lengthPrefixed) ?? false
        if container.contains(.attributes) {
            let list = try Self.attributes(container, .attributes)
            do {
                self = try WiFiCredentialRecord(attributes: list, lengthPrefixed: prefixed)
            } catch {
                throw CarrierJSON.invalid(container, .attributes, error)
            }
        } else {
            let named = try RecordJSON(container)
            do {
                self = try named.build(lengthPrefixed: prefixed)
            } catch {
                throw CarrierJSON.invalid(container, .ssid, error)
            }
        }
    }

    private init(copying other: WiFiCredentialRecord, lengthPrefixed: Bool) {
        self.attributes = other.attributes
        self.credentials = other.credentials
        self.version = other.version
        self.version2 = other.version2
        self.recordAttributes = other.recordAttributes
        self.isLengthPrefixed = lengthPrefixed
    }

    static func typedData(_ attribute: WSCAttribute) -> CarrierJSON.TypedData {
        CarrierJSON.TypedData(type: Int(attribute.type), dataHex: Hex.encode(attribute.value))
    }

    /// Decodes `[{"type", "dataHex"}]` at `key` (absent = empty) into attributes.
    static func attributes(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
        -> [WSCAttribute]
    {
        try CarrierJSON.typedData(container, key, maximumType: 0xFFFF) {
            WSCAttribute(type: UInt16(truncatingIfNeeded: $0), value: $1)
        }
    }

    /// What the named keys of a record say: its credentials, versions and other attributes.
    private struct RecordJSON {
        var credentials: [CredentialJSON]
        var version: JSONField<UInt8>
        var version2: JSONField<UInt8>
        var recordAttributes: [WSCAttribute]

        /// What the named keys say of `record`.
        init(_ record: WiFiCredentialRecord) {
            credentials = record.credentials.map(CredentialJSON.init)
            version = JSONField(record.version)
            // Only a Version2 the builder would write itself is a key; another one is in recordAttributes.
            let loneVersion2 = record.attributes.contains { WiFiCredentialRecord.loneVersion2($0) != nil }
            version2 = JSONField(loneVersion2 ? record.version2 : nil)
            recordAttributes = record.recordAttributes
        }

        init(_ container: KeyedDecodingContainer<CodingKeys>) throws {
            credentials = [try CredentialJSON(container)]
            if container.contains(.additionalCredentials) {
                var list = try container.nestedUnkeyedContainer(forKey: .additionalCredentials)
                while !list.isAtEnd {
                    credentials.append(try CredentialJSON(try list.nestedContainer(keyedBy: CodingKeys.self)))
                }
            }
            version = try Self.version(container, .version)
            version2 = try Self.version(container, .version2)
            recordAttributes = try WiFiCredentialRecord.attributes(container, .recordAttributes)
        }

        func encode(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
            if let first = credentials.first {
                try first.encode(into: &container)
            }
            if credentials.count > 1 {
                var list = container.nestedUnkeyedContainer(forKey: .additionalCredentials)
                for credential in credentials.dropFirst() {
                    var nested = list.nestedContainer(keyedBy: CodingKeys.self)
                    try credential.encode(into: &nested)
                }
            }
            try container.encode(version.value.map(CarrierCoding.versionString), forKey: .version)
            try container.encode(version2.value.map(CarrierCoding.versionString), forKey: .version2)
            if !recordAttributes.isEmpty {
                try container.encode(recordAttributes.map(typedData), forKey: .recordAttributes)
            }
        }

        /// The record the builder makes of these keys.
        func build(lengthPrefixed: Bool) throws(NDEFError) -> WiFiCredentialRecord {
            var built: [Credential] = []
            for credential in credentials { built.append(try credential.build()) }
            let record = try WiFiCredentialRecord(
                credentials: built,
                version: version.resolved(default: 0x10),
                version2: version2.resolved(default: 0x20),
                recordAttributes: recordAttributes
            )
            return WiFiCredentialRecord(copying: record, lengthPrefixed: lengthPrefixed)
        }

        private static func version(_ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws
            -> JSONField<UInt8>
        {
            try JSONField.decode(container, [key]) { key throws -> UInt8? in
                let text = try container.decode(String.self, forKey: key)
                guard let byte = CarrierCoding.versionByte(text) else {
                    throw CarrierJSON.invalid(container, key, "a version is \"major.minor\", not \"\(text)\"")
                }
                return byte
            }
        }
    }
}
