import Foundation
import NDEF
import Testing

@Suite("Handover select record")
struct HandoverSelectRecordTests {
    /// Payload vectors of ndeflib's handover tests, checked against Connection Handover 1.3.
    static let empty = "13"
    static let oneCarrier = "13d10204616301013100"
    static let withError = "129102046163010163005103026572720110"
    static let auxiliaryAndError = "1391020a6163020163020261310261325103056572720200000100"
    static let version11 = "11d10204616301016300"

    static func hs(_ hex: String) -> NFCNDEFPayload { CarrierTest.wellKnown("Hs", hex) }

    @Test func readsAnEmptySelect() throws {
        let view = try HandoverSelectRecord(parsing: Self.hs(Self.empty))
        #expect(view.version == 0x13)
        #expect(view.versionString == "1.3")
        #expect(view.carriers.isEmpty)
        #expect(view.error == nil)
        #expect(view.records.isEmpty)
        #expect(view.description == "Handover select 1.3: no carrier")
    }

    @Test func readsCarriersAndErrors() throws {
        let one = try HandoverSelectRecord(parsing: Self.hs(Self.oneCarrier))
        #expect(one.carriers == [AlternativeCarrier(powerState: .active, dataReference: "1")])
        #expect(one.description == "Handover select 1.3: carrier \"1\" active")

        let error = try HandoverSelectRecord(parsing: Self.hs(Self.withError))
        #expect(error.version == 0x12)
        #expect(error.carriers == [AlternativeCarrier(powerState: .active, dataReference: "c")])
        #expect(error.error == HandoverSelectError(reason: 1, data: [0x10]))

        let full = try HandoverSelectRecord(parsing: Self.hs(Self.auxiliaryAndError))
        let carrier = try #require(full.carriers.first)
        #expect(carrier.powerState == .activating)
        #expect(carrier.dataReference == Array("c".utf8))
        #expect(carrier.auxiliaryDataReferences == [Array("a1".utf8), Array("a2".utf8)])
        #expect(full.error == HandoverSelectError(reason: 2, data: [0, 0, 1, 0]))
        #expect(full.extraRecords.isEmpty)
    }

    @Test func keepsUnknownNestedRecordsAndReservedPowerStateBits() throws {
        // An ac with reserved CPS bits set (0xfd = 0b111111_01) and a nested text/plain record.
        let payload = "13" + "9102046163fd016300" + "520a05746578742f706c61696e48656c6c6f"
        let view = try HandoverSelectRecord(parsing: Self.hs(payload))
        #expect(view.carriers.first?.powerState == .active)
        #expect(view.carriers.first?.reservedBits == 0xFC)
        #expect(view.extraRecords == [NFCNDEFPayload(format: .media, type: "text/plain", payload: Array("Hello".utf8))])
        #expect(try view.makeRecord() == Self.hs(payload))
    }

    @Test(arguments: [empty, oneCarrier, withError, auxiliaryAndError, version11])
    func roundTripsExactly(hex: String) throws {
        let record = Self.hs(hex)
        #expect(try HandoverSelectRecord(parsing: record).makeRecord() == record)
        CarrierTest.checkTruncations(HandoverSelectRecord.self, record)
    }

    @Test func buildsTheSpecificationLayout() throws {
        let one = try HandoverSelectRecord(carriers: [AlternativeCarrier(powerState: .active, dataReference: "1")])
        #expect(try one.makeRecord() == Self.hs(Self.oneCarrier))
        let full = try HandoverSelectRecord(
            version: 0x13,
            carriers: [
                AlternativeCarrier(powerState: .activating, dataReference: "c", auxiliaryDataReferences: ["a1", "a2"])
            ],
            error: HandoverSelectError(reason: 2, data: [0, 0, 1, 0])
        )
        #expect(try full.makeRecord() == Self.hs(Self.auxiliaryAndError))
        #expect(try HandoverSelectRecord().makeRecord() == Self.hs(Self.empty))
    }

