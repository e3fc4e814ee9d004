import Foundation
import NDEF
import TestSupport
import Testing

@Suite("Bluetooth BR/EDR OOB record")
struct BluetoothOOBRecordTests {
    static let type = "application/vnd.bluetooth.ep.oob"

    /// The Bluetooth carrier of the Connection Handover 1.2 handover select example: OOB length
    /// 0x43, BD_ADDR 01:bf:88:80:07:03, class of device, hash C, randomizer R, 16-bit UUIDs and
    /// the local name.
    static let handoverExample =
        "4300030780 88bf01040d800604110e0f0e0d0c0b0a09080706050403020100110f0f0e0d0c0b0a0908070605040302"
        + "0100050318112311 0b094465796963654e616d65"
    /// A Samsung Galaxy Note 3 (NXP libnfc-nci demo): name, class of device, 16-bit UUIDs.
    static let galaxyNote3 = "2200ac597405af1c0e0947616c617879204e6f74652033040d0c024005031e110b11"
    /// ndeflib's vector: a lone manufacturer-specific structure.
    static let manufacturerOnly = "0c0006050403020103ff6162"
    /// The same with a zero length byte ending the data structures (one byte of padding).
    static let padded = "0d0006050403020103ff616200"
    /// Built from the BTSSP layout by hand: 00:0c:78:51:c4:06, class 0x240404, hash, randomizer,
    /// UUIDs 110b and 111e, name "Headset".
    static let built =
        "400006c451780c00040d040424110e000102030405060708090a0b0c0d0e0f110f101112131415161718191a1b1c1d1e1f"
        + "05030b111e11080948656164736574"

    @Test func readsTheHandoverSpecificationExample() throws {
        let view = try BluetoothOOBRecord(parsing: CarrierTest.media(Self.type, Self.handoverExample))
        #expect(view.address.description == "01:bf:88:80:07:03")
        #expect(view.classOfDevice == 0x04_0680)
        #expect(view.hashC == hex("0f0e0d0c0b0a09080706050403020100"))
        #expect(view.randomizerR == hex("0f0e0d0c0b0a09080706050403020100"))
        #expect(view.serviceUUIDs.map(\.description) == ["1118", "1123"])
        #expect(view.serviceUUIDsComplete)
        #expect(view.name == "DeyiceName")
        #expect(!view.nameIsShortened)
        #expect(view.otherData.isEmpty)
        #expect(view.paddingCount == 0)
    }

    @Test func readsAPhone() throws {
        let view = try BluetoothOOBRecord(parsing: CarrierTest.media(Self.type, Self.galaxyNote3))
        #expect(view.address.description == "1c:af:05:74:59:ac")
        #expect(view.name == "Galaxy Note 3")
        #expect(view.classOfDevice == 0x40_020C)
        #expect(view.serviceUUIDs == [BluetoothServiceUUID(uuid16: 0x111E), BluetoothServiceUUID(uuid16: 0x110B)])
        #expect(view.hashC == nil)
        #expect(view.description == "Bluetooth 1c:af:05:74:59:ac \"Galaxy Note 3\", class 0x40020c, 2 services")
    }

    @Test func keepsUnknownStructuresAndPadding() throws {
        let plain = try BluetoothOOBRecord(parsing: CarrierTest.media(Self.type, Self.manufacturerOnly))
        #expect(plain.address.description == "01:02:03:04:05:06")
        #expect(plain.otherData == [BluetoothDataStructure(type: 0xFF, data: Array("ab".utf8))])
        let padded = try BluetoothOOBRecord(parsing: CarrierTest.media(Self.type, Self.padded))
        #expect(padded.otherData == plain.otherData)
        #expect(padded.paddingCount == 1)
    }

    @Test(arguments: [handoverExample, galaxyNote3, manufacturerOnly, padded, built, "0a000605040302010000"])
    func roundTripsExactly(hex: String) throws {
        let record = CarrierTest.media(Self.type, hex)
        #expect(try BluetoothOOBRecord(parsing: record).makeRecord() == record)
        CarrierTest.checkTruncations(BluetoothOOBRecord.self, record)
    }

