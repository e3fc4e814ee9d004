import Foundation
import HexText
import NDEF
import Testing

@Suite("Record registry and the JSON value")
struct RecordRegistryTests {
    static let kinds = ["text", "uri", "smartposter", "device-info", "aar", "external", "absolute-uri", "media"]

    @Test("every RTD view is registered once under its kind", arguments: kinds)
    func registered(kind: String) throws {
        let view = try #require(NDEFRecordRegistry.view(kind: kind))
        #expect(view.kind == kind)
        #expect(NDEFRecordRegistry.standard.filter { $0.kind == kind }.count == 1)
    }

    @Test("specific views come before generic ones; media is the last media view")
    func order() throws {
        let kinds = NDEFRecordRegistry.standard.map { $0.kind }
        let aar = try #require(kinds.firstIndex(of: "aar"))
        let external = try #require(kinds.firstIndex(of: "external"))
        #expect(aar < external)
        let media = try #require(kinds.firstIndex(of: "media"))
        let laterMediaViews = NDEFRecordRegistry.standard[(media + 1)...].filter {
            $0.matches(format: .media, type: Array("image/png".utf8)[...])
        }
        #expect(laterMediaViews.isEmpty)
    }

    /// A record and the kind of view that must read it.
    static let dispatch: [(NFCNDEFPayload, String)] = [
        (NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02, 0x65, 0x6E]), "text"),
        (NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x00]), "uri"),
        (NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: [0xD1, 0x01, 0x01, 0x55, 0x00]), "smartposter"),
        (
            NFCNDEFPayload(format: .nfcWellKnown, type: "Di", payload: [0x00, 0x01, 0x41, 0x01, 0x01, 0x42]),
            "device-info"
        ),
        (NFCNDEFPayload(format: .nfcExternal, type: "android.com:pkg", payload: [0x61]), "aar"),
        (NFCNDEFPayload(format: .nfcExternal, type: "ANDROID.com:pkg", payload: [0x61]), "aar"),
        (NFCNDEFPayload(format: .nfcExternal, type: "example.com:pkg", payload: [0x61]), "external"),
        (NFCNDEFPayload(format: .absoluteURI, type: "urn:x", payload: []), "absolute-uri"),
        (NFCNDEFPayload(format: .media, type: "text/plain", payload: [0x61]), "media"),
    ]

    @Test("interpreted() picks the most specific view", arguments: dispatch)
    func interprets(record: NFCNDEFPayload, kind: String) throws {
        let value = try #require(try record.interpreted())
        #expect(type(of: value).kind == kind)
        // Rebuilt with the same payload (an AAR's type name is written in its canonical case).
        let rebuilt = try value.makeRecord()
        #expect(rebuilt.typeNameFormat == record.typeNameFormat)
        #expect(rebuilt.payload == record.payload)
    }

    @Test("records no view reads stay raw")
    func unmatched() throws {
        #expect(try NFCNDEFPayload(format: .nfcWellKnown, type: "Zz", payload: [0x12]).interpreted() == nil)
        #expect(try NFCNDEFPayload(format: .unknown, payload: [1]).interpreted() == nil)
        #expect(try NFCNDEFPayload.empty.interpreted() == nil)
    }

    @Test("a record's JSON carries the typed value, and a value alone builds the payload")
    func jsonContract() throws {
        let record = try URIRecord(uri: "https://www.example.com").makeRecord()
        let object = try jsonObject(record)
        let value = try #require(object["value"] as? [String: Any])
        #expect(value["uri"] as? String == "https://www.example.com")
        #expect(object["payloadHex"] as? String == "02" + Hex.encode(Array("example.com".utf8)))

        let json = #"{"tnf":1,"type":"T","value":{"text":"Hello, world!"}}"#
        let built = try decodeJSON(NFCNDEFPayload.self, json)
        #expect(Hex.encode(built.payload) == "02656e48656c6c6f2c20776f726c6421")

        let aar = try decodeJSON(NFCNDEFPayload.self, #"{"tnf":4,"type":"android.com:pkg","value":{"package":"a.b"}}"#)
        #expect(aar == NFCNDEFPayload(format: .nfcExternal, type: "android.com:pkg", payload: Array("a.b".utf8)))
    }

    @Test("a malformed payload shows as valueError in JSON")
    func valueError() throws {
        let object = try jsonObject(NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x42]))
        #expect(object["value"] == nil)
        let reason = try #require(object["valueError"] as? String)
        #expect(reason.contains("invalid-payload"))
    }
}
