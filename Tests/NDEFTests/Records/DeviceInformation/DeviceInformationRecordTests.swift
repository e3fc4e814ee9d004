import Foundation
import HexText
import NDEF
import Testing

@Suite("Device information record (NFC Forum Device Information RTD 1.0)")
struct DeviceInformationRecordTests {
    static let uuid: [UInt8] = [
        0x12, 0x3E, 0x45, 0x67, 0xE8, 0x9B, 0x12, 0xD3, 0xA4, 0x56, 0x42, 0x66, 0x55, 0x44, 0x00, 0x00,
    ]

    @Test("builds the data elements in type order")
    func builds() throws {
        let minimal = try DeviceInformationRecord(manufacturer: "Company", model: "Device").makeRecord()
        #expect(Array(minimal.type) == [0x44, 0x69])
        #expect(Hex.encode(minimal.payload) == "0007436f6d70616e79" + "0106446576696365")
        let full = DeviceInformationRecord(
            manufacturer: "Company",
            model: "Device",
            deviceName: "Name",
            uuid: Self.uuid,
            firmwareVersion: "10.1.5",
            extraFields: [.init(type: 0xFF, data: Array("123".utf8)), .init(type: 10, data: [])]
        )
        let expected = [
            "0007436f6d70616e79", "0106446576696365", "02044e616d65", "0310123e4567e89b12d3a456426655440000",
            "040631302e312e35", "ff03313233", "0a00",
        ]
        #expect(Hex.encode(try full.makeRecord().payload) == expected.joined())
    }

    /// ndeflib tests/test_deviceinfo.py payloads and what they hold.
    static let parseCases: [(String, DeviceInformationRecord)] = [
        (
            "0007436f6d70616e79 0106446576696365",
            DeviceInformationRecord(manufacturer: "Company", model: "Device")
        ),
        (
            "0007436f6d70616e79 0106446576696365 02044e616d65",
            DeviceInformationRecord(manufacturer: "Company", model: "Device", deviceName: "Name")
        ),
        (
            "0007436f6d70616e79 0106446576696365 02044e616d65 0310123e4567e89b12d3a456426655440000",
            DeviceInformationRecord(manufacturer: "Company", model: "Device", deviceName: "Name", uuid: uuid)
        ),
        (
            "0007436f6d70616e79 0106446576696365 02044e616d65 040631302e312e35",
            DeviceInformationRecord(
                manufacturer: "Company", model: "Device", deviceName: "Name", firmwareVersion: "10.1.5")
        ),
        (
            "0007436f6d70616e79 0106446576696365 02044e616d65 ff03313233",
            DeviceInformationRecord(
                manufacturer: "Company",
                model: "Device",
                deviceName: "Name",
                extraFields: [.init(type: 255, data: [0x31, 0x32, 0x33])]
            )
        ),
        (
            "0106446576696365 0500 0007436f6d70616e79",  // any order, reserved type 5 kept
            DeviceInformationRecord(manufacturer: "Company", model: "Device", extraFields: [.init(type: 5, data: [])])
        ),
    ]

    @Test("parses ndeflib payloads", arguments: parseCases)
    func parses(payload: String, expected: DeviceInformationRecord) throws {
        #expect(try DeviceInformationRecord(parsing: try wellKnown("Di", payload)) == expected)
    }

    /// Malformed payloads and the offset of the reported problem.
    static let malformed: [(String, Int?)] = [
        ("", nil),  // no manufacturer or model
        ("0100", nil),  // ndeflib: the model is empty and there is no manufacturer
        ("0007436f6d70616e79", nil),  // no model
        ("0000 0106446576696365", nil),  // an empty manufacturer name
        ("00", 0),  // a type without a length
        ("0005436f", 0),  // a value past the end
        ("0007436f6d70616e79 01", 9),
        ("0007436f6d70616e79 0106446576696365 0305 4142434445", 17),  // a 5-byte UUID
        ("000141 000142 0106446576696365", 3),  // the manufacturer twice
        ("000141 0102 44ff", 6),  // the model name is not UTF-8
        ("000141 010144 0310123e4567e89b12d3a456426655440000 0310123e4567e89b12d3a456426655440000", 24),
        ("000141 010144 0401c0", 8),  // firmware version not UTF-8 (overlong lead byte)
    ]

    @Test("rejects malformed payloads", arguments: malformed)
    func rejects(payload: String, offset: Int?) throws {
        let record = try wellKnown("Di", payload)
        let error = ndefError { _ = try DeviceInformationRecord(parsing: record) }
        #expect(error?.code == .invalidPayload)
        #expect(error?.offset == offset)
    }

