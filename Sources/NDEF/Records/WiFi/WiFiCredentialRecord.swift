import HexText

/// A Wi-Fi Simple Configuration record, `application/vnd.wfa.wsc` (TNF 2): the Wi-Fi network
/// credentials a phone joins when it touches the tag.
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 10.1.2 (NFC Configuration
/// Token) and section 12 (attributes). The payload is a sequence of WSC attributes: usually
/// Version (0x104A, 0x10), one or more Credentials (0x100E), and the WFA Vendor Extension
/// (0x1049) carrying Version2 (0x20). Some writers (Android apps) write only the Credential.
///
/// Every attribute is kept in order, unknown ones included, so a parsed record is written back
/// byte for byte. A payload without a Credential (an OOB password token in a handover message)
/// is read too, with ``credentials`` empty. When the payload starts with a 2-byte length of the
/// attributes that follow (as WSC prescribes for some handover tokens), that is remembered.
public struct WiFiCredentialRecord: NDEFRecordConvertible {
    /// The stable kind name of this view in the JSON contract and the registry.
    public static let kind = "wifi"

    /// The media type, `application/vnd.wfa.wsc`.
    public static let mediaType = "application/vnd.wfa.wsc"

    /// Every top-level attribute in payload order; encoding writes exactly these.
    public let attributes: [WSCAttribute]
    /// The credentials (Credential attributes, 0x100E), in order.
    public let credentials: [Credential]
    /// The Version attribute (0x104A): 0x10 for version 1.0, as WSC 2.0 writers still put.
    public let version: UInt8?
    /// Version2 from the WFA Vendor Extension (0x20 for WSC 2.0), when present.
    ///
    /// A vendor extension holding only Version2 is not in ``recordAttributes``; one with more
    /// subelements is, and Version2 is still read from it.
    public let version2: UInt8?
    /// The top-level attributes no property covers, in order.
    public let recordAttributes: [WSCAttribute]
    /// Whether the payload starts with the 2-byte big-endian length of the attributes.
    public let isLengthPrefixed: Bool

    /// Builds a configuration token: Version, the credentials, `recordAttributes`, then the WFA
    /// Vendor Extension with Version2 (WSC 2.0, section 10.1.2). Pass `nil` to leave out
    /// Version or Version2 (Android apps write only the Credential).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when there is no credential.
    public init(
        credentials: [Credential],
        version: UInt8? = 0x10,
        version2: UInt8? = 0x20,
        recordAttributes: [WSCAttribute] = []
    ) throws(NDEFError) {
        guard !credentials.isEmpty else { throw NDEFError(.invalidValue, "a Wi-Fi record needs a credential") }
        var list: [WSCAttribute] = []
        if let version { list.append(WSCAttribute(type: WSCAttributeType.version, value: [version])) }
        for credential in credentials {
            list.append(WSCAttribute(type: WSCAttributeType.credential, value: try credential.encodedValue()))
        }
        list += recordAttributes
        if let version2 {
            list.append(WSCAttribute.wfaExtension(subelement: WSCAttribute.WFASubelement.version2, data: [version2]))
        }
        // Read back as parsing reads it, so the properties are those of the record it writes.
        let located = list.map { WSCAttribute.Located(attribute: $0, valueOffset: 0) }
        try self.init(located: located, lengthPrefixed: false, code: .invalidValue)
    }

    /// Builds a token for one network; see ``Credential`` for the defaults.
    public init(
        ssid: String,
        networkKey: String = "",
        authentication: WiFiAuthenticationType? = nil,
        encryption: WiFiEncryptionType? = nil
    ) throws(NDEFError) {
        let credential = try Credential(
            ssid: ssid,
            networkKey: networkKey,
            authentication: authentication,
            encryption: encryption
        )
        try self.init(credentials: [credential])
    }

    /// A record of exactly these top-level attributes (a Credential's value is its attributes
    /// encoded), preceded by their 2-byte length when `lengthPrefixed`, read as parsing reads it.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when there is no attribute, a value is longer
    ///   than 65535 bytes, or the payload would not parse back to these attributes (a malformed
    ///   credential, a Version that is not 1 byte, ...).
    public init(attributes: [WSCAttribute], lengthPrefixed: Bool = false) throws(NDEFError) {
        guard !attributes.isEmpty else { throw NDEFError(.invalidValue, "a Wi-Fi record needs an attribute") }
        var payload: [UInt8] = []
        try WSCAttribute.encode(attributes, into: &payload)
        if lengthPrefixed {
            guard let length = UInt16(exactly: payload.count) else {
                throw NDEFError(
                    .invalidValue, "the attributes are \(payload.count) bytes, too many for the length prefix")
            }
            var prefix: [UInt8] = []
            CarrierCoding.appendBigEndian(length, to: &prefix)
            payload = prefix + payload
        }
        let parsed: WiFiCredentialRecord
        do {
            parsed = try WiFiCredentialRecord(
                parsing: NFCNDEFPayload(format: .media, type: Self.mediaType, payload: payload))
        } catch {
            throw NDEFError(.invalidValue, error.reason)
        }
        guard parsed.attributes == attributes, parsed.isLengthPrefixed == lengthPrefixed else {
            throw NDEFError(.invalidValue, "Wi-Fi attributes whose payload would be read with another length prefix")
        }
        self = parsed
    }

    /// Whether records of this format and type are read by this view.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .media && type.equalsIgnoringASCIICase("application/vnd.wfa.wsc")  // mediaType, as a literal
    }

    /// Parses `record` strictly; a malformed payload throws ``NDEFError/Code/invalidPayload`` with its offset.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let context = "Wi-Fi record"
        var payload = record.payload
        var base = 0
        // A leading 2-byte length equal to the rest of the payload cannot be an attribute type:
        // every WSC attribute type is 0x1001 or more, and such a payload would be 4 KiB.
        if payload.count >= 2 {
            let first = Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
            if first < 0x1000 && first == payload.count - 2 {
                payload = payload.dropFirst(2)
                base = 2
            }
        }
        let list = try WSCAttribute.parseList(payload, base: base, context: context)
        guard !list.isEmpty else {
            throw NDEFError(.invalidPayload, at: base, "\(context): the payload holds no attributes")
        }
        try self.init(located: list, lengthPrefixed: base == 2, code: .invalidPayload)
    }

    /// Reads the typed properties from the top-level attributes. Errors have `code`, and an
    /// offset only when it is ``NDEFError/Code/invalidPayload``.
    private init(located list: [WSCAttribute.Located], lengthPrefixed: Bool, code: NDEFError.Code) throws(NDEFError) {
        let context = "Wi-Fi record"
        var credentials: [Credential] = []
        var version: UInt8?
        var version2: UInt8?
        var other: [WSCAttribute] = []
        for item in list {
            let attribute = item.attribute
            switch attribute.type {
            case WSCAttributeType.credential:
                credentials.append(try Credential(parsing: attribute.value[...], base: item.valueOffset, code: code))
            case WSCAttributeType.version where version == nil:
                guard attribute.value.count == 1 else {
                    let offset = code == .invalidPayload ? item.valueOffset : nil
                    throw NDEFError(code, at: offset, "\(context): Version is 1 byte")
                }
                version = attribute.value[0]
            case WSCAttributeType.vendorExtension where version2 == nil && Self.loneVersion2(attribute) != nil:
                version2 = Self.loneVersion2(attribute)
            default:
                other.append(attribute)
            }
        }
        self.attributes = list.map(\.attribute)
        self.credentials = credentials
        self.version = version
        // A vendor extension with more subelements stays in `other` but is still read.
        self.version2 = version2 ?? Self.version2(in: other)
        self.recordAttributes = other
        self.isLengthPrefixed = lengthPrefixed
    }

    /// The record, without an ID; a parsed record is written back byte for byte.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        var body: [UInt8] = []
        try WSCAttribute.encode(attributes, into: &body)
        var payload: [UInt8] = []
        if isLengthPrefixed {
            guard let length = UInt16(exactly: body.count) else {
                throw NDEFError(.invalidValue, "the attributes are \(body.count) bytes, too many for the length prefix")
            }
            CarrierCoding.appendBigEndian(length, to: &payload)
        }
        payload += body
        return NFCNDEFPayload(format: .media, type: Self.mediaType, payload: payload)
    }

    /// For example `Wi-Fi "Home" wpa2-personal/aes, key: 12 bytes`; the key itself is never shown.
    public var description: String {
        guard let first = credentials.first else {
            return "Wi-Fi Simple Configuration: no credential, \(attributes.count) attributes"
        }
        let ssid = first.ssidString.map { "\"\($0)\"" } ?? "0x" + Hex.encode(first.ssid)
        var text = "Wi-Fi \(ssid)"
        let security = [first.authentication?.description, first.encryption?.description].compactMap { $0 }
        if !security.isEmpty { text += " " + security.joined(separator: "/") }
        if let key = first.networkKey {
            text += key.isEmpty ? ", no key" : ", key: \(key.count) bytes"
        }
        if credentials.count > 1 {
            let more = credentials.count - 1
            text += ", +\(more) more credential" + (more == 1 ? "" : "s")
        }
        return text
    }

    /// Version2 from the first WFA Vendor Extension among `attributes` that has it.
    static func version2(in attributes: [WSCAttribute]) -> UInt8? {
        for attribute in attributes where attribute.type == WSCAttributeType.vendorExtension {
            let subelements = WSCAttribute.wfaSubelements(attribute.value) ?? []
            if let match = subelements.first(where: {
                $0.id == WSCAttribute.WFASubelement.version2 && $0.data.count == 1
            }) {
                return match.data.first
            }
        }
        return nil
    }

    /// The Version2 value when `attribute` is a WFA Vendor Extension holding only Version2.
    static func loneVersion2(_ attribute: WSCAttribute) -> UInt8? {
        guard let subelements = WSCAttribute.wfaSubelements(attribute.value), subelements.count == 1,
            subelements[0].id == WSCAttribute.WFASubelement.version2, subelements[0].data.count == 1
        else { return nil }
        return subelements[0].data.first
    }
}

