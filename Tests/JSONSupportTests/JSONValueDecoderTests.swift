import JSONSupport
import Testing

/// Decoding `Decodable` types from parsed JSON without Foundation, as `JSONDecoder` would.
@Suite struct JSONValueDecoderTests {
    struct Carrier: Decodable, Equatable {
        var name: String
        var port: UInt16
        var ratio: Double
        var enabled: Bool
        var tags: [String]
        var limits: [Int]?
        var note: String?
        var inner: Inner

        struct Inner: Decodable, Equatable {
            var level: Int8
        }
    }

    func value(_ text: String) throws -> JSONValue {
        try JSONValue.parse(
            Array(text.utf8),
            options: JSONParseOptions(
                maximumDepth: 8, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true))
    }

    @Test func decodesNestedValues() throws {
        let text =
            #"{"name":"a","port":8080,"ratio":0.5,"enabled":true,"tags":["x","y"],"note":null,"inner":{"level":-3}}"#
        let carrier = try JSONValueDecoder.decode(Carrier.self, from: value(text))
        #expect(
            carrier
                == Carrier(
                    name: "a", port: 8080, ratio: 0.5, enabled: true, tags: ["x", "y"], limits: nil, note: nil,
                    inner: .init(level: -3)))
    }

    @Test func failuresNameThePath() throws {
        let base = #""name":"a","ratio":1,"enabled":false,"tags":[],"inner":{"level":1}"#
        // 70000 does not fit a UInt16.
        #expect {
            try JSONValueDecoder.decode(Carrier.self, from: value("{\(base),\"port\":70000}"))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["port"]
        }
        // 1.5 is no integer; a string is no number; a missing key; null for a value that must be there.
        for (member, path) in [
            (#""port":1.5"#, ["port"]), (#""port":"80""#, ["port"]), (#""port":null"#, ["port"]),
        ] {
            #expect(throws: DecodingError.self, "\(path)") {
                try JSONValueDecoder.decode(Carrier.self, from: value("{\(base),\(member)}"))
            }
        }
        #expect {
            try JSONValueDecoder.decode(Carrier.self, from: value(#"{"name":"a"}"#))
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, _) = error else { return false }
            return key.stringValue == "port"
        }
        #expect {
            let outOfRange = #""name":"a","ratio":1,"enabled":false,"tags":[],"inner":{"level":200},"port":1"#
            return try JSONValueDecoder.decode(Carrier.self, from: value("{\(outOfRange)}"))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.codingPath.map(\.stringValue) == ["inner", "level"]
        }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode([Int].self, from: value("[1, \"2\"]")) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder.decode(Carrier.self, from: value("[]")) }
    }
}
