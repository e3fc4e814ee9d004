import Foundation
import HexText
import NDEF
import TestSupport
import Testing

/// ``NFCNDEFPayload/view(options:)`` picks its view by format first; it must pick the view
/// ``NDEFRecordRegistry`` would (the first in ``NDEFRecordRegistry/standard`` that matches),
/// and parse as that view's `init(parsing:)` does.
@Suite("NDEFRecordView: the registry's choice, and views that build strings when read")
struct RecordViewTests {
    /// Every record of every fuzz seed message (lenient, so damaged seeds give records too),
    /// and the registry's dispatch examples.
    static let records: [NFCNDEFPayload] = {
        let folder = PackagePaths.fixtures.appendingPathComponent("fuzz-seeds")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var records = RecordRegistryTests.dispatch.map(\.0)
        for name in names.sorted() where name.hasSuffix(".hex") {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
                continue
            }
            let digits = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined()
            guard let bytes = try? Hex.decode(digits), let recovered = try? NFCNDEFMessage.recovering(from: bytes)
            else { continue }
            records += recovered.message.records
        }
        return records
    }()

    @Test("The fixtures cover every kind of view")
    func coverage() throws {
        let kinds = Set(Self.records.compactMap { try? $0.view()?.value }.map { type(of: $0).kind })
        #expect(kinds.count >= 12, "kinds read: \(kinds.sorted())")
    }

    @Test("view() agrees with the registry on every record")
    func agreesWithRegistry() throws {
        for record in Self.records {
            let registered = NDEFRecordRegistry.view(format: record.typeNameFormat, type: record.type)
            let viaRegistry = Result { () throws(NDEFError) in try registered?.init(parsing: record, options: .init()) }
            let viaView = Result { () throws(NDEFError) in try record.view() }
            switch (viaRegistry, viaView) {
            case (.success(let expected), .success(let actual)):
                #expect(expected.map { type(of: $0).kind } == actual.map { type(of: $0.value).kind })
                if let expected, let actual {
                    #expect(expected.description == actual.value.description)
                }
            case (.failure(let expected), .failure(let actual)):
                #expect(expected.code == actual.code && expected.offset == actual.offset)
            default:
                Issue.record("verdicts differ on \(record): \(viaRegistry) vs \(viaView)")
            }
        }
    }

    @Test("A parsed view equals the same value built from strings, and hashes alike")
    func lazyFieldsCompareAsText() throws {
        let uri = try #require(try NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com/ä")?.view())
        guard case .uri(let parsed) = uri else { throw Unexpected("not a URI view: \(uri)") }
        let built = URIRecord(uri: "https://example.com/ä")
        #expect(parsed == built)
        #expect(parsed.hashValue == built.hashValue)
        #expect(parsed.uri == "https://example.com/ä")
        var changed = parsed
        changed.uri = "tel:+1"
        #expect(changed.uri == "tel:+1" && parsed.uri == "https://example.com/ä")

        let text = NFCNDEFPayload(format: .nfcWellKnown, type: "T", payload: [0x02] + Array("enSalut".utf8))
        guard case .text(let textView)? = try text.view() else { throw Unexpected("not a text view") }
        #expect(textView == TextRecord(text: "Salut", language: "en"))
        #expect(textView.text == "Salut")
    }

    @Test("A media view's data is a slice of the record, not a copy")
    func mediaSharesStorage() throws {
        let bytes = hex("d2 18 04") + Array("application/octet-stream".utf8) + [1, 2, 3, 4]
        let record = try #require(try NFCNDEFMessage(decoding: bytes).records.first)
        guard case .media(let media)? = try record.view() else { throw Unexpected("not a media view") }
        let inputBase = bytes.withUnsafeBufferPointer { $0.baseAddress }
        let dataBase = media.data.withUnsafeBufferPointer { $0.baseAddress }
        #expect(inputBase.map { $0 + media.data.startIndex } == dataBase)
        #expect(media.mediaType == "application/octet-stream")
    }

    /// A test expectation that did not hold, with what was found.
    struct Unexpected: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
