import Foundation
import NDEF
import TestSupport
import Testing

@Suite("Wi-Fi credential record JSON")
struct WiFiCredentialRecordJSONTests {
    typealias Vectors = WiFiCredentialRecordTests

    @Test func encodesTheFirstCredentialAtTheTopLevel() throws {
        let view = try WiFiCredentialRecord(parsing: CarrierTest.media(Vectors.type, Vectors.androidAESTKIP))
        let json = try CarrierTest.jsonObject(view)
        #expect(json["ssid"] as? String == "T_Wpa2_Aestkip")
        #expect(json["networkKey"] as? String == "12345678")
        #expect(json["authentication"] as? String == "wpa2-personal")
        #expect(json["encryption"] as? String == "aes-tkip")
        #expect(json["macAddress"] as? String == "ff:ff:ff:ff:ff:ff")
        #expect(json["networkIndex"] as? Int == 1)
        #expect((json["otherAttributes"] as? [Any])?.isEmpty == true)
        #expect(json["version"] is NSNull)
        #expect(json["version2"] is NSNull)
        #expect(json["additionalCredentials"] == nil)
        #expect(json["ssidHex"] == nil)
    }

    @Test(arguments: [Vectors.androidAESTKIP, Vectors.androidMinimal, Vectors.home, Vectors.two])
    func jsonRebuildsTheSamePayload(hex: String) throws {
        let record = CarrierTest.media(Vectors.type, hex)
        let view = try WiFiCredentialRecord(parsing: record)
        let again = try CarrierTest.jsonRoundTrip(view)
        #expect(try again.makeRecord() == record)
    }

    @Test func encodesSeveralCredentialsAndUnknownAttributes() throws {
        let view = try WiFiCredentialRecord(parsing: CarrierTest.media(Vectors.type, Vectors.two))
        let json = try CarrierTest.jsonObject(view)
        let more = try #require(json["additionalCredentials"] as? [[String: Any]])
        #expect(more.count == 1)
        #expect(more.first?["ssid"] as? String == "Net-B")
        #expect(more.first?["authentication"] as? String == "open")
        #expect(more.first?["networkIndex"] is NSNull)
        let other = try #require(json["otherAttributes"] as? [[String: Any]])
        #expect(other.first?["type"] as? Int == 0x1061)
        #expect(other.first?["dataHex"] as? String == "01")
        let top = try #require(json["recordAttributes"] as? [[String: Any]])
        #expect(top.map { $0["type"] as? Int } == [0x1011, 0x1049])
        #expect(json["version"] as? String == "1.0")
        #expect(json["version2"] is NSNull)  // not a lone Version2 extension: it is in recordAttributes
    }

    @Test func writesHexForBytesThatAreNotUTF8AndNumbersForUnknownBitfields() throws {
        let credential = try WiFiCredentialRecord.Credential(
            ssid: [0xFF, 0x00, 0x41],
            networkKey: [0xC3, 0x28, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36],
            authentication: WiFiAuthenticationType(rawValue: 0x0081),
            encryption: WiFiEncryptionType(rawValue: 0x0010)
        )
        let view = try WiFiCredentialRecord(credentials: [credential])
        let json = try CarrierTest.jsonObject(view)
        #expect(json["ssidHex"] as? String == "ff0041")
        #expect(json["networkKeyHex"] as? String == "c328313233343536")
        #expect(json["authentication"] as? Int == 0x81)
        #expect(json["encryption"] as? Int == 0x10)
        #expect(json["ssid"] == nil)
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
    }

