import Foundation
import NDEF
import Testing

/// Padding counts come from callers and from JSON: the builders refuse one that cannot be
/// written instead of trying to allocate it.
@Suite("Bluetooth OOB padding limits")
struct BluetoothPaddingLimitTests {
    static let address = HardwareAddress(bytes: [0x00, 0x0C, 0x78, 0x51, 0xC4, 0x06])

    @Test func basicRatePaddingStopsAtTheLengthField() throws {
        let address = try #require(Self.address)
        // 2 length bytes + 6 address bytes + padding: at most 65535, the 16-bit OOB data length.
        let largest = try BluetoothOOBRecord(address: address, dataStructures: [], paddingCount: 65527)
        let record = try largest.makeRecord()
        #expect(record.payload.count == 65535)
        #expect(Array(record.payload.prefix(2)) == [0xFF, 0xFF])
        for count in [65528, 1 << 40, Int.max] {
            #expect(throws: NDEFError(.invalidValue, "")) {
                try BluetoothOOBRecord(address: address, dataStructures: [], paddingCount: count)
            }
        }
        let name = BluetoothDataStructure(type: 0x09, data: Array("Headset".utf8))  // 9 bytes encoded
        #expect(throws: NDEFError(.invalidValue, "")) {
            try BluetoothOOBRecord(address: address, dataStructures: [name], paddingCount: 65519)
        }
        let full = try BluetoothOOBRecord(address: address, dataStructures: [name], paddingCount: 65518)
        #expect(try full.makeRecord().payload.count == 65535)
    }

    @Test func lowEnergyPaddingIsBounded() throws {
        let address = try #require(Self.address)
        let structures = try BluetoothLowEnergyOOBRecord(address: address, role: .peripheralOnly).dataStructures
        let padded = try BluetoothLowEnergyOOBRecord(dataStructures: structures, paddingCount: 65535)
        #expect(try padded.makeRecord().payload.count == 12 + 65535)
        for count in [65536, 1 << 40, Int.max] {
            #expect(throws: NDEFError(.invalidValue, "")) {
                try BluetoothLowEnergyOOBRecord(dataStructures: structures, paddingCount: count)
            }
        }
    }

    @Test(arguments: ["application/vnd.bluetooth.ep.oob", "application/vnd.bluetooth.le.oob"])
    func hugePaddingInJSONIsADecodingError(type: String) {
        let json =
            #"{"tnf":2,"type":""# + type
            + #"","value":{"address":"00:11:22:33:44:55","role":"central-only","padding":4611686018427387903}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NFCNDEFPayload.self, from: Data(json.utf8)) }
    }
}
