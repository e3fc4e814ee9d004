import Foundation
import TestSupport
import Testing

/// `dump` of a simulated MIFARE Classic card: every block the keys open, the keys in the
/// trailers (as libnfc's nfc-mfclassic dumps), and exit status 78 when a sector stays shut.
@Suite(.timeLimit(.minutes(5))) struct ClassicDumpCommandTests {
    typealias Card = ClassicCommandTests.Card

    /// Formats `card` with its keys file and writes a URI.
    static func formatted() async throws -> Card {
        let card = try Card()
        let code = try await card.code("format")
        #expect(try await card.run(["format", "--keys-file", card.keys, "--confirm", code]).status == 0)
        #expect(try await card.run(["write", "uri", "https://example.com/dump"]).status == 0)
        return card
    }

    @Test("An NDEF card dumped with its keys file is the card's image byte for byte, keys included")
    func wholeCard() async throws {
        let card = try await Self.formatted()
        let info = try await card.run(["info"])
        #expect(info.outputText.contains("\n  blocks 1-2: MAD1\n"), "\(info.outputText)")
        #expect(
            info.outputText.contains(
                "\n  blocks 4-5: NDEF Message TLV (21-byte message, bytes 64-86, trailers skipped)\n"),
            "\(info.outputText)")
        let path = card.folder.path("dump.mfd")
        let dump = try await card.run(["dump", "-o", path, "--keys-file", card.keys, "--json"])
        #expect(dump.status == 0, "\(dump.error)")
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved == card.contents())
        // Sector 0 opens with the MAD key A, the NFC sectors with the NFC Forum key A; key B
        // (hidden by the access bits) with the keys file's, which the trailers then hold.
        #expect(Array(saved[58..<64]) == [0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        #expect(Array(saved[48..<54]) == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(dump.output)) as? [String: Any])
        #expect(report["blocks"] as? Int == 64 && (report["incompleteSectors"] as? [Int])?.isEmpty == true)
        let sectors = try #require(report["sectors"] as? [[String: Any]])
        #expect(sectors.count == 16 && sectors.allSatisfy { $0["openedWith"] as? String == "A+B" })
        #expect(!dump.outputText.contains("0123456789") && !dump.error.contains("0123456789"))
        // What inspect reads from it.
        let inspect = try await BinaryRunner.run(["inspect", path])
        #expect(inspect.outputText.contains("https://example.com/dump"), "\(inspect.error)")
    }

    @Test("Without the keys file key B stays zeros; hex text has one block per line")
    func withoutKeys() async throws {
        let card = try await Self.formatted()
        let path = card.folder.path("dump.mfd")
        #expect(try await card.run(["dump", "-o", path]).status == 0)
        let saved = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Array(saved[58..<64]) == [0, 0, 0, 0, 0, 0])
        #expect(Array(saved[4..<16]) == Array(card.contents()[4..<16]))
        let hex = try await card.run(["dump", "-o", "-"])
        #expect(hex.status == 0)
        let lines = hex.outputText.split(separator: "\n")
        #expect(lines.count == 65 && lines[1].hasPrefix("00: ") && lines[4].hasPrefix("03: A0 A1 A2 A3 A4 A5"))
        let flipper = try await card.run(["dump", "-o", card.folder.path("card.nfc")])
        #expect(flipper.status == 64 && flipper.error.contains("raw"))
    }

    @Test("A sector no key opens is saved as zeros, named, and ends with 78; its key in the file opens it")
    func shutSector() async throws {
        let card = try Card()
        // A factory card (its dump is its image: transport key A, key B readable), then with
        // key A 112233445566 in sector 5.
        #expect(try await card.run(["dump", "-o", card.folder.path("factory.mfd")]).status == 0)
        var image = [UInt8](try Data(contentsOf: URL(fileURLWithPath: card.folder.path("factory.mfd"))))
        try #require(image.count == 1024)
        #expect(
            Array(image[48..<64]) == [UInt8](repeating: 0xFF, count: 6) + [0xFF, 0x07, 0x80, 0x69]
                + [UInt8](repeating: 0xFF, count: 6))
        let trailer = 5 * 64 + 48
        image.replaceSubrange(trailer..<(trailer + 6), with: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66])
        image[5 * 64] = 0x5A
        try Data(image).write(to: URL(fileURLWithPath: card.path))
        let path = card.folder.path("dump.mfd")
        let shut = try await card.run(["dump", "-o", path])
        #expect(shut.status == 78 && shut.error.contains("sector 5") && shut.error.contains("--keys-file"))
        let partial = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(partial[(5 * 64)..<(6 * 64)].allSatisfy { $0 == 0 } && partial[4 * 64 + 48] == 0xFF)
        let keys = card.folder.path("sector5.txt")
        try Data("sector 5 112233445566\n".utf8).write(to: URL(fileURLWithPath: keys))
        let opened = try await card.run(["dump", "-o", path, "--keys-file", keys])
        #expect(opened.status == 0, "\(opened.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(image))
    }

    @Test("info says whether the card answers the Gen1a backdoor (gen1a=1 on the simulated card); JSON too")
    func gen1a() async throws {
        let folder = try TemporaryDirectory("gen1a")
        func info(_ url: String, json: Bool = false) async throws -> RunResult {
            try await BinaryRunner.run(
                ["info", "--reader", url, "--wait", "0"] + (json ? ["--json"] : []),
                environment: ["NDEFTOOL_READER": "", "XDG_STATE_HOME": folder.path("state")])
        }
        let magic = try await info("sim:classic1k?gen1a=1")
        #expect(magic.status == 0 && magic.outputText.contains("magic card: it answers the Gen1a backdoor"))
        let genuine = try await info("sim:classic4k")
        #expect(genuine.outputText.contains("Gen1a backdoor: no answer"))
        #expect(genuine.outputText.contains("\n  sector trailers (keys, access bits, GPB): blocks 3, 7, 11, ... 255\n"))
        let json = try await info("sim:classic-mini?gen1a=1", json: true)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let classic = try #require(object["mifareClassic"] as? [String: Any])
        #expect(classic["gen1aBackdoor"] as? Bool == true)
        let refused = try await info("sim:ntag215?gen1a=1")
        #expect(refused.status == 64 && refused.error.contains("MIFARE Classic cards only"))
    }
}
