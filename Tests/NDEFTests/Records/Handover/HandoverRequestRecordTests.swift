import Foundation
import NDEF
import Testing

@Suite("Handover request and carrier records")
struct HandoverRequestRecordTests {
    /// Payload vectors of ndeflib's handover tests, checked against Connection Handover 1.3.
    static let randomOnly = "12d1020263721234"
    static let oneCarrier = "1291020263721234510204616301016300"
    static let auxiliary = "139102026372123451020a616302016302026131026132"
    static let version11 = "11d10204616301016300"

    static func hr(_ hex: String) -> NFCNDEFPayload { CarrierTest.wellKnown("Hr", hex) }
    static func hc(_ hex: String) -> NFCNDEFPayload { CarrierTest.wellKnown("Hc", hex) }

    @Test func readsRequests() throws {
        let random = try HandoverRequestRecord(parsing: Self.hr(Self.randomOnly))
        #expect(random.version == 0x12)
        #expect(random.collisionResolution == 0x1234)
        #expect(random.carriers.isEmpty)

        let one = try HandoverRequestRecord(parsing: Self.hr(Self.oneCarrier))
        #expect(one.carriers == [AlternativeCarrier(powerState: .active, dataReference: "c")])
        #expect(one.description == "Handover request 1.2 (random 0x1234): carrier \"c\" active")

        let auxiliary = try HandoverRequestRecord(parsing: Self.hr(Self.auxiliary))
        #expect(auxiliary.carriers.first?.auxiliaryDataReferences == [Array("a1".utf8), Array("a2".utf8)])

        let old = try HandoverRequestRecord(parsing: Self.hr(Self.version11))
        #expect(old.collisionResolution == nil)
        #expect(old.carriers.count == 1)
    }

    @Test(arguments: [randomOnly, oneCarrier, auxiliary, version11])
    func roundTripsExactly(hex: String) throws {
        let record = Self.hr(hex)
        #expect(try HandoverRequestRecord(parsing: record).makeRecord() == record)
        CarrierTest.checkTruncations(HandoverRequestRecord.self, record)
    }

