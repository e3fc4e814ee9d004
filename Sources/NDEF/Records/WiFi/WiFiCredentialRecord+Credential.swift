extension WiFiCredentialRecord {
    /// One network's credential: the attributes inside a Credential attribute (0x100E).
    ///
    /// Wi-Fi Simple Configuration Technical Specification 2.0, section 12 (Credential): Network
    /// Index (deprecated, 1), SSID, Authentication Type, Encryption Type, Network Key, MAC
    /// Address, and optionally the WFA Vendor Extension with Network Key Shareable.
    ///
    /// ``attributes`` keeps every attribute in payload order, so a parsed credential is written
    /// back byte for byte; the typed properties are read from the first attribute of each type.
    public struct Credential: Sendable, Hashable {
        /// Every attribute of the credential, in order; encoding writes exactly these.
        public let attributes: [WSCAttribute]
        /// The SSID (attribute 0x1045, at most 32 bytes).
        public let ssid: [UInt8]
        /// The Network Index (attribute 0x1026, deprecated; writers put 1).
        public let networkIndex: UInt8?
        /// The Authentication Type (attribute 0x1003).
        public let authentication: WiFiAuthenticationType?
        /// The Encryption Type (attribute 0x100F).
        public let encryption: WiFiEncryptionType?
        /// The Network Key (attribute 0x1027, at most 64 bytes): a passphrase or a hex PSK.
        public let networkKey: [UInt8]?
        /// The MAC Address (attribute 0x1020); broadcast when the writer did not know it.
        public let macAddress: HardwareAddress?
        /// Network Key Shareable (WFA Vendor Extension subelement 0x02), when present.
        public let networkKeyShareable: Bool?
        /// The attributes no typed property covers (unknown types, repeated types, vendor
        /// extensions other than a lone Network Key Shareable), in order.
        public let otherAttributes: [WSCAttribute]

        /// The SSID as text when it is valid UTF-8.
        public var ssidString: String? { CarrierCoding.utf8String(ssid) }

        /// Builds a credential the way Android and NFC Forum tools write one: Network Index,
        /// SSID, Authentication Type, Encryption Type, Network Key, MAC Address, then the WFA
        /// Vendor Extension (when `networkKeyShareable` is given) and `otherAttributes`.
        ///
        /// - Parameters:
        ///   - ssid: the SSID, 1 to 32 bytes.
        ///   - networkKey: the passphrase or hex PSK, at most 64 bytes; empty for an open network.
        ///   - authentication: defaults to WPA2-Personal, or open when `networkKey` is empty.
        ///   - encryption: defaults to AES, or none when the authentication is open.
        ///   - macAddress: the network's MAC address; broadcast when it is not known.
        ///   - networkIndex: the Network Index attribute (1, as the specification asks writers).
        ///   - networkKeyShareable: the WFA Vendor Extension's Network Key Shareable, when given.
        ///   - otherAttributes: further attributes, written after the others, in order.
        /// - Throws: ``NDEFError/Code/invalidValue`` for an SSID that is empty or longer than
        ///   32 bytes, a key longer than 64 bytes, or an empty key on a network that is not open.
        public init(
            ssid: [UInt8],
            networkKey: [UInt8] = [],
            authentication: WiFiAuthenticationType? = nil,
            encryption: WiFiEncryptionType? = nil,
            macAddress: HardwareAddress = .broadcast,
            networkIndex: UInt8 = 1,
            networkKeyShareable: Bool? = nil,
            otherAttributes: [WSCAttribute] = []
        ) throws(NDEFError) {
            let authentication = authentication ?? (networkKey.isEmpty ? .open : .wpa2Personal)
            let encryption = encryption ?? (authentication == .open ? .none : .aes)
            guard !networkKey.isEmpty || authentication == .open else {
                throw NDEFError(.invalidValue, "an empty network key is only allowed on an open network")
            }
            try self.init(
                layout: ssid,
                networkIndex: networkIndex,
                authentication: authentication,
                encryption: encryption,
                networkKey: networkKey,
                macAddress: macAddress,
                networkKeyShareable: networkKeyShareable,
                otherAttributes: otherAttributes
            )
        }

        /// Lays out the given fields in the usual order, leaving out the `nil` ones; checks that
        /// the SSID is 1-32 bytes, the key at most 64 and the whole at most 65535, and reads the
        /// typed properties back from the attributes as parsing does (so a value built from
        /// `otherAttributes` that parsing would read differently reads the same).
        init(
            layout ssid: [UInt8],
            networkIndex: UInt8?,
            authentication: WiFiAuthenticationType?,
            encryption: WiFiEncryptionType?,
            networkKey: [UInt8]?,
            macAddress: HardwareAddress?,
            networkKeyShareable: Bool?,
            otherAttributes: [WSCAttribute]
        ) throws(NDEFError) {
            guard !ssid.isEmpty, ssid.count <= 32 else {
                throw NDEFError(.invalidValue, "an SSID is 1 to 32 bytes, not \(ssid.count)")
            }
            if let networkKey, networkKey.count > 64 {
                throw NDEFError(.invalidValue, "a network key is at most 64 bytes, not \(networkKey.count)")
            }
            var list: [WSCAttribute] = []
            if let networkIndex {
                list.append(WSCAttribute(type: WSCAttributeType.networkIndex, value: [networkIndex]))
            }
            list.append(WSCAttribute(type: WSCAttributeType.ssid, value: ssid))
            if let authentication {
                list.append(
                    WSCAttribute(
                        type: WSCAttributeType.authenticationType, value: Self.bigEndian(authentication.rawValue)))
            }
            if let encryption {
                list.append(
                    WSCAttribute(type: WSCAttributeType.encryptionType, value: Self.bigEndian(encryption.rawValue)))
            }
            if let networkKey { list.append(WSCAttribute(type: WSCAttributeType.networkKey, value: networkKey)) }
            if let macAddress { list.append(WSCAttribute(type: WSCAttributeType.macAddress, value: macAddress.bytes)) }
            if let networkKeyShareable {
                let data: [UInt8] = [networkKeyShareable ? 1 : 0]
                list.append(
                    WSCAttribute.wfaExtension(subelement: WSCAttribute.WFASubelement.networkKeyShareable, data: data))
            }
            list += otherAttributes
            var probe: [UInt8] = []
            try WSCAttribute.encode(list, into: &probe)
            guard probe.count <= Int(UInt16.max) else {
                throw NDEFError(.invalidValue, "the credential is \(probe.count) bytes, at most 65535")
            }
            try self.init(parsing: probe[...], base: 0, code: .invalidValue)
        }

        /// Builds a credential from text, with the defaults of the byte-array builder.
        public init(
            ssid: String,
            networkKey: String = "",
            authentication: WiFiAuthenticationType? = nil,
            encryption: WiFiEncryptionType? = nil
        ) throws(NDEFError) {
            try self.init(
                ssid: Array(ssid.utf8),
                networkKey: Array(networkKey.utf8),
                authentication: authentication,
                encryption: encryption
            )
        }

        /// Reads the attributes of a Credential attribute's value, which starts at payload
        /// offset `base`. Errors in the typed attributes have `code`, and an offset only when it
        /// is ``NDEFError/Code/invalidPayload``.
        init(parsing value: ArraySlice<UInt8>, base: Int, code: NDEFError.Code = .invalidPayload) throws(NDEFError) {
            let context = "Wi-Fi credential"
            let list = try WSCAttribute.parseList(value, base: base, context: context)
            var fields = Fields()
            var other: [WSCAttribute] = []
            for item in list {
                let known = try fields.take(item, context: context, code: code)
                if !known { other.append(item.attribute) }
            }
            guard let ssid = fields.ssid else {
                let offset = code == .invalidPayload ? base : nil
                throw NDEFError(code, at: offset, "\(context): the credential has no SSID (attribute 0x1045)")
            }
            if fields.networkKeyShareable == nil {
                // A vendor extension with more subelements stays in `other` but is still read.
                fields.networkKeyShareable = Self.shareable(in: other)
            }
            self.attributes = list.map(\.attribute)
            self.ssid = ssid
            self.networkIndex = fields.networkIndex
            self.authentication = fields.authentication
            self.encryption = fields.encryption
            self.networkKey = fields.networkKey
            self.macAddress = fields.macAddress
            self.networkKeyShareable = fields.networkKeyShareable
            self.otherAttributes = other
        }

        /// Whether the WFA Vendor Extension holding Network Key Shareable was read as its own
        /// property (it is then not in ``otherAttributes``).
        var hasLoneShareableExtension: Bool {
            attributes.contains { Self.loneShareable($0) != nil }
        }

        /// The attribute's value encoded, as the value of a Credential attribute.
        func encodedValue() throws(NDEFError) -> [UInt8] {
            var bytes: [UInt8] = []
            try WSCAttribute.encode(attributes, into: &bytes)
            return bytes
        }

        private static func bigEndian(_ value: UInt16) -> [UInt8] {
            var bytes: [UInt8] = []
            CarrierCoding.appendBigEndian(value, to: &bytes)
            return bytes
        }

        /// Network Key Shareable when `attribute` is a WFA Vendor Extension holding only that.
        static func loneShareable(_ attribute: WSCAttribute) -> Bool? {
            guard attribute.type == WSCAttributeType.vendorExtension,
                let subelements = WSCAttribute.wfaSubelements(attribute.value), subelements.count == 1,
                subelements[0].id == WSCAttribute.WFASubelement.networkKeyShareable, subelements[0].data.count == 1
            else { return nil }
            return subelements[0].data.first != 0
        }

        private static func shareable(in attributes: [WSCAttribute]) -> Bool? {
            for attribute in attributes where attribute.type == WSCAttributeType.vendorExtension {
                guard let subelements = WSCAttribute.wfaSubelements(attribute.value) else { continue }
                let id = WSCAttribute.WFASubelement.networkKeyShareable
                if let match = subelements.first(where: { $0.id == id && $0.data.count == 1 }) {
                    return match.data.first != 0
                }
            }
            return nil
        }
    }
}

