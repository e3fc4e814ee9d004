import Foundation
import NDEF
import Testing

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
            try other.makeRecord()
                == CarrierTest.media(BluetoothOOBRecordTests.type, BluetoothOOBRecordTests.manufacturerOnly)
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
        let record = CarrierTest.media(
            BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.withUnknown)
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
