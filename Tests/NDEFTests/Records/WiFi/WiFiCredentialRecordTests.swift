import Foundation
import NDEF
import TestSupport
import Testing

@Suite("Wi-Fi credential record")
struct WiFiCredentialRecordTests {
    static let type = "application/vnd.wfa.wsc"

    /// Written by an Android app for SSID "T_Wpa2_Aestkip", WPA2-Personal, AES/TKIP, key
    /// "12345678" (NfcWifiConnectOwn log): Network Index, SSID, auth, encryption, key, MAC.
    static let androidAESTKIP =
        "100e003910260001011045000e545f577061325f416573746b6970100300020020100f0002000c1027000831323334353637"
        + "3810200006ffffffffffff"
    /// Written by an Android app (WiFiKeyShare style): only SSID, auth and key.
    static let androidMinimal = "100e0020104500094b696464795f4e6574100300020020102700094c656f6e5f32303138"
    /// A WSC 2.0 token as the builder writes it: Version 1.0, Credential, WFA Version2 2.0.
    static let home =
        "104a000110100e0033102600010110450004486f6d65100300020020100f000200081027000c7365637265742d7061737331"
        + "10200006ffffffffffff1049000600372a000120"
    /// Two credentials, an unknown credential attribute (0x1061), an unknown top-level attribute
    /// (0x1011 Device Name), and a WFA extension with Version2 and Network Key Shareable.
    static let two =
        "104a000110100e00361026000101104500054e65742d41100300020020100f000200081027000970617373776f726441"
        + "102000060011223344aa1061000101100e0019104500054e65742d42100300020001100f00020001102700001011000652"
        + "6f757465721049000900372a000120020101"

    @Test func readsAnAndroidCredential() throws {
        let record = try WiFiCredentialRecord(parsing: CarrierTest.media(Self.type, Self.androidAESTKIP))
        #expect(record.credentials.count == 1)
        let credential = try #require(record.credentials.first)
        #expect(credential.ssidString == "T_Wpa2_Aestkip")
        #expect(credential.networkKey == Array("12345678".utf8))
        #expect(credential.authentication == .wpa2Personal)
        #expect(credential.encryption == .aesTKIP)
        #expect(credential.macAddress == .broadcast)
        #expect(credential.networkIndex == 1)
        #expect(credential.otherAttributes.isEmpty)
        #expect(record.version == nil)
        #expect(record.version2 == nil)
        #expect(record.description == "Wi-Fi \"T_Wpa2_Aestkip\" wpa2-personal/aes-tkip, key: 8 bytes")
    }

    @Test func readsAMinimalCredential() throws {
        let record = try WiFiCredentialRecord(parsing: CarrierTest.media(Self.type, Self.androidMinimal))
        let credential = try #require(record.credentials.first)
        #expect(credential.ssidString == "Kiddy_Net")
        #expect(credential.networkKey == Array("Leon_2018".utf8))
        #expect(credential.authentication == .wpa2Personal)
        #expect(credential.encryption == nil)
        #expect(credential.macAddress == nil)
        #expect(credential.networkIndex == nil)
    }

    @Test func readsSeveralCredentialsAndKeepsUnknownAttributes() throws {
        let record = try WiFiCredentialRecord(parsing: CarrierTest.media(Self.type, Self.two))
        #expect(record.credentials.count == 2)
        #expect(record.credentials[0].ssidString == "Net-A")
        #expect(record.credentials[0].macAddress?.description == "00:11:22:33:44:aa")
        #expect(record.credentials[0].otherAttributes == [WSCAttribute(type: 0x1061, value: [1])])
        #expect(record.credentials[1].ssidString == "Net-B")
        #expect(record.credentials[1].authentication == .open)
        #expect(record.credentials[1].networkKey == [])
        #expect(record.version == 0x10)
        #expect(record.version2 == 0x20)  // read from an extension that also has Network Key Shareable
        #expect(record.recordAttributes.map(\.type) == [0x1011, 0x1049])
        #expect(record.description.hasSuffix("+1 more credential"))
    }

    @Test(arguments: [androidAESTKIP, androidMinimal, home, two, "0005104a000110"])
    func roundTripsExactly(hex: String) throws {
        let record = CarrierTest.media(Self.type, hex)
        let view = try WiFiCredentialRecord(parsing: record)
        #expect(try view.makeRecord() == record)
        CarrierTest.checkTruncations(WiFiCredentialRecord.self, record)
    }

    @Test func readsALengthPrefixedPasswordToken() throws {
        let view = try WiFiCredentialRecord(parsing: CarrierTest.media(Self.type, "0005104a000110"))
        #expect(view.isLengthPrefixed)
        #expect(view.credentials.isEmpty)
        #expect(view.version == 0x10)
        #expect(view.description == "Wi-Fi Simple Configuration: no credential, 1 attributes")
    }

    @Test func buildsTheWSC2Token() throws {
        let view = try WiFiCredentialRecord(ssid: "Home", networkKey: "secret-pass1")
        #expect(try view.makeRecord() == CarrierTest.media(Self.type, Self.home))
        #expect(view.description == "Wi-Fi \"Home\" wpa2-personal/aes, key: 12 bytes")
        #expect(!view.description.contains("secret"))
    }

    @Test func buildsTheAndroidLayout() throws {
        let credential = try WiFiCredentialRecord.Credential(
            ssid: "T_Wpa2_Aestkip",
            networkKey: "12345678",
            encryption: .aesTKIP
        )
        let view = try WiFiCredentialRecord(credentials: [credential], version: nil, version2: nil)
        #expect(try view.makeRecord() == CarrierTest.media(Self.type, Self.androidAESTKIP))
    }

