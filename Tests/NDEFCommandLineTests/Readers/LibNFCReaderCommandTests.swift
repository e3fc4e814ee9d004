import Foundation
import TestSupport
import Testing

/// libnfc devices in the tag commands: the built binary drives a PN532 that another ndeftool
/// process simulates on a pseudo-terminal (`sim serve --pn532`), through libnfc's real
/// `pn532_uart` driver. The libnfc variables go to the child processes only.
@Suite("libnfc readers in the tag commands", .timeLimit(.minutes(5)))
struct LibNFCReaderCommandTests {
    @Test("write, read, info, readers and libnfc: through a served PN532; the tag file holds the message")
    func servedPN532() async throws {
        let directory = try TemporaryDirectory("cli")
        let link = directory.path("pn532")
        let file = directory.path("tag.nfc")
        let server = try ServeProcess(["sim", "serve", "--pn532", link, "sim:ntag215?file=\(file)"])
        #expect(await server.waitForError(containing: "Press Ctrl-C"))
        let reader = "libnfc:pn532_uart:\(link)"
        var environment = [
            "NDEFTOOL_READER": "", "XDG_CONFIG_HOME": directory.path("config"), "LIBNFC_AUTO_SCAN": "false",
        ]
        let write = try await BinaryRunner.run(
            ["write", "uri", "https://example.com/libnfc", "--reader", reader, "--wait", "2"], environment: environment)
        #expect(write.status == 0, "\(write.error)")
        let read = try await BinaryRunner.run(
            ["read", "--reader", reader, "--json", "--wait", "2"], environment: environment)
        #expect(read.status == 0, "\(read.error)")
        #expect(read.outputText.contains("https://example.com/libnfc"))
        let info = try await BinaryRunner.run(
            ["info", "--reader", reader, "-v", "--wait", "2"], environment: environment)
        #expect(info.status == 0, "\(info.error)")
        #expect(info.outputText.contains("NTAG215"))
        #expect(info.outputText.contains("reader: \(reader)"))
        // The device LIBNFC_DEVICE names is listed, and is libnfc's first.
        environment["LIBNFC_DEVICE"] = "pn532_uart:\(link)"
        let readers = try await BinaryRunner.run(["readers"], environment: environment)
        #expect(
            readers.outputText.contains("libnfc  \(reader)  (libnfc:0, tag unknown)  [default]\n"),
            "\(readers.outputText)")
        let first = try await BinaryRunner.run(
            ["read", "--reader", "libnfc:", "--json", "--wait", "2"], environment: environment)
        #expect(first.status == 0, "\(first.error)")
        #expect(first.outputText.contains("https://example.com/libnfc"))
        server.terminate()
        #expect(try await server.waitForExit() == 0)
        let kept = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!kept.isEmpty)
        let inspected = try await BinaryRunner.run(["inspect", file])
        #expect(inspected.outputText.contains("https://example.com/libnfc"))
    }

    @Test("no libnfc device: exit 69, with where serial boards are named")
    func noDevice() async throws {
        let environment = ["NDEFTOOL_READER": "", "LIBNFC_AUTO_SCAN": "false", "LIBNFC_DEVICE": ""]
        let result = try await BinaryRunner.run(
            ["read", "--reader", "libnfc:", "--wait", "0"], environment: environment)
        #expect(result.status == 69)
        #expect(result.error.contains("libnfc found no device (LIBNFC_AUTO_SCAN=false turns its USB scan off)"))
        #expect(result.error.contains("LIBNFC_DEVICE=pn532_uart:/dev/ttyUSB0"))
    }
}