    @Test("the builder checks required names, lengths, the UUID and extra field types")
    func builderValidates() {
        let invalid: [DeviceInformationRecord] = [
            DeviceInformationRecord(manufacturer: "", model: "M"),
            DeviceInformationRecord(manufacturer: "A", model: ""),
            DeviceInformationRecord(manufacturer: String(repeating: "a", count: 256), model: "M"),
            DeviceInformationRecord(manufacturer: "A", model: "M", deviceName: String(repeating: "n", count: 256)),
            DeviceInformationRecord(manufacturer: "A", model: "M", uuid: Array(repeating: 0, count: 15)),
            DeviceInformationRecord(manufacturer: "A", model: "M", uuid: Array(repeating: 0, count: 17)),
            DeviceInformationRecord(manufacturer: "A", model: "M", extraFields: [.init(type: 3, data: [])]),
            DeviceInformationRecord(
                manufacturer: "A", model: "M", extraFields: [.init(type: 9, data: Array(repeating: 0, count: 256))]),
        ]
        for value in invalid {
            #expect(throws: NDEFError(.invalidValue, "")) { try value.makeRecord() }
        }
    }

    static let values: [DeviceInformationRecord] = [
        DeviceInformationRecord(manufacturer: "Sony", model: "RC-S380"),
        DeviceInformationRecord(
            manufacturer: "Sony",
            model: "RC-S380",
            deviceName: "Black NFC Reader connected to PC",
            uuid: uuid,
            firmwareVersion: "NFC Port-100 v1.02"
        ),
        DeviceInformationRecord(
            manufacturer: "Acme",
            model: "ExampleJet 8888",
            deviceName: "mo gl\u{E9}as nifty",
            firmwareVersion: "",
            extraFields: [.init(type: 5, data: [1]), .init(type: 200, data: Array(repeating: 9, count: 255))]
        ),
        DeviceInformationRecord(manufacturer: String(repeating: "m", count: 255), model: "\u{1F600}", deviceName: ""),
    ]

    @Test("parse(makeRecord(x)) == x", arguments: values)
    func roundTrips(value: DeviceInformationRecord) throws {
        let record = try value.makeRecord()
        #expect(try DeviceInformationRecord(parsing: record) == value)
        #expect(try DeviceInformationRecord(parsing: try decodedRecord(try messageHex(record))) == value)
    }

    @Test("every truncated payload parses or throws invalidPayload", arguments: values)
    func truncations(value: DeviceInformationRecord) throws {
        #expect(try checkTruncations(DeviceInformationRecord.self, try value.makeRecord()) >= 1)
    }

    @Test("JSON value keys and UUID form", arguments: values)
    func json(value: DeviceInformationRecord) throws {
        var expected: Set<String> = ["manufacturer", "model", "extraFields"]
        if value.deviceName != nil { expected.insert("deviceName") }
        if value.uuid != nil { expected.insert("uuid") }
        if value.firmwareVersion != nil { expected.insert("firmwareVersion") }
        #expect(try jsonKeys(value) == expected)
        #expect(try jsonRoundTrip(value) == value)
    }

    @Test("JSON: canonical lower-case UUID, extra fields as type and dataHex")
    func jsonForm() throws {
        let value = Self.values[1]
        let object = try jsonObject(value)
        #expect(object["uuid"] as? String == "123e4567-e89b-12d3-a456-426655440000")
        #expect(value.uuidString == "123e4567-e89b-12d3-a456-426655440000")
        let extra = DeviceInformationRecord(
            manufacturer: "A", model: "M", extraFields: [.init(type: 255, data: [1, 2])])
        let fields = try #require(try jsonObject(extra)["extraFields"] as? [[String: Any]])
        #expect(fields.count == 1)
        #expect(Set(fields[0].keys) == ["type", "dataHex"])
        #expect(fields[0]["type"] as? Int == 255)
        #expect(fields[0]["dataHex"] as? String == "0102")
    }

    @Test("JSON input: UUIDs in any case, with or without hyphens; bad ones fail")
    func jsonInput() throws {
        for text in ["123E4567-E89B-12D3-A456-426655440000", "123e4567e89b12d3a456426655440000"] {
            let json = #"{"manufacturer":"A","model":"M","uuid":"\#(text)"}"#
            #expect(try decodeJSON(DeviceInformationRecord.self, json).uuid == Self.uuid)
        }
        #expect(try decodeJSON(DeviceInformationRecord.self, #"{"manufacturer":"A","model":"M"}"#).extraFields == [])
        for bad in [
            #"{"manufacturer":"A","model":"M","uuid":"123e4567"}"#,
            #"{"manufacturer":"A","model":"M","uuid":"not-a-uuid"}"#,
            #"{"manufacturer":"A","model":"M","extraFields":[{"type":256,"dataHex":""}]}"#,
            #"{"manufacturer":"A"}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decodeJSON(DeviceInformationRecord.self, bad) }
        }
    }

    @Test("description")
    func description() {
        #expect(
            Self.values[1].description
                == #"Device "Sony" "RC-S380" name "Black NFC Reader connected to PC" firmware "NFC Port-100 v1.02""#
                + " UUID 123e4567-e89b-12d3-a456-426655440000"
        )
    }
}