    @Test func buildsAnOpenNetworkAndShareableKey() throws {
        let open = try WiFiCredentialRecord(ssid: "x")
        let expectedOpen =
            "104a000110100e002410260001011045000178100300020001100f000200011027000010200006ffffffffffff"
            + "1049000600372a000120"
        #expect(try open.makeRecord().payload == hex(expectedOpen)[...])
        #expect(open.credentials[0].encryption == WiFiEncryptionType.none)

        let shared = try WiFiCredentialRecord.Credential(
            ssid: Array("Home".utf8),
            networkKey: Array("secret-pass1".utf8),
            networkKeyShareable: true
        )
        let view = try WiFiCredentialRecord(credentials: [shared])
        let expected =
            "104a000110100e003d102600010110450004486f6d65100300020020100f000200081027000c7365637265742d7061737331"
            + "10200006ffffffffffff1049000600372a0201011049000600372a000120"
        #expect(try view.makeRecord().payload == hex(expected)[...])
        let parsed = try WiFiCredentialRecord(parsing: view.makeRecord())
        #expect(parsed.credentials[0].networkKeyShareable == true)
        #expect(parsed.credentials[0].otherAttributes.isEmpty)
    }

    @Test func refusesInvalidValues() {
        #expect(throws: NDEFError(.invalidValue, "")) { try WiFiCredentialRecord(ssid: "") }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try WiFiCredentialRecord(ssid: String(repeating: "s", count: 33))
        }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try WiFiCredentialRecord(ssid: "x", networkKey: String(repeating: "k", count: 65))
        }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try WiFiCredentialRecord(ssid: "x", authentication: .wpa2Personal)
        }
        #expect(throws: NDEFError(.invalidValue, "")) { try WiFiCredentialRecord(credentials: []) }
    }

    @Test(arguments: [
        ("", "empty payload"),
        ("10", "truncated type"),
        ("100e00", "truncated length"),
        ("100e0005104500", "value longer than the payload"),
        ("100e0006100300020020", "credential without SSID"),
        ("100e0009104500020041100300", "attribute inside the credential cut short"),
        ("100e000b1045000141102000020102", "MAC address of 2 bytes"),
        ("100e000c1045000141100300030000ff", "authentication of 3 bytes"),
        ("100e0009104500014110260000", "network index of 0 bytes"),
        ("104a00021010", "version of 2 bytes"),
        ("100e002510450021" + String(repeating: "41", count: 33), "SSID of 33 bytes"),
    ])
    func rejectsMalformedPayloads(hex: String, reason: String) {
        #expect(throws: NDEFError(.invalidPayload, ""), "\(reason)") {
            try WiFiCredentialRecord(parsing: CarrierTest.media(Self.type, hex))
        }
    }

    @Test func reportsTheOffsetInsideTheCredential() {
        do {
            _ = try WiFiCredentialRecord(
                parsing: CarrierTest.media(Self.type, "104a000110100e000b1045000141102000020102"))
            Issue.record("a 2-byte MAC address was accepted")
        } catch {
            #expect(error.code == .invalidPayload)
            #expect(error.offset == 18)  // the MAC address value
        }
    }

    @Test func buildersReadTheirAttributesAsParsingDoes() throws {
        // Network Key Shareable given only among the other attributes, and Version2 only inside
        // a vendor extension with more subelements: the built value reads both, as parsing does.
        let shareable = WSCAttribute(type: 0x1049, value: [0x00, 0x37, 0x2A, 0x02, 0x01, 0x01])
        let credential = try WiFiCredentialRecord.Credential(ssid: Array("x".utf8), otherAttributes: [shareable])
        #expect(credential.networkKeyShareable == true)
        #expect(credential.otherAttributes.isEmpty)
        let extensions = WSCAttribute(type: 0x1049, value: [0x00, 0x37, 0x2A, 0x00, 0x01, 0x20, 0x05, 0x00])
        let view = try WiFiCredentialRecord(credentials: [credential], version2: nil, recordAttributes: [extensions])
        #expect(view.version2 == 0x20)
        #expect(try WiFiCredentialRecord(parsing: view.makeRecord()) == view)
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
    }

    @Test func buildsFromAttributes() throws {
        let record = CarrierTest.media(Self.type, Self.two)
        let parsed = try WiFiCredentialRecord(parsing: record)
        let built = try WiFiCredentialRecord(attributes: parsed.attributes)
        #expect(built == parsed)
        let token = try WiFiCredentialRecord(
            attributes: [WSCAttribute(type: 0x104A, value: [0x10])], lengthPrefixed: true)
        #expect(try token.makeRecord() == CarrierTest.media(Self.type, "0005104a000110"))
        #expect(throws: NDEFError(.invalidValue, "")) { try WiFiCredentialRecord(attributes: []) }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try WiFiCredentialRecord(attributes: [WSCAttribute(type: 0x100E, value: [0x10, 0x20, 0x00, 0x00])])
        }
    }

    @Test func matchesTheMediaTypeIgnoringCase() {
        #expect(WiFiCredentialRecord.matches(format: .media, type: Array("Application/VND.WFA.WSC".utf8)[...]))
        #expect(!WiFiCredentialRecord.matches(format: .nfcExternal, type: Array(Self.type.utf8)[...]))
        #expect(NDEFRecordRegistry.view(kind: "wifi") == WiFiCredentialRecord.self)
    }

    @Test func rejectsOtherRecordTypes() {
        #expect(throws: NDEFError(.wrongRecordType, "")) {
            try WiFiCredentialRecord(parsing: CarrierTest.media("text/plain", Self.home))
        }
    }
}
