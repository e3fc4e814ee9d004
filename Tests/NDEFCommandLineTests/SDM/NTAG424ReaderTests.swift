import Foundation
import NFCSession
import NTAG424
import SimulatedReader
import TestSupport
import Testing

/// A simulated NTAG 424 DNA served as a PN532 on a pseudo-terminal, reached through libnfc's
/// pn532_uart driver: native commands pass as ISO-DEP APDUs (InDataExchange).
@Suite struct NTAG424ReaderTests {
    @Test("Through libnfc: GetVersion's three frames, GetCardUID refused without a session, NDEF write and read")
    func throughLibNFC() async throws {
        let directory = try TemporaryDirectory("ntag424")
        defer { directory.remove() }
        let link = directory.path("pn532")
        let server = try ServeProcess([
            "sim", "serve", "--pn532", link, "sim:ntag424?uid=04518DFAA96180&file=\(directory.path("t424.t4t"))",
        ])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let environment = [
            "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": directory.path("config"), "LIBNFC_AUTO_SCAN": "false",
        ]
        let reader = ["--reader", "libnfc:pn532_uart:\(link)", "--wait", "2"]
        let raw = try await BinaryRunner.run(
            ["raw", "00A4040C07D276000085010100", "9060000000", "90AF000000", "90AF000000", "9051000000"] + reader,
            environment: environment)
        #expect(raw.status == 0, "\(raw.error)")
        #expect(raw.outputText.contains("< 04 51 8D FA A9 61 80 "), "\(raw.outputText)")
        #expect(raw.outputText.contains("< 91 AE  (91AE AUTHENTICATION_ERROR)"), "\(raw.outputText)")
        let write = try await BinaryRunner.run(
            ["write", "uri", "https://example.com/424"] + reader, environment: environment)
        #expect(write.status == 0, "\(write.error)")
        let read = try await BinaryRunner.run(["read"] + reader, environment: environment)
        #expect(read.outputText.contains("URI: https://example.com/424"), "\(read.outputText)\(read.error)")
        server.terminate()
        #expect(try await server.waitForExit() == 0)
    }
}

extension NTAG424ReaderTests {
    @Test(
        "Through libnfc: sdm setup, a move to new keys and a URL, the factory reset, set up again; AES and LRP",
        arguments: [false, true])
    func rotationThroughLibNFC(lrp: Bool) async throws {
        let setting = try SDMSetupCommandTests.Setting("ntag424-pn532-rotate")
        defer { setting.folder.remove() }
        let link = setting.folder.path("pn532")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, setting.reader])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let environment = [
            "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": setting.folder.path("config"),
            "XDG_STATE_HOME": setting.folder.path("state"), "LIBNFC_AUTO_SCAN": "false",
        ]
        try await SDMRotationCommandTests.setUpMoveAndReset(
            setting, reader: "libnfc:pn532_uart:\(link)", environment: environment, lrp: lrp)
        server.terminate()
        #expect(try await server.waitForExit() == 0)
    }
}

extension NTAG424ReaderTests {
    @Test("Through libnfc: TagTamper set up, the served loop opened by SIGUSR1 and closed by SIGUSR2")
    func tagTamperThroughLibNFC() async throws {
        let setting = try SDMSetupCommandTests.Setting("ntag424-pn532-tt")
        defer { setting.folder.remove() }
        let link = setting.folder.path("pn532")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, SDMTagTamperCommandTests.reader(setting)])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let environment = [
            "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": setting.folder.path("config"),
            "XDG_STATE_HOME": setting.folder.path("state"), "LIBNFC_AUTO_SCAN": "false",
        ]
        try await SDMTagTamperCommandTests.servedLoop(
            setting, server: server, reader: "libnfc:pn532_uart:\(link)", environment: environment)
        server.terminate()
        #expect(try await server.waitForExit() == 0)
    }
}

/// `ndeftool sdm status` on a simulated NTAG 424 DNA set up through the session library.
@Suite struct SDMStatusCommandTests {
    static let keys = (0..<5).map { [UInt8](repeating: UInt8(0x10 * ($0 + 1)), count: 16) }