/// The Encryption Type bitfield of a Wi-Fi credential (attribute 0x100F).
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 12, table 34. Values other
/// than the named ones are kept as they are.
public struct WiFiEncryptionType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit bitfield.
    public var rawValue: UInt16

    /// Creates a value from its bitfield.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 0x0001: no encryption.
    public static let none = WiFiEncryptionType(rawValue: 0x0001)
    /// 0x0002: WEP (deprecated).
    public static let wep = WiFiEncryptionType(rawValue: 0x0002)
    /// 0x0004: TKIP (deprecated; only in mixed mode).
    public static let tkip = WiFiEncryptionType(rawValue: 0x0004)
    /// 0x0008: AES (CCMP).
    public static let aes = WiFiEncryptionType(rawValue: 0x0008)
    /// 0x000C: AES/TKIP mixed mode.
    public static let aesTKIP = WiFiEncryptionType(rawValue: 0x000C)

    private static let names: [(WiFiEncryptionType, String)] = [
        (.none, "none"),
        (.wep, "wep"),
        (.tkip, "tkip"),
        (.aes, "aes"),
        (.aesTKIP, "aes-tkip"),
    ]

    /// The stable JSON name (for example `"aes"`), or `nil` for other bitfields.
    public var name: String? {
        Self.names.first { $0.0 == self }?.1
    }

    /// The value with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let match = Self.names.first(where: { $0.1 == name }) else { return nil }
        self = match.0
    }

    /// The name, or the bitfield in hex (`0x0010`) when it has none.
    public var description: String { name ?? "0x\(WSCAttribute.typeHex(rawValue))" }
}

