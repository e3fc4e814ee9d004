import Foundation
import NDEF
import Testing

@Suite("Bluetooth LE OOB record")
struct BluetoothLowEnergyOOBRecordTests {
    static let type = "application/vnd.bluetooth.le.oob"

    /// Built from the BTSSP 1.2 table by hand: random address 00:0c:78:51:c4:06, role 2, TK,
    /// LE Secure Connections confirmation and random values, appearance 0x03c1, flags 6, name.
    static let full =
        "081b06c451780c0001021c021110a0a1a2a3a4a5a6a7a8a9aaabacadaeaf1122b0b1b2b3b4b5b6b7b8b9babbbcbdbebf1123"
        + "c0c1c2c3c4c5c6c7c8c9cacbcccdcecf0319c10302010607094e4643204c45"
    /// Address, role and name with unknown structures (TX power 0x0a, manufacturer data 0xff)
    /// and two bytes of padding after a zero length.
    static let withUnknown = "081b66554433221100020af4021c0005ff4c000105040948524d000000"

    @Test func readsEveryField() throws {
        let view = try BluetoothLowEnergyOOBRecord(parsing: CarrierTest.media(Self.type, Self.full))
        #expect(view.address.description == "00:0c:78:51:c4:06")
        #expect(view.addressType == .random)
        #expect(view.role == .peripheralPreferred)
        #expect(view.securityManagerTK == Array(0xA0...0xAF))
        #expect(view.confirmationValue == Array(0xB0...0xBF))
        #expect(view.randomValue == Array(0xC0...0xCF))
        #expect(view.appearance == 0x03C1)
        #expect(view.flags == 6)
        #expect(view.name == "NFC LE")
        #expect(view.otherData.isEmpty)
        #expect(view.description == "Bluetooth LE 00:0c:78:51:c4:06 (random), peripheral-preferred, \"NFC LE\", pairing data")
    }

    @Test func keepsUnknownStructures() throws {
        let view = try BluetoothLowEnergyOOBRecord(parsing: CarrierTest.media(Self.type, Self.withUnknown))
        #expect(view.address.description == "11:22:33:44:55:66")
        #expect(view.addressType == .public)
        #expect(view.role == .peripheralOnly)
        #expect(view.otherData.map(\.type) == [0x0A, 0xFF])
        #expect(view.paddingCount == 3)
    }

    @Test(arguments: [full, withUnknown])
    func roundTripsExactly(hex: String) throws {
        let record = CarrierTest.media(Self.type, hex)
        #expect(try BluetoothLowEnergyOOBRecord(parsing: record).makeRecord() == record)
        CarrierTest.checkTruncations(BluetoothLowEnergyOOBRecord.self, record)
    }

    @Test func buildsInTheDocumentedOrder() throws {
        let view = try BluetoothLowEnergyOOBRecord(
            address: try #require(HardwareAddress("00:0c:78:51:c4:06")),
            addressType: .random,
            role: .peripheralPreferred,
            name: "NFC LE",
            appearance: 0x03C1,
            flags: 6,
            securityManagerTK: Array(0xA0...0xAF),
            confirmationValue: Array(0xB0...0xBF),
            randomValue: Array(0xC0...0xCF)
        )
        #expect(try view.makeRecord() == CarrierTest.media(Self.type, Self.full))
    }

    @Test(arguments: [
        ("", "empty: no address or role"),
        ("021c00", "no address"),
        ("081b06c451780c0001", "no role"),
        ("071b06c451780c00021c00", "address of 6 bytes"),
        ("081b06c451780c0001031c0000", "role of 2 bytes"),
        ("081b06c451780c0001021c00021901", "appearance of 1 byte"),
        ("081b06c451780c0001021c00031001", "TK of 2 bytes"),
        ("081b06c451780c0001021c00 05094e46", "name cut short"),
        ("081b06c451780c0001021c00 0001", "data after the zero length that ends the structures"),
    ])
    func rejectsMalformedPayloads(hex: String, reason: String) {
        #expect(throws: NDEFError(.invalidPayload, ""), "\(reason)") {
            try BluetoothLowEnergyOOBRecord(parsing: CarrierTest.media(Self.type, hex))
        }
    }

    @Test func refusesInvalidValues() throws {
        let address = try #require(HardwareAddress("00:0c:78:51:c4:06"))
        #expect(throws: NDEFError(.invalidValue, "")) {
            try BluetoothLowEnergyOOBRecord(address: address, role: .centralOnly, securityManagerTK: [1])
        }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try BluetoothLowEnergyOOBRecord(dataStructures: [BluetoothDataStructure(type: 0x1C, data: [0])])
        }
    }

    @Test func namesRoles() {
        #expect(BluetoothLERole(name: "central-preferred") == .centralPreferred)
        #expect(BluetoothLERole(rawValue: 4).name == nil)
        #expect(BluetoothLERole(rawValue: 4).description == "reserved 0x04")
    }
}

@Suite("Bluetooth OOB records JSON")
struct BluetoothOOBRecordJSONTests {
    @Test func encodesBasicRateKeys() throws {
        let view = try BluetoothOOBRecord(
            parsing: CarrierTest.media(BluetoothOOBRecordTests.type, BluetoothOOBRecordTests.handoverExample)
        )
        let json = try CarrierTest.jsonObject(view)
        #expect(json["address"] as? String == "01:bf:88:80:07:03")
        #expect(json["name"] as? String == "DeyiceName")
        #expect(json["classOfDevice"] as? Int == 0x04_0680)
        #expect(json["serviceUUIDs"] as? [String] == ["1118", "1123"])
        #expect(json["hashC"] as? String == "0f0e0d0c0b0a09080706050403020100")
        #expect(json["randomizerR"] as? String == "0f0e0d0c0b0a09080706050403020100")
        #expect((json["otherData"] as? [Any])?.isEmpty == true)
        #expect(json["nameShortened"] == nil)
        #expect(json["padding"] == nil)
    }