    /// A tag file with SDM on (PICCData key 1, SDMMAC key 2, counter for key 3) and keys 1-4
    /// changed (version 1), key 0 still the factory one.
    static func prepared(_ path: String) async throws {
        let reader = try await SimulatedReader(url: "sim:ntag424?uid=04518DFAA96180&file=\(path)")
        let session = NFCTagReaderSession(reader: reader)
        guard let iso = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            throw NFCReaderError(.tagNotSupported, "no Type 4 tag")
        }
        let template = try NTAG424SDMTemplate(url: "https://x.example/t?picc_data={picc}&cmac={mac}")
        try await iso.writeNDEF(template.message)
        let tag = NFCNTAG424Tag(iso)
        try await tag.selectApplication()
        try await tag.authenticate(keyNumber: 0, key: [UInt8](repeating: 0, count: 16))
        try await tag.changeFileSettings(
            2, to: template.settings(metaReadKey: 1, fileReadKey: 2, lockNDEF: true, counterKey: .key(3)))
        for number in 1...4 {
            try await tag.changeKey(number, to: keys[number], version: 1, oldKey: [UInt8](repeating: 0, count: 16))
        }
        await session.invalidate()
        await reader.close()
    }

    @Test("SDM, key versions, the counter (read with key 3) and the URL a phone reads, checked with --keys-file")
    func status() async throws {
        let folder = try TemporaryDirectory("sdm-status")
        defer { folder.remove() }
        let path = folder.path("t424.t4t")
        try await Self.prepared(path)
        let keysJSON =
            "{"
            + Self.keys.enumerated().map {
                "\"k\($0.offset)\": \"\(hexText($0.offset == 0 ? [UInt8](repeating: 0, count: 16) : $0.element))\""
            }
            .joined(separator: ", ") + "}"
        let keysFile = try folder.file("keys.json", text: keysJSON)
        let reader = "sim:ntag424?file=\(path)"
        let plain = try await BinaryRunner.run(["sdm", "status", "--reader", reader, "--wait", "0"])
        #expect(plain.status == 0, "\(plain.error)")
        // NLEN (2), D1 01 len 55 04 (5), "x.example/t?picc_data=" (22): PICCData at 29; "&cmac=" after its 32.
        #expect(
            plain.outputText.contains("\n  SDM on, PICCData at 29 (key 1), SDMMAC at 67 (key 2, input from 67)\n"),
            "\(plain.outputText)")
        #expect(plain.outputText.contains("key versions: k0 0, k1 1, k2 1, k3 1, k4 1"))
        #expect(plain.outputText.contains("a phone reads: https://x.example/t?picc_data="))
        #expect(!plain.outputText.contains("SDM read counter"), "the counter needs key 3")
        let keyed = try await BinaryRunner.run(
            ["sdm", "status", "--reader", reader, "--wait", "0", "--keys-file", keysFile, "--json"])
        #expect(keyed.status == 0, "\(keyed.error)")
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(keyed.outputText, schema: "sdm-status.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(keyed.output)) as? [String: Any])
        let check = try #require(object["check"] as? [String: Any])
        #expect(check["valid"] as? Bool == true && check["uid"] as? String == "04518DFAA96180")
        // The counter was read (1 from the first status's read), then the phone read counted: 2.
        #expect(object["counter"] as? Int == 1 && check["counter"] as? Int == 2, "\(keyed.outputText)")
    }

    @Test("The originality signature: AN12196's verifies with NXP's NTAG 424 DNA key, in text and JSON")
    func signature() async throws {
        let reader =
            "sim:ntag424?uid=04518DFAA96180&signature=D1940D17CFEDA4BFF80359AB975F9F6514313E8F90C1D3CAAF5941AD744A1CDF"
            + "9A83F883CAFE0FE95D1939B1B7E47113993324473B785D21"
        let text = try await BinaryRunner.run(["sdm", "status", "--reader", reader, "--wait", "0"])
        #expect(
            text.outputText.contains("\noriginality signature: valid (NXP NTAG 424 DNA key)\n"), "\(text.outputText)")
        let json = try await BinaryRunner.run(["sdm", "status", "--reader", reader, "--wait", "0", "--json"])
        var validator = JSONSchemaValidator()
        #expect(try validator.problems(json.outputText, schema: "sdm-status.schema.json").isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let signature = try #require(object["signature"] as? [String: Any])
        #expect(signature["verified"] as? Bool == true, "\(signature)")
    }
}
