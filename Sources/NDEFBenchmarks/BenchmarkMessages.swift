import NDEF

/// The messages the benchmarks decode and encode, built from hand-written bytes so that the
/// figures do not depend on the typed record views.
enum BenchmarkMessages {
    /// One benchmark input: a name, a label for the table and the message.
    struct Case {
        var name: String
        var label: String
        var message: NFCNDEFMessage
    }

    /// (a), (b) and (c) in order.
    static let all: [Case] = [
        Case(name: "a", label: "URI https://example.com/abc", message: uri),
        Case(name: "b", label: "10 mixed records", message: mixed),
        Case(name: "c", label: "64 KiB octet-stream", message: large),
    ]

    /// The encoding (a) must have: SR well-known record `U`, prefix 0x04 (`https://`).
    static let expectedURIBytes: [UInt8] = [0xD1, 0x01, 0x10, 0x55, 0x04] + Array("example.com/abc".utf8)

    /// (a) One URI record, `https://example.com/abc` (NFC Forum URI RTD 1.0, prefix 0x04).
    static let uri = NFCNDEFMessage(records: [
        NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + Array("example.com/abc".utf8))
    ])

    /// (b) Ten records of the kinds found on real tags, about 1.9 KB in all.
    static let mixed = NFCNDEFMessage(records: [
        // Text RTD: status byte (UTF-8, language length 2), "en", text.
        NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02] + Array("enHello, world!".utf8)),
        // URI RTD with prefix 0x02 ("https://www.").
        NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x02] + Array("nfc-forum.org/our-work/".utf8)),
        // Smart Poster: a nested message of a URI record and an English title.
        NFCNDEFPayload(format: .nfcWellKnown, type: "Sp", payload: smartPosterPayload),
        // 300 bytes of text/plain.
        NFCNDEFPayload(format: .media, type: "text/plain", payload: text(count: 300)),
        // Android Application Record.
        NFCNDEFPayload(format: .nfcExternal, type: "android.com:pkg", payload: Array("com.example.reader".utf8)),
        // Text RTD in Japanese: UTF-8, language "ja".
        NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02] + Array("jaこんにちは、世界。NFCタグです。".utf8)),
        // application/json media record.
        NFCNDEFPayload(format: .media, type: "application/json", payload: json),
        // Absolute-URI record: the type names the payload's format.
        NFCNDEFPayload(
            format: .absoluteURI,
            type: "https://example.com/schemas/inventory-item/v2",
            payload: Array("item=4711;shelf=B-12;count=36;checked=2024-05-01".utf8)
        ),
        // 400 bytes of unknown (TNF 5) data.
        NFCNDEFPayload(format: .unknown, type: [], payload: (0..<400).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }),
        // URI RTD with prefix 0x05 ("tel:").
        NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x05] + Array("+15551234567".utf8)),
    ])

    /// (c) One application/octet-stream record with a 65536-byte payload.
    static let large = NFCNDEFMessage(records: [
        NFCNDEFPayload(
            format: .media,
            type: "application/octet-stream",
            payload: (0..<65_536).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ ($0 >> 8)) }
        )
    ])

    /// A Smart Poster payload (NFC Forum Smart Poster RTD 1.0, 2.1): URI then Text record.
    private static let smartPosterPayload: [UInt8] = {
        let uri: [UInt8] = [0x01] + Array("example.com/poster".utf8)  // 0x01 = "http://www."
        let title: [UInt8] = [0x02] + Array("enNFC Forum poster".utf8)
        // MB, SR, well-known "U"; then ME, SR, well-known "T".
        return [0x91, 0x01, UInt8(uri.count), 0x55] + uri + [0x51, 0x01, UInt8(title.count), 0x54] + title
    }()

    /// `count` bytes of readable ASCII text.
    private static func text(count: Int) -> [UInt8] {
        let words = Array("The quick brown fox jumps over the lazy dog. ".utf8)
        return (0..<count).map { words[$0 % words.count] }
    }

    /// A JSON document of about 860 bytes.
    private static let json: [UInt8] = {
        var text = #"{"inventory":["#
        for item in 0..<22 {
            if item > 0 { text += "," }
            text += #"{"id":\#(4700 + item),"name":"part \#(item)","qty":\#(item * 3)}"#
        }
        text += #"],"site":"warehouse-7"}"#
        return Array(text.utf8)
    }()
}
