import Foundation
import NDEF
import TestSupport
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

    @Test func lowEnergyJSONKeepsOtherLayouts() throws {
        // Not the builder's order: the JSON lists every structure, and gives the same record back.
        let record = CarrierTest.media(
            BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.withUnknown)
        let view = try BluetoothLowEnergyOOBRecord(parsing: record)
        let structures = try #require(try CarrierTest.jsonObject(view)["dataStructures"] as? [[String: Any]])
        #expect(structures.compactMap { $0["type"] as? Int } == [0x1B, 0x0A, 0x1C, 0xFF, 0x09])
        let again = try CarrierTest.jsonRoundTrip(view)
        #expect(again == view)
        #expect(try again.makeRecord() == record)
        // In the builder's order there is no need for the list.
        let full = try BluetoothLowEnergyOOBRecord(
            parsing: CarrierTest.media(BluetoothLowEnergyOOBRecordTests.type, BluetoothLowEnergyOOBRecordTests.full))
        #expect(try CarrierTest.jsonObject(full)["dataStructures"] == nil)
    }

    @Test func dataStructuresTakePrecedenceOverTheNamedKeys() throws {
        let json =
            #"{"address":"01:02:03:04:05:06","name":"ignored","dataStructures":[{"type":9,"dataHex":"6869"}],"#
            + #""padding":2}"#
        let view = try CarrierTest.decode(BluetoothOOBRecord.self, json)
        #expect(view.name == "hi")
        #expect(view.paddingCount == 2)
        #expect(try view.makeRecord().payload == hex("0e00 060504030201 03096869 0000")[...])
        let bad = #"{"address":"01:02:03:04:05:06","dataStructures":[{"type":13,"dataHex":"00"}]}"#
        #expect(throws: DecodingError.self) { try CarrierTest.decode(BluetoothOOBRecord.self, bad) }
    }

    /// Fuzz finding: an empty list of incomplete 32-bit service UUIDs (type 0x04, no data) was not
    /// in the JSON value (the UUID lists are summarised as one list of UUIDs), so it was lost.
    @Test func keepsAnEmptyUUIDListInJSON() throws {
        let hex =
            "91020a487312d102046163038f00000000000000000000000000000000000000000000000000005a201f016170706c69"
            + "636174694f6e2f766e642e626c7565746f6f74682e65702e6f6f62301f000307a78088bf01040d800604050318790a00"
            + "00000000000000000000000000"
        let values = try checkFuzzFinding(BluetoothOOBRecord.self, hex)
        let view = try #require(values.first)
        #expect(view.dataStructures.first == BluetoothDataStructure(type: 0x04, data: []))
        #expect(view.serviceUUIDs.isEmpty)
        #expect(view.paddingCount == 7)
        #expect(try CarrierTest.jsonObject(view)["dataStructures"] != nil)
    }

    @Test func decodesLowEnergyJSON() throws {
        let view = try CarrierTest.decode(
            BluetoothLowEnergyOOBRecord.self,
            #"{"address":"11:22:33:44:55:66","role":"peripheral-only","name":"HRM"}"#
        )
        let expected = "081b665544332211000 2 1c00 0409 48524d".replacingOccurrences(of: " ", with: "")
        #expect(try view.makeRecord().payload == hex(expected)[...])
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
