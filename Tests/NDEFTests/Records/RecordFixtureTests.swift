import Foundation
import HexText
import NDEF
import Testing

/// Full NDEF messages from the NFC Forum RTD appendices and public sources, stored as hex in
/// `Fixtures/ndef/` (lines starting with `#` describe where the bytes come from).
@Suite("NDEF message fixtures through the typed views")
struct RecordFixtureTests {
    /// The repository's `Fixtures/ndef` directory, found from this file's path.
    static let directory: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Fixtures/ndef" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/ndef"
    }()

    /// The bytes of a fixture, comments dropped.
    static func load(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
        let hex = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined()
        return try Hex.decode(hex)
    }

    /// The decoded message of a fixture, which must also re-encode to the same bytes.
    static func message(_ name: String) throws -> NFCNDEFMessage {
        let bytes = try load(name)
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(try message.encoded() == bytes, "\(name) re-encodes byte for byte")
        return message
    }

    /// Each fixture, and the typed values of its records in order.
    static let expectations: [(String, [any NDEFRecordConvertible])] = [
        ("uri-rtd-a1-http-www-nfc-com.hex", [URIRecord(uri: "http://www.nfc.com")]),
        ("uri-rtd-a2-telephone.hex", [URIRecord(uri: "tel:+35891234567")]),
        ("uri-rtd-a3-proprietary-mms.hex", [URIRecord(uri: "mms://example.com/download.wmv")]),
        ("text-hello-world-en.hex", [TextRecord(text: "Hello, world!", language: "en")]),
        ("text-two-records.hex", [TextRecord(text: "TXT1"), TextRecord(text: "TXT2")]),
        (
            "smartposter-libnfc-title-uri.hex",
            [SmartPosterRecord(uri: "http://libnfc.org", titles: [TextRecord(text: "Libnfc")])]
        ),
        (
            "smartposter-uri-title-action.hex",
            [SmartPosterRecord(uri: "http://nfcpy.org", titles: [TextRecord(text: "nfcpy")], action: .execute)]
        ),
        (
            "smartposter-title-uri-action-type4.hex",
            [
                SmartPosterRecord(
                    uri: "http://www.saleae.com/support",
                    titles: [TextRecord(text: "The device requires maintenance # 1280")],
                    action: .execute
                )
            ]
        ),
        (
            "device-info-sony-rcs380.hex",
            [
                DeviceInformationRecord(
                    manufacturer: "Sony",
                    model: "RC-S380",
                    deviceName: "Black NFC Reader connected to PC",
                    uuid: DeviceInformationRecord.uuidBytes("123e4567-e89b-12d3-a456-426655440000"),
                    firmwareVersion: "NFC Port-100 v1.02"
                )
            ]
        ),
        (
            "device-info-acme-unordered.hex",
            [DeviceInformationRecord(manufacturer: "Acme", model: "ExampleJet 8888", deviceName: "mo gl\u{E9}as nifty")]
        ),
        ("aar-st-m24sr-demo.hex", [AndroidApplicationRecord(package: "st.com:m24sr_discovery_democtrl")]),
    ]

    @Test("each fixture decodes to the expected typed values", arguments: expectations)
    func decodes(name: String, expected: [any NDEFRecordConvertible]) throws {
        let message = try Self.message(name)
        try #require(message.records.count == expected.count)
        for (record, value) in zip(message.records, expected) {
            let parsed = try #require(try record.interpreted())
            #expect(AnyHashable(parsed) == AnyHashable(value), "\(name): \(parsed) != \(value)")
        }
    }

    @Test("values whose record layout matches the fixture rebuild it byte for byte")
    func rebuilds() throws {
        for name in [
            "uri-rtd-a1-http-www-nfc-com.hex", "uri-rtd-a2-telephone.hex", "uri-rtd-a3-proprietary-mms.hex",
            "text-hello-world-en.hex", "text-two-records.hex", "smartposter-uri-title-action.hex",
            "device-info-sony-rcs380.hex", "aar-st-m24sr-demo.hex",
        ] {
            let message = try Self.message(name)
            let rebuilt = try message.records.map { record in try #require(try record.interpreted()).makeRecord() }
            #expect(try NFCNDEFMessage(records: rebuilt).encoded() == Self.load(name), "\(name)")
        }
    }

    @Test("the long smart poster with an icon, size, type and action")
    func iconPoster() throws {
        let message = try Self.message("smartposter-icon-size-type-action.hex")
        try #require(message.records.count == 1)
        let poster = try SmartPosterRecord(parsing: message.records[0])
        #expect(poster.uri == "http://www.rim.com")
        #expect(poster.titles == [TextRecord(text: "Icon Title")])
        #expect(poster.mediaType == "text/html")
        #expect(poster.size == 1024)
        #expect(poster.action == .save)
        #expect(poster.extraRecords.isEmpty)
        try #require(poster.icons.count == 1)
        #expect(poster.icons[0].mediaType == "image/png")
        #expect(poster.icons[0].data.count == 709)
        #expect(poster.icons[0].data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // The rebuilt poster holds the same parts (in this view's order) and reads back equal.
        #expect(try SmartPosterRecord(parsing: try poster.makeRecord()) == poster)
        let json = try jsonObject(poster)
        #expect(json["action"] as? String == "save")
        #expect(json["size"] as? Int == 1024)
        #expect(json["mediaType"] as? String == "text/html")
    }

    @Test("every truncated fixture message decodes or throws, never traps")
    func truncatedMessages() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".hex") }
        #expect(names.count >= 12)
        for name in names {
            let bytes = try Self.load(name)
            for count in 0..<bytes.count {
                guard let recovered = try? NFCNDEFMessage.recovering(from: bytes[..<count]) else { continue }
                for record in recovered.message.records {
                    _ = try? record.interpreted()
                }
            }
            // And every view on every prefix of each record's payload.
            for record in try NFCNDEFMessage(decoding: bytes).records {
                for count in 0..<record.payload.count {
                    var cut = record
                    cut.payload = record.payload.prefix(count)
                    do {
                        _ = try cut.interpreted()
                    } catch {
                        #expect(error.code == .invalidPayload, "\(name), \(count) bytes: \(error)")
                    }
                }
            }
        }
    }
}
