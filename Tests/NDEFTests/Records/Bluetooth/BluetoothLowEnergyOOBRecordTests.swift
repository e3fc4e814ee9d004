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
        #expect(
            view.description
                == "Bluetooth LE 00:0c:78:51:c4:06 (random), peripheral-preferred, \"NFC LE\", pairing data")
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

    /// Fuzz finding: reserved bits of the address type byte (0x78: public, bits 3-6 set) were
    /// not in the JSON value, which keeps only whether the address is random.
    @Test func keepsReservedAddressTypeBitsInJSON() throws {
        let hex =
            "91020a487313d102046163010130005a201b016170706c69636174696f6e2f766e642e626c7565746f6f74682e6c652e"
            + "6f6f6230081b06c451010c0078021c00032619c1030231010607094e4643204c45"
        let values = try checkFuzzFinding(BluetoothLowEnergyOOBRecord.self, hex)
        let view = try #require(values.first)
        #expect(view.addressType == .public)
        #expect(
            view.dataStructures.first == BluetoothDataStructure(type: 0x1B, data: [6, 0xC4, 0x51, 1, 0x0C, 0, 0x78]))
        #expect(try CarrierTest.jsonObject(view)["dataStructures"] != nil)
    }

    @Test func namesRoles() {
        #expect(BluetoothLERole(name: "central-preferred") == .centralPreferred)
        #expect(BluetoothLERole(rawValue: 4).name == nil)
        #expect(BluetoothLERole(rawValue: 4).description == "reserved 0x04")
    }
}