    @Test func buildsTheLayoutOfTheSpecificationExamples() throws {
        let example = try BluetoothOOBRecord(
            address: try #require(HardwareAddress("01:bf:88:80:07:03")),
            name: "DeyiceName",
            classOfDevice: 0x04_0680,
            serviceUUIDs: [BluetoothServiceUUID(uuid16: 0x1118), BluetoothServiceUUID(uuid16: 0x1123)],
            hashC: hex("0f0e0d0c0b0a09080706050403020100"),
            randomizerR: hex("0f0e0d0c0b0a09080706050403020100")
        )
        #expect(try example.makeRecord() == CarrierTest.media(Self.type, Self.handoverExample))

        let headset = try BluetoothOOBRecord(
            address: try #require(HardwareAddress("00:0c:78:51:c4:06")),
            name: "Headset",
            classOfDevice: 0x24_0404,
            serviceUUIDs: [BluetoothServiceUUID(uuid16: 0x110B), BluetoothServiceUUID(uuid16: 0x111E)],
            hashC: Array(0..<16),
            randomizerR: Array(16..<32)
        )
        #expect(try headset.makeRecord() == CarrierTest.media(Self.type, Self.built))
        #expect(
            headset.description == "Bluetooth 00:0c:78:51:c4:06 \"Headset\", class 0x240404, 2 services, pairing hash")
    }

    @Test func writes128BitUUIDsLeastSignificantByteFirst() throws {
        let uuid = try #require(BluetoothServiceUUID("0000110b-0000-1000-8000-00805f9b34fb"))
        #expect(uuid.bitWidth == 128)
        let view = try BluetoothOOBRecord(
            address: try #require(HardwareAddress("000000000001")),
            serviceUUIDs: [uuid],
            serviceUUIDsComplete: false
        )
        let expected = "1a00010000000000" + "1106fb349b5f80000080001000000b110000"
        #expect(try view.makeRecord().payload == hex(expected)[...])
        let parsed = try BluetoothOOBRecord(parsing: view.makeRecord())
        #expect(parsed.serviceUUIDs == [uuid])
        #expect(!parsed.serviceUUIDsComplete)
        #expect(parsed.serviceUUIDs.first?.description == "0000110b-0000-1000-8000-00805f9b34fb")
    }

    @Test(arguments: [
        ("", "empty"),
        ("08", "one byte"),
        ("0800060504", "address cut short"),
        ("0d0006050403020103ff6162", "length 13, payload 12"),
        ("0c0006050403020103ff616200", "length 12, payload 13"),
        ("0d000605040302010003ff6162", "data after the zero length that ends the structures"),
        ("0c00060504030201 04ff6162", "structure longer than the data"),
        ("0c00060504030201 030d0102", "class of device of 2 bytes"),
        ("0b00060504030201 020301", "16-bit UUID list of 1 byte"),
        ("1900060504030201 100e000102030405060708090a0b0c0d0e", "hash C of 15 bytes"),
    ])
    func rejectsMalformedPayloads(hex: String, reason: String) {
        #expect(throws: NDEFError(.invalidPayload, ""), "\(reason)") {
            try BluetoothOOBRecord(parsing: CarrierTest.media(Self.type, hex))
        }
    }

    @Test func refusesInvalidValues() throws {
        let address = try #require(HardwareAddress("00:0c:78:51:c4:06"))
        #expect(throws: NDEFError(.invalidValue, "")) {
            try BluetoothOOBRecord(address: address, classOfDevice: 0x100_0000)
        }
        #expect(throws: NDEFError(.invalidValue, "")) { try BluetoothOOBRecord(address: address, hashC: [1, 2, 3]) }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try BluetoothOOBRecord(
                address: address, otherData: [BluetoothDataStructure(type: 0xFF, data: Array(repeating: 0, count: 255))]
            )
        }
        #expect(HardwareAddress("00:0c:78:51:c4") == nil)
        #expect(BluetoothServiceUUID("11b") == nil)
        #expect(BluetoothServiceUUID("0000110b-0000-1000-8000-00805f9b34f") == nil)
    }
}