    @Test(arguments: [
        BluetoothOOBRecordTests.handoverExample, BluetoothOOBRecordTests.built, BluetoothOOBRecordTests.padded,
    ])
    func basicRateJSONRebuildsTheSamePayload(hex: String) throws {
        let record = CarrierTest.media(BluetoothOOBRecordTests.type, hex)
        let view = try BluetoothOOBRecord(parsing: record)
        #expect(try CarrierTest.jsonRoundTrip(view).makeRecord() == record)
    }

    @Test func decodesBasicRateJSON() throws {
        let view = try CarrierTest.decode(
            BluetoothOOBRecord.self,
            #"{"address":"00:0C:78:51:C4:06","name":"Headset","classOfDevice":2360324,"serviceUUIDs":["110b","111e"],"#
                + #""hashC":"000102030405060708090a0b0c0d0e0f","randomizerR":"101112131415161718191a1b1c1d1e1f"}"#
        )
        #expect(try view.makeRecord() == CarrierTest.media(BluetoothOOBRecordTests.type, BluetoothOOBRecordTests.built))
        let other = try CarrierTest.decode(
            BluetoothOOBRecord.self,
            #"{"address":"01:02:03:04:05:06","otherData":[{"type":255,"dataHex":"6162"}]}"#
        )
        #expect(
            try other.makeRecord() == CarrierTest.media(BluetoothOOBRecordTests.type, BluetoothOOBRecordTests.manufacturerOnly)
        )
    }

    @Test(arguments: [
        #"{"name":"x"}"#,
        #"{"address":"01:02:03"}"#,
        #"{"address":"01:02:03:04:05:06","hashC":"0011"}"#,
        #"{"address":"01:02:03:04:05:06","serviceUUIDs":["12345"]}"#,
        #"{"address":"01:02:03:04:05:06","otherData":[{"type":256,"dataHex":""}]}"#,
    ])
    func refusesInvalidBasicRateJSON(json: String) {
        #expect(throws: DecodingError.self) { try CarrierTest.decode(BluetoothOOBRecord.self, json) }
    }

    @Test func encodesLowEnergyKeys() throws {
        let view = try BluetoothLowEnergyOOBRecord(
            parsing: CarrierTest.media(BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.full)
        )
        let json = try CarrierTest.jsonObject(view)
        #expect(json["address"] as? String == "00:0c:78:51:c4:06")
        #expect(json["addressType"] as? String == "random")
        #expect(json["role"] as? String == "peripheral-preferred")
        #expect(json["name"] as? String == "NFC LE")
        #expect(json["appearance"] as? Int == 0x03C1)
        #expect(json["flags"] as? Int == 6)
        #expect(json["securityManagerTK"] as? String == "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf")
        #expect((json["otherData"] as? [Any])?.isEmpty == true)
    }

    @Test func lowEnergyJSONRebuildsTheSamePayload() throws {
        let record = CarrierTest.media(BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.full)
        let view = try BluetoothLowEnergyOOBRecord(parsing: record)
        #expect(try CarrierTest.jsonRoundTrip(view).makeRecord() == record)
    }

    @Test func lowEnergyJSONKeepsTheContentOfOtherLayouts() throws {
        // JSON rebuilds in the documented order, so only the content survives, not the layout.
        let record = CarrierTest.media(BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.withUnknown)
        let view = try BluetoothLowEnergyOOBRecord(parsing: record)
        let again = try CarrierTest.jsonRoundTrip(view)
        #expect(again.address == view.address)
        #expect(again.role == view.role)
        #expect(again.name == view.name)
        #expect(again.otherData == view.otherData)
        #expect(again.paddingCount == view.paddingCount)
        #expect(try again.makeRecord().payload.count == record.payload.count)
    }

    @Test func decodesLowEnergyJSON() throws {
        let view = try CarrierTest.decode(
            BluetoothLowEnergyOOBRecord.self,
            #"{"address":"11:22:33:44:55:66","role":"peripheral-only","name":"HRM"}"#
        )
        let expected = "081b665544332211000 2 1c00 0409 48524d".replacingOccurrences(of: " ", with: "")
        #expect(try view.makeRecord().payload == CarrierTest.bytes(expected)[...])
        let numbered = try CarrierTest.decode(
            BluetoothLowEnergyOOBRecord.self,
            #"{"address":"11:22:33:44:55:66","addressType":"random","role":7}"#
        )
        #expect(numbered.role.rawValue == 7)
        #expect(try CarrierTest.jsonObject(numbered)["role"] as? Int == 7)
    }

    @Test(arguments: [
        #"{"role":"peripheral-only"}"#,
        #"{"address":"11:22:33:44:55:66"}"#,
        #"{"address":"11:22:33:44:55:66","role":"leader"}"#,
        #"{"address":"11:22:33:44:55:66","role":0,"addressType":"static"}"#,
        #"{"address":"11:22:33:44:55:66","role":0,"confirmationValue":"00"}"#,
    ])
    func refusesInvalidLowEnergyJSON(json: String) {
        #expect(throws: DecodingError.self) { try CarrierTest.decode(BluetoothLowEnergyOOBRecord.self, json) }
    }
}
