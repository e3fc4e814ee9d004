import Foundation
import NDEF
import TestSupport
import Testing

@Suite("Handover messages")
struct HandoverMessageTests {
    @Test func decodesTheBluetoothSelectExample() throws {
        let bytes = try CarrierTest.fixture("handover-select-bluetooth-ch12.hex")
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(message.records.count == 2)
        let select = try HandoverSelectRecord(parsing: message.records[0])
        #expect(select.version == 0x12)
        #expect(select.carriers == [AlternativeCarrier(powerState: .active, dataReference: "0")])

        let resolved = select.resolveCarriers(in: message)
        #expect(resolved.count == 1)
        let configuration = try #require(resolved.first?.configuration)
        #expect(configuration.identifierString == "0")
        let bluetooth = try BluetoothOOBRecord(parsing: configuration)
        #expect(bluetooth.address.description == "01:bf:88:80:07:03")
        #expect(bluetooth.name == "DeyiceName")
        #expect(bluetooth.hashC != nil)

        let typed = try #require(try message.records[1].interpreted() as? BluetoothOOBRecord)
        #expect(typed == bluetooth)
        #expect(try message.encoded() == bytes)
    }

    @Test func rebuildsTheSpecificationExamplesFromTypedValues() throws {
        let address = try #require(HardwareAddress("01:bf:88:80:07:03"))
        let uuids = [BluetoothServiceUUID(uuid16: 0x1118), BluetoothServiceUUID(uuid16: 0x1123)]
        let hash = hex("0f0e0d0c0b0a09080706050403020100")
        let full = try BluetoothOOBRecord(
            address: address,
            name: "DeyiceName",
            classOfDevice: 0x04_0680,
            serviceUUIDs: uuids,
            hashC: hash,
            randomizerR: hash
        )
        let select = try HandoverSelectRecord.message(carrier: full, version: 0x12)
        #expect(try select.encoded() == CarrierTest.fixture("handover-select-bluetooth-ch12.hex"))

        let tagCarrier = try BluetoothOOBRecord(
            address: address, name: "DeyiceName", classOfDevice: 0x04_0680, serviceUUIDs: uuids)
        let tag = try HandoverSelectRecord.message(carrier: tagCarrier, powerState: .unknown, version: 0x12)
        #expect(try tag.encoded() == CarrierTest.fixture("handover-select-bluetooth-tag-ch12.hex"))
    }

    @Test func decodesTheBluetoothRequestExample() throws {
        let bytes = try CarrierTest.fixture("handover-request-bluetooth-ch12.hex")
        let message = try NFCNDEFMessage(decoding: bytes)
        let request = try HandoverRequestRecord(parsing: message.records[0])
        #expect(request.version == 0x12)
        #expect(request.collisionResolution == 0x0102)
        #expect(request.carriers == [AlternativeCarrier(powerState: .active, dataReference: "0")])
        let bluetooth = try BluetoothOOBRecord(parsing: message.records[1])
        #expect(bluetooth.address.description == "a1:bf:80:80:07:01")
        #expect(bluetooth.classOfDevice == 0x08_0620)
        #expect(bluetooth.serviceUUIDs.map(\.description) == ["1106", "1120"])
        #expect(try message.encoded() == bytes)
    }

