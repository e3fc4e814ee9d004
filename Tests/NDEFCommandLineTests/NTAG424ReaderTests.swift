import Foundation
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