/// The Authentication Type bitfield of a Wi-Fi credential (attribute 0x1003).
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 12, table 32. Values other
/// than the named ones are kept as they are.
public struct WiFiAuthenticationType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The 16-bit bitfield.
    public var rawValue: UInt16

    /// Creates a value from its bitfield.
    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// 0x0001: open network, no authentication.
    public static let open = WiFiAuthenticationType(rawValue: 0x0001)
    /// 0x0002: WPA-Personal (deprecated in WSC 2.0).
    public static let wpaPersonal = WiFiAuthenticationType(rawValue: 0x0002)
    /// 0x0004: shared key (deprecated).
    public static let shared = WiFiAuthenticationType(rawValue: 0x0004)
    /// 0x0008: WPA-Enterprise (deprecated).
    public static let wpaEnterprise = WiFiAuthenticationType(rawValue: 0x0008)
    /// 0x0010: WPA2-Enterprise.
    public static let wpa2Enterprise = WiFiAuthenticationType(rawValue: 0x0010)
    /// 0x0020: WPA2-Personal.
    public static let wpa2Personal = WiFiAuthenticationType(rawValue: 0x0020)
    /// 0x0022: WPA/WPA2-Personal mixed mode.
    public static let wpaWPA2Personal = WiFiAuthenticationType(rawValue: 0x0022)
    /// 0x0040: WPA3-Personal (SAE). Not in WSC 2.0 itself; Wi-Fi EasyMesh uses this bit of the
    /// same attribute.
    public static let wpa3Personal = WiFiAuthenticationType(rawValue: 0x0040)
    /// 0x0060: WPA2/WPA3-Personal transition mode (0x0020 | 0x0040, as Wi-Fi EasyMesh uses it).
    public static let wpa2WPA3Personal = WiFiAuthenticationType(rawValue: 0x0060)

    private static let names: [(WiFiAuthenticationType, String)] = [
        (.open, "open"),
        (.wpaPersonal, "wpa-personal"),
        (.shared, "shared"),
        (.wpaEnterprise, "wpa-enterprise"),
        (.wpa2Enterprise, "wpa2-enterprise"),
        (.wpa2Personal, "wpa2-personal"),
        (.wpaWPA2Personal, "wpa-wpa2-personal"),
        (.wpa3Personal, "wpa3-personal"),
        (.wpa2WPA3Personal, "wpa2-wpa3-personal"),
    ]

    /// The stable JSON name (for example `"wpa2-personal"`), or `nil` for other bitfields.
    public var name: String? {
        Self.names.first { $0.0 == self }?.1
    }

    /// The value with this JSON name, or `nil` for an unknown name.
    public init?(name: String) {
        guard let match = Self.names.first(where: { $0.1 == name }) else { return nil }
        self = match.0
    }

    /// The name, or the bitfield in hex (`0x0081`) when it has none.
    public var description: String { name ?? "0x\(WSCAttribute.typeHex(rawValue))" }
}