    @Test func decodesWithDefaults() throws {
        let open = try CarrierTest.decode(WiFiCredentialRecord.self, #"{"ssid":"x"}"#)
        #expect(open == (try WiFiCredentialRecord(ssid: "x")))
        #expect(open.credentials[0].authentication == .open)
        #expect(open.credentials[0].encryption == WiFiEncryptionType.none)
        #expect(open.version == 0x10)
        #expect(open.version2 == 0x20)

        let home = try CarrierTest.decode(WiFiCredentialRecord.self, #"{"ssid":"Home","networkKey":"secret-pass1"}"#)
        #expect(try home.makeRecord() == CarrierTest.media(Vectors.type, Vectors.home))

        let named = try CarrierTest.decode(
            WiFiCredentialRecord.self,
            #"""
            {"ssid":"Lab","networkKey":"12345678","authentication":"wpa-wpa2-personal","encryption":"aes-tkip",
             "macAddress":"00-11-22-33-44-55","networkIndex":2,"networkKeyShareable":false,"version":null,
             "additionalCredentials":[{"ssidHex":"4f70656e","networkKey":null}]}
            """#
        )
        #expect(named.credentials.count == 2)
        #expect(named.credentials[0].authentication == .wpaWPA2Personal)
        #expect(named.credentials[0].macAddress?.description == "00:11:22:33:44:55")
        #expect(named.credentials[0].networkIndex == 2)
        #expect(named.credentials[0].networkKeyShareable == false)
        #expect(named.credentials[1].ssidString == "Open")
        #expect(named.credentials[1].networkKey == nil)
        #expect(named.version == nil)
    }

    @Test(arguments: [
        #"{"networkKey":"12345678"}"#,
        #"{"ssid":"x","authentication":"wpa2-personal"}"#,
        #"{"ssid":"x","authentication":"wpa4"}"#,
        #"{"ssid":"x","encryption":"rot13"}"#,
        #"{"ssid":"x","macAddress":"ff:ff"}"#,
        #"{"ssid":"","networkKey":"12345678"}"#,
        #"{"ssidHex":"zz"}"#,
        #"{"ssid":"x","version":"one"}"#,
        // Parsing would read this as the network index, which is 1 byte.
        #"{"ssid":"x","networkIndex":null,"otherAttributes":[{"type":4134,"dataHex":"0102"}]}"#,
    ])
    func refusesInvalidJSON(json: String) {
        #expect(throws: DecodingError.self) { try CarrierTest.decode(WiFiCredentialRecord.self, json) }
    }

    /// Fuzz finding: a record without a Credential (here one unknown attribute, 0x290e) had JSON
    /// that did not decode, since decoding the named keys needs an SSID.
    @Test func keepsARecordWithoutACredential() throws {
        let hex =
            "9217246170706c69636174696f6e2f766e642e7766612e777363290e0020004500094b69a19b86a0b19acfef030002"
            + "0020102700094c65ef5f63746f776e"
        let view = try #require(try checkFuzzFinding(WiFiCredentialRecord.self, hex).first)
        #expect(view.credentials.isEmpty)
        let json = try CarrierTest.jsonObject(view)
        #expect(json["ssid"] == nil)
        #expect((json["attributes"] as? [[String: Any]])?.first?["type"] as? Int == 0x290E)
    }

    /// Fuzz finding: a credential with an empty SSID, which parsing accepts but the builder does
    /// not, had JSON that did not decode.
    @Test func keepsAnEmptySSID() throws {
        let hex =
            "9217246170706c69636174696f6e2f766e642e7766612e777363100e0020104500000001000020000000000000000000"
            + "0000000000000000000000000000"
        let view = try #require(try checkFuzzFinding(WiFiCredentialRecord.self, hex).first)
        #expect(view.credentials.first?.ssid == [])
        #expect(try CarrierTest.jsonObject(view)["ssid"] as? String == "")
    }

    /// Fuzz finding: an unknown attribute between the SSID and the network key came back after the
    /// key, as the builder lays a credential out. The SSID is not UTF-8, so it is `ssidHex`.
    @Test func keepsTheAttributeOrderOfACredential() throws {
        let hex =
            "9217246170706c69636174696f6e2f766e642e7766612e777363100e0020104500094b69a19b86a0b19acfef030002"
            + "0020102700094c65ef5f63746f776e"
        let view = try #require(try checkFuzzFinding(WiFiCredentialRecord.self, hex).first)
        let credential = try #require(view.credentials.first)
        #expect(credential.attributes.map(\.type) == [0x1045, 0xEF03, 0x1027])
        let json = try CarrierTest.jsonObject(view)
        #expect(json["ssidHex"] as? String == "4b69a19b86a0b19acf")
        #expect(json["ssid"] == nil)
        #expect(json["attributes"] != nil)
    }

    @Test func writesHexForTextWithControlCharacters() throws {
        let credential = try WiFiCredentialRecord.Credential(
            ssid: Array("a\u{0}b".utf8), networkKey: Array("k\u{7}ey12345".utf8))
        let view = try WiFiCredentialRecord(credentials: [credential])
        let json = try CarrierTest.jsonObject(view)
        #expect(json["ssidHex"] as? String == "610062")
        #expect(json["networkKeyHex"] as? String == "6b0765793132333435")
        #expect(json["ssid"] == nil)
        #expect(json["attributes"] == nil)
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
    }

    @Test func attributesTakePrecedenceOverTheNamedKeys() throws {
        // A Credential holding only an SSID "x", and the length prefix.
        let json = #"{"ssid":"ignored","attributes":[{"type":4110,"dataHex":"104500027878"}],"lengthPrefixed":true}"#
        let view = try CarrierTest.decode(WiFiCredentialRecord.self, json)
        #expect(view.credentials.first?.ssidString == "xx")
        #expect(view.isLengthPrefixed)
        #expect(try view.makeRecord().payload == hex("000a 100e0006 104500027878")[...])
        for bad in [
            #"{"attributes":[]}"#,
            #"{"attributes":[{"type":4110,"dataHex":"1045"}]}"#,
            #"{"attributes":[{"type":4170,"dataHex":"1020"}]}"#,
        ] {
            #expect(throws: DecodingError.self) { try CarrierTest.decode(WiFiCredentialRecord.self, bad) }
        }
    }

    @Test func recordJSONCarriesTheValueAndBuildsFromIt() throws {
        let record = CarrierTest.media(Vectors.type, Vectors.home)
        let json = try CarrierTest.jsonObject(record)
        let value = try #require(json["value"] as? [String: Any])
        #expect(value["ssid"] as? String == "Home")

        let built = try CarrierTest.decode(
            NFCNDEFPayload.self,
            #"{"tnf":2,"type":"application/vnd.wfa.wsc","value":{"ssid":"Home","networkKey":"secret-pass1"}}"#
        )
        #expect(built == record)
    }
}