    @Test(arguments: [
        ("", "no version"),
        ("23", "major version 2"),
        ("13ff", "nested bytes that are no message"),
        ("13d102046163", "nested message cut short"),
        ("13d10201616301", "ac without a carrier data reference length"),
        ("13d1020561630101630001", "ac with bytes after the references"),
        ("13d1030165727200", "err with reason 0"),
        ("13d103026572720200", "err reason 2 with 1 byte of data"),
        ("13d1030165727201", "err reason 1 without data"),
    ])
    func rejectsMalformedPayloads(hex: String, reason: String) {
        #expect(throws: NDEFError(.invalidPayload, ""), "\(reason)") {
            try HandoverSelectRecord(parsing: Self.hs(hex))
        }
    }

    @Test func reportsOffsetsInsideNestedRecords() {
        do {
            _ = try HandoverSelectRecord(parsing: Self.hs("13d10201616301"))
            Issue.record("a truncated ac was accepted")
        } catch {
            #expect(error.code == .invalidPayload)
            #expect(error.offset == 7)  // the missing reference length, after the ac's CPS at 6
        }
    }

    @Test func limitsNesting() {
        let options = NDEFDecodingOptions(maximumNestingDepth: 0)
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try HandoverSelectRecord(parsing: Self.hs(Self.oneCarrier), options: options)
        }
        #expect(throws: Never.self) { try HandoverSelectRecord(parsing: Self.hs(Self.empty), options: options) }
    }

    @Test func refusesInvalidValues() {
        #expect(throws: NDEFError(.invalidValue, "")) { try HandoverSelectRecord(version: 0x20) }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverSelectRecord(error: HandoverSelectError(reason: 0, data: []))
        }
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverSelectRecord(
                carriers: [AlternativeCarrier(powerState: .active, dataReference: Array(repeating: 0x41, count: 256))]
            )
        }
    }

    @Test func encodesJSONKeys() throws {
        let view = try HandoverSelectRecord(parsing: Self.hs(Self.auxiliaryAndError))
        let json = try CarrierTest.jsonObject(view)
        #expect(json["version"] as? String == "1.3")
        let carriers = try #require(json["carriers"] as? [[String: Any]])
        #expect(carriers.first?["powerState"] as? String == "activating")
        #expect(carriers.first?["dataReference"] as? String == "c")
        #expect(carriers.first?["auxiliaryDataReferences"] as? [String] == ["a1", "a2"])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["reason"] as? Int == 2)
        #expect(error["dataHex"] as? String == "00000100")
        #expect((json["extraRecords"] as? [Any])?.isEmpty == true)
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
    }

    /// Fuzz finding: the reserved CPS bits of an `ac` record (0xce = reserved 0xcc, activating)
    /// were dropped from the JSON value, so it decoded to a different record.
    @Test func keepsReservedPowerStateBitsInJSON() throws {
        let values = try checkFuzzFinding(HandoverSelectRecord.self, "91020a487313d102046163ce0130005a20191943204c")
        let carrier = try #require(values.first?.carriers.first)
        #expect(carrier.powerState == .activating)
        #expect(carrier.reservedBits == 0xCC)
        let view = try #require(values.first)
        let carriers = try CarrierTest.jsonObject(view)["carriers"] as? [[String: Any]]
        let entry = try #require(carriers?.first)
        #expect(entry["reservedBits"] as? Int == 0xCC)
    }

    @Test func jsonKeepsTheOrderOfNestedRecords() throws {
        // A text/plain record before the ac record: the builder would write the ac record first.
        let payload = "13" + "920a05746578742f706c61696e48656c6c6f" + "510204616301013000"
        let view = try HandoverSelectRecord(parsing: Self.hs(payload))
        let json = try CarrierTest.jsonObject(view)
        let records = try #require(json["records"] as? [[String: Any]])
        #expect(records.map { $0["type"] as? String } == ["text/plain", "ac"])
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
        #expect(try CarrierTest.jsonRoundTrip(view).makeRecord() == Self.hs(payload))
        // The builder's own layout needs no list.
        #expect(
            try CarrierTest.jsonObject(try HandoverSelectRecord(parsing: Self.hs(Self.withError)))["records"] == nil)
        #expect(try HandoverSelectRecord(version: 0x13, records: view.records) == view)
        #expect(throws: NDEFError(.invalidValue, "")) {
            try HandoverSelectRecord(version: 0x13, records: [CarrierTest.wellKnown("ac", "01")])
        }
    }

    @Test func refusesReservedBitsThatOverlapThePowerState() throws {
        var carrier = AlternativeCarrier(powerState: .active, dataReference: "0")
        carrier.reservedBits = 0x01
        #expect(throws: NDEFError(.invalidValue, "")) { try HandoverSelectRecord(carriers: [carrier]) }
        #expect(throws: DecodingError.self) {
            try CarrierTest.decode(
                HandoverSelectRecord.self,
                #"{"carriers":[{"powerState":"active","dataReference":"0","reservedBits":2}]}"#
            )
        }
    }

    @Test func encodesBinaryReferencesAsHex() throws {
        let carrier = AlternativeCarrier(
            powerState: .unknown, dataReference: [0x00, 0xFF], auxiliaryDataReferences: [[0x01]])
        let view = try HandoverSelectRecord(carriers: [carrier])
        let json = try CarrierTest.jsonObject(view)
        let entry = try #require((json["carriers"] as? [[String: Any]])?.first)
        #expect(entry["dataReferenceHex"] as? String == "00ff")
        #expect(entry["auxiliaryDataReferencesHex"] as? [String] == ["01"])
        #expect(entry["dataReference"] == nil)
        #expect(try CarrierTest.jsonRoundTrip(view) == view)
    }

    @Test func decodesJSON() throws {
        let view = try CarrierTest.decode(
            HandoverSelectRecord.self,
            #"{"version":"1.3","carriers":[{"powerState":"active","dataReference":"1"}]}"#
        )
        #expect(try view.makeRecord() == Self.hs(Self.oneCarrier))
        let bare = try CarrierTest.decode(HandoverSelectRecord.self, "{}")
        #expect(try bare.makeRecord() == Self.hs(Self.empty))
        for bad in [
            #"{"version":"x"}"#, #"{"carriers":[{"powerState":"on","dataReference":"1"}]}"#,
            #"{"carriers":[{"powerState":"active"}]}"#, #"{"error":{"reason":0,"dataHex":""}}"#,
        ] {
            #expect(throws: DecodingError.self) { try CarrierTest.decode(HandoverSelectRecord.self, bad) }
        }
    }
}
