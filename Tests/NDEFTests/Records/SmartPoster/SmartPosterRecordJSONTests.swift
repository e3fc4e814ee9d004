import Foundation
import HexText
import NDEF
import Testing

@Suite("Smart poster record JSON value")
struct SmartPosterRecordJSONTests {
    @Test("JSON value round trips", arguments: SmartPosterRecordTests.values)
    func json(value: SmartPosterRecord) throws {
        #expect(try jsonRoundTrip(value) == value)
        let keys = try jsonKeys(value)
        #expect(keys.isSuperset(of: ["uri", "titles", "icons", "extraRecords"]))
        #expect(keys.contains("size") == (value.size != nil))
        #expect(keys.contains("mediaType") == (value.mediaType != nil))
    }

    @Test("JSON keys and the action names")
    func jsonKeysAndActions() throws {
        let full = SmartPosterRecordTests.values[2]
        #expect(try jsonKeys(full) == ["uri", "titles", "actionCode", "size", "mediaType", "icons", "extraRecords"])
        #expect(try jsonObject(full)["actionCode"] as? Int == 7)
        #expect(try jsonObject(full)["size"] as? Int == 4_294_967_295)
        let titles = try #require(try jsonObject(full)["titles"] as? [[String: Any]])
        #expect(Set(titles[1].keys) == ["text", "language", "encoding"])
        #expect(titles[1]["encoding"] as? String == "utf-16")
        let icons = try #require(try jsonObject(full)["icons"] as? [[String: Any]])
        #expect(Set(icons[0].keys) == ["mediaType", "dataHex"])
        let extras = try #require(try jsonObject(full)["extraRecords"] as? [[String: Any]])
        #expect(extras[0]["typeHex"] as? String == Hex.encode(Array("example.com:x".utf8)))
        #expect(extras[0]["idHex"] as? String == "01")

        #expect(try jsonKeys(SmartPosterRecord(uri: "x")) == ["uri", "titles", "icons", "extraRecords"])
        for (action, name) in [(SmartPosterRecord.Action.execute, "execute"), (.save, "save"), (.open, "open")] {
            let object = try jsonObject(SmartPosterRecord(uri: "x", action: action))
            #expect(object["action"] as? String == name)
            #expect(object["actionCode"] == nil)
        }
    }

    @Test("JSON input: only uri is required")
    func jsonInput() throws {
        #expect(try decodeJSON(SmartPosterRecord.self, #"{"uri":"x"}"#) == SmartPosterRecord(uri: "x"))
        #expect(try decodeJSON(SmartPosterRecord.self, #"{"uri":"x","action":"save"}"#).action == .save)
        #expect(try decodeJSON(SmartPosterRecord.self, #"{"uri":"x","actionCode":2}"#).action == .open)
        #expect(
            try decodeJSON(SmartPosterRecord.self, #"{"uri":"x","titles":[{"text":"t"}]}"#).titles == [
                TextRecord(text: "t")
            ]
        )
        for bad in [
            #"{"uri":"x","action":"print"}"#, #"{"uri":"x","actionCode":256}"#, #"{"uri":"x","size":-1}"#,
            #"{"uri":"x","size":4294967296}"#, #"{"uri":"x","icons":[{"mediaType":"image/png","dataHex":"0"}]}"#,
            #"{"titles":[]}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decodeJSON(SmartPosterRecord.self, bad) }
        }
    }
}
