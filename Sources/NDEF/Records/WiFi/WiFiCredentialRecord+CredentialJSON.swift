extension WiFiCredentialRecord {
    /// What the named keys of one credential say (see the JSON form of ``WiFiCredentialRecord``).
    struct CredentialJSON {
        var ssid: [UInt8]
        var networkKey: JSONField<[UInt8]>
        var authentication: JSONField<WiFiAuthenticationType>
        var encryption: JSONField<WiFiEncryptionType>
        var macAddress: JSONField<HardwareAddress>
        var networkIndex: JSONField<UInt8>
        var networkKeyShareable: Bool?
        var otherAttributes: [WSCAttribute]

        /// What the named keys say of `credential`: every attribute it has, and null for the others.
        init(_ credential: Credential) {
            ssid = credential.ssid
            networkKey = JSONField(credential.networkKey)
            authentication = JSONField(credential.authentication)
            encryption = JSONField(credential.encryption)
            macAddress = JSONField(credential.macAddress)
            networkIndex = JSONField(credential.networkIndex)
            // Network Key Shareable read from an extension with more subelements is in otherAttributes.
            networkKeyShareable = credential.hasLoneShareableExtension ? credential.networkKeyShareable : nil
            otherAttributes = credential.otherAttributes
        }

        init(_ container: KeyedDecodingContainer<CodingKeys>) throws {
            typealias Keys = CodingKeys
            guard let ssid = try CarrierJSON.textOrHex(container, text: .ssid, hex: .ssidHex) else {
                throw DecodingError.keyNotFound(
                    Keys.ssid,
                    DecodingError.Context(
                        codingPath: container.codingPath, debugDescription: "a Wi-Fi credential needs ssid")
                )
            }
            self.ssid = ssid
            networkKey = try JSONField.decode(container, [.networkKey, .networkKeyHex]) { key throws -> [UInt8]? in
                key == .networkKey
                    ? Array(try container.decode(String.self, forKey: key).utf8) : try CarrierJSON.hex(container, key)
            }
            authentication = try JSONField.decode(container, [.authentication]) { key throws in
                if let number = try? container.decode(UInt16.self, forKey: key) {
                    return WiFiAuthenticationType(rawValue: number)
                }
                let name = try container.decode(String.self, forKey: key)
                guard let value = WiFiAuthenticationType(name: name) else {
                    throw CarrierJSON.invalid(container, key, "unknown authentication \"\(name)\"")
                }
                return value
            }
            encryption = try JSONField.decode(container, [.encryption]) { key throws in
                if let number = try? container.decode(UInt16.self, forKey: key) {
                    return WiFiEncryptionType(rawValue: number)
                }
                let name = try container.decode(String.self, forKey: key)
                guard let value = WiFiEncryptionType(name: name) else {
                    throw CarrierJSON.invalid(container, key, "unknown encryption \"\(name)\"")
                }
                return value
            }
            macAddress = try JSONField.decode(container, [.macAddress]) { key throws in
                let text = try container.decode(String.self, forKey: key)
                guard let address = HardwareAddress(text) else {
                    throw CarrierJSON.invalid(container, key, "not a MAC address: \"\(text)\"")
                }
                return address
            }
            networkIndex = try JSONField.decode(container, [.networkIndex]) {
                try container.decode(UInt8.self, forKey: $0)
            }
            networkKeyShareable = try container.decodeIfPresent(Bool.self, forKey: .networkKeyShareable)
            otherAttributes = try WiFiCredentialRecord.attributes(container, .otherAttributes)
        }

        func encode(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
            try CarrierJSON.encodeTextOrHex(ssid, into: &container, text: .ssid, hex: .ssidHex)
            if let key = networkKey.value {
                try CarrierJSON.encodeTextOrHex(key, into: &container, text: .networkKey, hex: .networkKeyHex)
            } else {
                try container.encodeNil(forKey: .networkKey)
            }
            if let authentication = authentication.value {
                if let name = authentication.name {
                    try container.encode(name, forKey: .authentication)
                } else {
                    try container.encode(authentication.rawValue, forKey: .authentication)
                }
            } else {
                try container.encodeNil(forKey: .authentication)
            }
            if let encryption = encryption.value {
                if let name = encryption.name {
                    try container.encode(name, forKey: .encryption)
                } else {
                    try container.encode(encryption.rawValue, forKey: .encryption)
                }
            } else {
                try container.encodeNil(forKey: .encryption)
            }
            try container.encode(macAddress.value?.description, forKey: .macAddress)
            try container.encode(networkIndex.value, forKey: .networkIndex)
            try container.encodeIfPresent(networkKeyShareable, forKey: .networkKeyShareable)
            try container.encode(otherAttributes.map(WiFiCredentialRecord.typedData), forKey: .otherAttributes)
        }

        /// The credential the builder makes of these keys, with the builder's defaults.
        func build() throws(NDEFError) -> Credential {
            let key = networkKey.resolved(default: [])
            let resolvedAuthentication = authentication.resolved(default: key?.isEmpty ?? true ? .open : .wpa2Personal)
            let resolvedEncryption = encryption.resolved(default: resolvedAuthentication == .open ? .none : .aes)
            if let key, key.isEmpty, resolvedAuthentication != .open {
                throw NDEFError(.invalidValue, "networkKey: an empty network key is only allowed on an open network")
            }
            return try Credential(
                layout: ssid,
                networkIndex: networkIndex.resolved(default: 1),
                authentication: resolvedAuthentication,
                encryption: resolvedEncryption,
                networkKey: key,
                macAddress: macAddress.resolved(default: .broadcast),
                networkKeyShareable: networkKeyShareable,
                otherAttributes: otherAttributes
            )
        }
    }
}