    @Test func buildsRequests() throws {
        let view = try HandoverRequestRecord(
            version: 0x13,
            collisionResolution: 0x1234,
            carriers: [
                AlternativeCarrier(powerState: .activating, dataReference: "c", auxiliaryDataReferences: ["a1", "a2"])
            ]
        )
        #expect(try view.makeRecord() == Self.hr(Self.auxiliary))
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverRequestRecord(version: 0x12, collisionResolution: nil)
        }
        #expect(try HandoverRequestRecord(version: 0x11, collisionResolution: nil).makeRecord() == Self.hr("11"))
    }

    @Test(arguments: [
        ("12", "version 1.2 without a collision resolution record"),
        ("12d10203637212 3456".replacingOccurrences(of: " ", with: ""), "random number of 3 bytes"),
        ("13d10201637212", "random number of 1 byte"),
        ("03", "major version 0"),
    ])
    func rejectsMalformedRequests(hex: String, reason: String) {
        #expect(throws: NDEFError(.invalidPayload, ""), "\(reason)") {
            try HandoverRequestRecord(parsing: Self.hr(hex))
        }
    }

    @Test func requestJSON() throws {
        let view = try HandoverRequestRecord(parsing: Self.hr(Self.oneCarrier))
        let json = try CarrierTest.jsonObject(view)
        #expect(json["version"] as? String == "1.2")
        #expect(json["collisionResolution"] as? Int == 0x1234)
        #expect((json["carriers"] as? [[String: Any]])?.first?["dataReference"] as? String == "c")
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
        #expect(throws: DecodingError.self) {
            try CarrierTest.decode(HandoverRequestRecord.self, #"{"version":"1.2"}"#)
        }
    }

    /// Fuzz finding: the reserved CPS bits of an `ac` record (0xd6 = reserved 0xd4, activating)
    /// were dropped from the JSON value, so it decoded to a different record.
    @Test func keepsReservedPowerStateBitsInJSON() throws {
        let hex =
            "910211487212910202637201025102046163d60130005a2001436170706c69636174696f6e2f766e642e626c7565746f"
            + "e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e891020ae8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8"
            + "e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e848"
        let values = try checkFuzzFinding(HandoverRequestRecord.self, hex)
        #expect(values.first?.carriers.first?.reservedBits == 0xD4)
        #expect(values.first?.carriers.first?.powerState == .activating)
    }

    @Test func jsonKeepsTheIDsOfNestedRecords() throws {
        // A cr record with the ID "x": the builder writes nested records without IDs.
        let payload = "12" + "990202016372780102" + "510204616301013000"
        let view = try HandoverRequestRecord(parsing: Self.hr(payload))
        #expect(view.collisionResolution == 0x0102)
        let records = try #require(try CarrierTest.jsonObject(view)["records"] as? [[String: Any]])
        #expect(records.first?["idHex"] as? String == "78")
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
        #expect(try CarrierTest.jsonRoundTrip(view).makeRecord() == Self.hr(payload))
        #expect(try HandoverRequestRecord(version: 0x12, records: view.records) == view)
        #expect(throws: NDEFError(.invalidValue, "")) { try HandoverRequestRecord(version: 0x12, records: []) }
    }

    @Test func readsAndBuildsCarrierRecords() throws {
        let plain = try HandoverCarrierRecord(parsing: Self.hc("020561622f6364"))
        #expect(plain.carrierTypeFormat == .media)
        #expect(plain.carrierTypeString == "ab/cd")
        #expect(plain.carrierData.isEmpty)
        let data = try HandoverCarrierRecord(parsing: Self.hc("020561622f6364000102"))
        #expect(data.carrierData == [0, 1, 2])
        #expect(
            try HandoverCarrierRecord(mediaType: "ab/cd", carrierData: [0, 1, 2]).makeRecord()
                == Self.hc("020561622f6364000102"))
        let wifi = try HandoverCarrierRecord(mediaType: "application/vnd.wfa.wsc")
        #expect(wifi.description == "Handover carrier media application/vnd.wfa.wsc, 0 bytes of data")
        for hex in ["020561622f6364", "020561622f6364000102", "fa0561622f6364"] {
            let record = Self.hc(hex)
            #expect(try HandoverCarrierRecord(parsing: record).makeRecord() == record)
            CarrierTest.checkTruncations(HandoverCarrierRecord.self, record)
        }
    }

    @Test(arguments: ["", "02", "0001", "0200", "000561622f6364", "050561622f6364"])
    func rejectsMalformedCarrierRecords(hex: String) {
        #expect(throws: NDEFError(.invalidPayload, "")) { try HandoverCarrierRecord(parsing: Self.hc(hex)) }
    }

    @Test func carrierJSON() throws {
        let view = try HandoverCarrierRecord(parsing: Self.hc("020561622f6364000102"))
        let json = try CarrierTest.jsonObject(view)
        #expect(json["carrierTNF"] as? Int == 2)
        #expect(json["carrierType"] as? String == "ab/cd")
        #expect(json["carrierDataHex"] as? String == "000102")
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
        #expect(throws: DecodingError.self) {
            try CarrierTest.decode(HandoverCarrierRecord.self, #"{"carrierTNF":5,"carrierType":"x"}"#)
        }
        #expect(throws: DecodingError.self) {
            try CarrierTest.decode(HandoverCarrierRecord.self, #"{"carrierTNF":2,"carrierType":"x","reservedBits":4}"#)
        }
    }

    /// Fuzz finding: the reserved CTF bits (0x7a = reserved 0x78, media) were left out of the JSON
    /// value, so it decoded to a different record.
    @Test func keepsReservedCarrierTypeFormatBitsInJSON() throws {
        let values = try checkFuzzFinding(HandoverCarrierRecord.self, "91021148637a010000f900005327627374720074c06f")
        let view = try #require(values.first)
        #expect(view.reservedBits == 0x78)
        #expect(view.carrierTypeFormat == .media)
        #expect(try CarrierTest.jsonObject(view)["reservedBits"] as? Int == 0x78)
        let built = try HandoverCarrierRecord(carrierTypeFormat: .media, carrierType: [0], reservedBits: 0x78)
        #expect(try built.makeRecord() == Self.hc("7a0100"))
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverCarrierRecord(carrierTypeFormat: .media, carrierType: [0], reservedBits: 0x01)
        }
    }
}