/// The typed fields found while reading a credential's attributes.
private struct Fields {
    var ssid: [UInt8]?
    var networkIndex: UInt8?
    var authentication: WiFiAuthenticationType?
    var encryption: WiFiEncryptionType?
    var networkKey: [UInt8]?
    var macAddress: HardwareAddress?
    var networkKeyShareable: Bool?

    /// Reads `item` into its field when it is the first of a known type; returns whether it did.
    mutating func take(_ item: WSCAttribute.Located, context: String, code: NDEFError.Code) throws(NDEFError) -> Bool {
        let value = item.attribute.value
        func check(_ valid: Bool, _ what: String) throws(NDEFError) {
            guard valid else {
                let offset = code == .invalidPayload ? item.valueOffset : nil
                throw NDEFError(code, at: offset, "\(context): \(what), not \(value.count) bytes")
            }
        }
        switch item.attribute.type {
        case WSCAttributeType.ssid where ssid == nil:
            try check(value.count <= 32, "an SSID is at most 32 bytes")
            ssid = value
        case WSCAttributeType.networkIndex where networkIndex == nil:
            try check(value.count == 1, "a network index is 1 byte")
            networkIndex = value[0]
        case WSCAttributeType.authenticationType where authentication == nil:
            try check(value.count == 2, "an authentication type is 2 bytes")
            authentication = WiFiAuthenticationType(rawValue: UInt16(value[0]) << 8 | UInt16(value[1]))
        case WSCAttributeType.encryptionType where encryption == nil:
            try check(value.count == 2, "an encryption type is 2 bytes")
            encryption = WiFiEncryptionType(rawValue: UInt16(value[0]) << 8 | UInt16(value[1]))
        case WSCAttributeType.networkKey where networkKey == nil:
            try check(value.count <= 64, "a network key is at most 64 bytes")
            networkKey = value
        case WSCAttributeType.macAddress where macAddress == nil:
            try check(value.count == 6, "a MAC address is 6 bytes")
            macAddress = HardwareAddress(bytes: value)
        case WSCAttributeType.vendorExtension where networkKeyShareable == nil:
            // Only an extension holding nothing but Network Key Shareable becomes the property.
            guard let shareable = WiFiCredentialRecord.Credential.loneShareable(item.attribute) else { return false }
            networkKeyShareable = shareable
        default:
            return false
        }
        return true
    }
}
