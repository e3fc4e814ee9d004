import Foundation
import NDEF
import Testing

/// The Swift half of the differential test against ndeflib (Scripts/crosscheck).
///
/// Runs only when `NDEF_CROSSCHECK_DIR` names the working directory of that script: the forward
/// test decodes every message ndeflib encoded there (`forward/NAME.ndef`) and writes our JSON
/// reading of it next to it (`NAME.ours.json`); the reverse test encodes a corpus of typed
/// records with our builders (`reverse/NAME.ndef` and `NAME.ours.json`) for ndeflib to decode.
/// The script compares the two sides. Without the variable both tests are skipped.
@Suite(
    "Cross-check with ndeflib (Scripts/crosscheck)",
    .enabled(if: CrossCheck.directory != nil, "set NDEF_CROSSCHECK_DIR (Scripts/crosscheck does)")
)
struct CrossCheckTests {
    @Test("our reading of every message ndeflib encoded")
    func forward() throws {
        let folder = try #require(CrossCheck.directory) + "/forward"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ndef") }
        #expect(!names.isEmpty, "no forward messages in \(folder): run Scripts/crosscheck")
        for name in names.sorted() {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let output: Data
            do {
                output = try CrossCheck.json(for: NFCNDEFMessage(decoding: bytes))
            } catch let error as NDEFError {
                output = try JSONEncoder().encode(["error": error.description])
            }
            try output.write(to: URL(fileURLWithPath: folder + "/" + name.dropLast(5) + ".ours.json"))
        }
    }

    @Test("our encoding of typed records, for ndeflib to read")
    func reverse() throws {
        let folder = try #require(CrossCheck.directory) + "/reverse"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let corpus = try CrossCheckCorpus.messages()
        for (name, records) in corpus {
            let message = NFCNDEFMessage(records: records)
            let bytes = try message.encoded()
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name + ".ndef"))
            // What we read back from our own bytes is what ndeflib's reading is compared with.
            try CrossCheck.json(for: NFCNDEFMessage(decoding: bytes))
                .write(to: URL(fileURLWithPath: folder + "/" + name + ".ours.json"))
        }
        #expect(corpus.count > 50)
    }
}

/// File and JSON helpers of the cross-check.
enum CrossCheck {
    /// The working directory shared with Scripts/crosscheck, from `NDEF_CROSSCHECK_DIR`.
    static var directory: String? {
        guard let path = ProcessInfo.processInfo.environment["NDEF_CROSSCHECK_DIR"], !path.isEmpty else {
            return nil
        }
        return path
    }

    /// The message's JSON contract form, each record with the `kind` of the view that reads it.
    ///
    /// Written with JSONEncoder only: JSONSerialization on Linux drops a leading U+FEFF from
    /// strings, which would hide what a text record holds.
    static func json(for message: NFCNDEFMessage) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(["records": message.records.map(KindedRecord.init)])
    }

    /// A record in its JSON contract form plus `kind`.
    struct KindedRecord: Encodable {
        var record: NFCNDEFPayload

        enum CodingKeys: String, CodingKey {
            case kind
        }

        func encode(to encoder: any Encoder) throws {
            try record.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            let view = NDEFRecordRegistry.view(format: record.typeNameFormat, type: record.type)
            try container.encode(view?.kind, forKey: .kind)
        }
    }
}
