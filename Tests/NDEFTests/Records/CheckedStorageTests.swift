import TestSupport
import Testing

@testable import NDEF

/// Records and views that keep checked bytes instead of built values: what they hold must not
/// depend on which form they are in, and a change must never keep a stale check.
@Suite("Checked storage: records in one buffer, views that read their payload when asked")
struct CheckedStorageTests {
    /// A poster with every kind of part: URI, two titles, action, size, type, an icon and an
    /// extra record (Smart Poster RTD 1.0, 3.3).
    static let fullPoster = SmartPosterRecord(
        uri: "https://example.com/p",
        titles: [TextRecord(text: "Poster"), TextRecord(text: "Plakat", language: "de")],
        action: .open,
        size: 4096,
        mediaType: "text/html",
        icons: [SmartPosterRecord.Icon(mediaType: "image/png", data: [0x89, 0x50, 0x4E, 0x47])],
        extraRecords: [NFCNDEFPayload(format: .nfcExternal, type: "example.com:x", payload: [0x01])]
    )

    /// `record` decoded back from its encoding, as a tag's record would be.
    static func decoded(_ record: NFCNDEFPayload) throws -> NFCNDEFPayload {
        let records = try NFCNDEFMessage(decoding: NFCNDEFMessage(records: [record]).encoded()).records
        return try #require(records.first)
    }

    @Test("a parsed poster reads every field from its payload as the values it was built from")
    func parsedPosterFields() throws {
        let parsed = try SmartPosterRecord(parsing: Self.decoded(Self.fullPoster.makeRecord()), options: .init())
        #expect(parsed == Self.fullPoster)
        #expect(parsed.uri == "https://example.com/p")
        #expect(parsed.titles.map(\.text) == ["Poster", "Plakat"])
        #expect(parsed.title(language: "DE") == "Plakat")
        #expect(parsed.action == .open)
        #expect(parsed.size == 4096)
        #expect(parsed.mediaType == "text/html")
        #expect(parsed.icons == Self.fullPoster.icons)
        #expect(parsed.extraRecords == Self.fullPoster.extraRecords)
        #expect(try parsed.makeRecord().payload == Self.fullPoster.makeRecord().payload)
    }

    @Test("changing one field of a parsed poster keeps all the others")
    func parsedPosterEdits() throws {
        var poster = try SmartPosterRecord(parsing: Self.decoded(Self.fullPoster.makeRecord()), options: .init())
        poster.action = .save
        var expected = Self.fullPoster
        expected.action = .save
        #expect(poster == expected)
        poster.uri = "https://example.com/q"
        expected.uri = "https://example.com/q"
        #expect(poster == expected)
        #expect(poster.titles.count == 2 && poster.icons.count == 1 && poster.extraRecords.count == 1)
    }

    @Test("a poster whose inner message is chunked reads the same as its plain form")
    func chunkedPosterMatchesPlain() throws {
        let inner = try Self.fullPoster.makeRecord().payload
        let records = try NFCNDEFMessage(decoding: inner).records
        let chunked = try NFCNDEFMessage(records: records).encoded(chunkSize: 2)
        #expect(!NDEFMessageDecoder.isPlain(chunked[...], maximumRecordCount: 100))
        let record = NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: chunked)
        #expect(try SmartPosterRecord(parsing: record, options: .init()) == Self.fullPoster)
    }

    @Test("a parsed UTF-8 text keeps its language when the text changes, and the other way round")
    func parsedTextEdits() throws {
        let built = TextRecord(text: "こんにちは", language: "ja")
        var parsed = try TextRecord(parsing: Self.decoded(built.makeRecord()), options: .init())
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        parsed.text = "さようなら"
        #expect(parsed.language == "ja" && parsed.text == "さようなら")
        var other = try TextRecord(parsing: Self.decoded(built.makeRecord()), options: .init())
        other.language = "ja-JP"
        #expect(other.text == "こんにちは" && other.language == "ja-JP")
        #expect(try other.makeRecord().payload == [0x05] + Array("ja-JPこんにちは".utf8))
    }

    @Test("a decoded record's TYPE check does not survive a change of its type or format")
    func typeCheckIsCleared() throws {
        var record = try Self.decoded(NFCNDEFPayload(format: .media, type: "text/plain", payload: [0x41]))
        #expect(record.typeIsChecked)
        #expect(try record.view() != nil)
        record.type = Array("text plain".utf8)[...]
        #expect(!record.typeIsChecked)
        #expect(throws: NDEFError.self) { try record.view() }

        var external = try Self.decoded(NFCNDEFPayload(format: .media, type: "text/plain", payload: [0x41]))
        external.typeNameFormat = .nfcExternal  // "text/plain" is no domain:type name
        #expect(!external.typeIsChecked)
        #expect(throws: NDEFError.self) { try external.view() }
        #expect(throws: NDEFError.self) { try NFCNDEFMessage(records: [external]).encoded() }
    }

    @Test("a record built from fields keeps them apart, in one buffer, through changes")
    func builtRecordFields() throws {
        var record = NFCNDEFPayload(
            format: .nfcExternal, type: Array("example.com:t".utf8)[2...], identifier: [0x49, 0x44],
            payload: [1, 2, 3][1...])
        #expect(Array(record.type) == Array("ample.com:t".utf8))
        #expect(Array(record.identifier) == [0x49, 0x44])
        #expect(Array(record.payload) == [2, 3])
        record.identifier = []
        #expect(Array(record.type) == Array("ample.com:t".utf8) && Array(record.payload) == [2, 3])
        record.payload.append(4)
        #expect(Array(record.payload) == [2, 3, 4] && record.identifier.isEmpty)
        #expect(record.payload[record.payload.startIndex] == 2)
    }

    @Test("a chunked record decodes into one buffer whose payload is every chunk's, in order")
    func chunkedRecordJoined() throws {
        // Well-known "T" in three chunks: "AB" (MB, CF), "CD" (CF, TNF 6), "E" (ME, TNF 6).
        let bytes = hex("B1 01 02 54 41 42 36 00 02 43 44 56 00 01 45")
        let record = try #require(NFCNDEFMessage(decoding: bytes).records.first)
        #expect(Array(record.type) == [0x54])
        #expect(Array(record.payload) == [0x41, 0x42, 0x43, 0x44, 0x45])
        #expect(record.chunkSizes == [2, 2, 1])
        let sequenced = try #require(Array(NDEFRecordSequence(decoding: bytes)).first)
        #expect(sequenced == record && sequenced.chunkSizes == [2, 2, 1])
    }

    @Test("a record is 64 bytes on 64-bit platforms: one slice, two indices, chunk sizes and two bytes")
    func recordSize() {
        #if arch(x86_64) || arch(arm64)
            // The decoders return records by value; a 65th byte makes every move a fifth word.
            #expect(MemoryLayout<NFCNDEFPayload>.size == 64)
        #endif
    }
}