    @Test func decodesATagSelectWithoutPairingData() throws {
        let message = try NFCNDEFMessage(decoding: try CarrierTest.fixture("handover-select-bluetooth-tag-ch12.hex"))
        let select = try HandoverSelectRecord(parsing: message.records[0])
        #expect(select.carriers.first?.powerState == .unknown)
        let bluetooth = try BluetoothOOBRecord(
            parsing: try #require(select.resolveCarriers(in: message).first?.configuration))
        #expect(bluetooth.hashC == nil)
        #expect(bluetooth.classOfDevice == 0x04_0680)
    }

    @Test func buildsAndDecodesALowEnergySelect() throws {
        let le = try BluetoothLowEnergyOOBRecord(
            address: try #require(HardwareAddress("00:0c:78:51:c4:06")),
            addressType: .random,
            role: .peripheralOnly,
            name: "NFC LE",
            appearance: 0x03C1,
            flags: 0x06
        )
        let message = try HandoverSelectRecord.message(carrier: le)
        let fixture = try CarrierTest.fixture("handover-select-bluetooth-le.hex")
        #expect(try message.encoded() == fixture)
        let decoded = try NFCNDEFMessage(decoding: fixture)
        let select = try HandoverSelectRecord(parsing: decoded.records[0])
        let resolved = try #require(select.resolveCarriers(in: decoded).first?.configuration)
        #expect(try BluetoothLowEnergyOOBRecord(parsing: resolved) == le)
    }

    @Test func decodesAnAndroidWiFiTag() throws {
        let message = try NFCNDEFMessage(decoding: try CarrierTest.fixture("wifi-credential-android-aar.hex"))
        #expect(message.records.count == 2)
        let wifi = try #require(try message.records[0].interpreted() as? WiFiCredentialRecord)
        #expect(wifi.credentials.first?.ssidString == "Kiddy_Net")
        #expect(wifi.description == "Wi-Fi \"Kiddy_Net\" wpa2-personal, key: 9 bytes")
        let aar = try #require(try message.records[1].interpreted() as? AndroidApplicationRecord)
        #expect(!aar.package.isEmpty)
    }

    @Test func buildsAWiFiSelectAndResolvesReferences() throws {
        let wifi = try WiFiCredentialRecord(ssid: "Home", networkKey: "secret-pass1")
        var info = NFCNDEFPayload(format: .media, type: "text/plain", payload: Array("router".utf8))
        info.identifier = Array("info".utf8)[...]
        let carrier = AlternativeCarrier(
            powerState: .active, dataReference: "w", auxiliaryDataReferences: ["info", "none"])
        var configuration = try wifi.makeRecord()
        configuration.identifier = Array("w".utf8)[...]
        let select = try HandoverSelectRecord(carriers: [carrier])
        let message = NFCNDEFMessage(records: [try select.makeRecord(), configuration, info])
        let decoded = try NFCNDEFMessage(decoding: try message.encoded())
        let resolved = try HandoverSelectRecord(parsing: decoded.records[0]).resolveCarriers(in: decoded)
        #expect(resolved.first?.configuration == configuration)
        #expect(resolved.first?.auxiliaryData == [info, nil])

        let simple = try HandoverSelectRecord.message(carrier: wifi, reference: "wifi")
        #expect(simple.records[1].identifierString == "wifi")
        #expect(
            try HandoverSelectRecord(parsing: simple.records[0]).carriers.first?.dataReference == Array("wifi".utf8))
    }

    @Test func refusesConfigurationsWithoutDistinctIDs() throws {
        let record = try WiFiCredentialRecord(ssid: "x").makeRecord()
        #expect(throws: NDEFError(.invalidValue, "")) { try HandoverSelectRecord.message(configurations: [record]) }
        var named = record
        named.identifier = [0x30]
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverSelectRecord.message(configurations: [named, named])
        }
    }

    @Test func messageJSONCarriesTypedValues() throws {
        let message = try NFCNDEFMessage(decoding: try CarrierTest.fixture("handover-select-bluetooth-ch12.hex"))
        let json = try CarrierTest.jsonObject(message)
        let records = try #require(json["records"] as? [[String: Any]])
        let select = try #require(records.first?["value"] as? [String: Any])
        #expect(select["version"] as? String == "1.2")
        #expect((select["carriers"] as? [[String: Any]])?.first?["dataReference"] as? String == "0")
        let bluetooth = try #require(records.last?["value"] as? [String: Any])
        #expect(bluetooth["address"] as? String == "01:bf:88:80:07:03")
        #expect(records.last?["idHex"] as? String == "30")
        let again = try CarrierTest.jsonRoundTrip(message)
        #expect(again == message)
    }

    @Test func registryFindsEveryView() {
        let kinds = ["wifi", "bluetooth", "bluetooth-le", "handover-select", "handover-request", "handover-carrier"]
        for kind in kinds {
            #expect(NDEFRecordRegistry.view(kind: kind)?.kind == kind)
        }
        #expect(
            NDEFRecordRegistry.view(format: .nfcWellKnown, type: Array("Hs".utf8)[...]) == HandoverSelectRecord.self)
        #expect(NDEFRecordRegistry.view(format: .nfcWellKnown, type: Array("hs".utf8)[...]) == nil)
        let le = Array("application/vnd.bluetooth.le.oob".utf8)[...]
        #expect(NDEFRecordRegistry.view(format: .media, type: le) == BluetoothLowEnergyOOBRecord.self)
    }
}
