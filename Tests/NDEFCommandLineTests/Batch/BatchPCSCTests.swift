import Foundation
import TestSupport
import Testing

extension SharedVPCDPortTests.PCSCReaderCommandTests {
    @Test("batch through pcscd: a row written, verified and locked on a vpcd tag; the ACR122U shows success")
    func batchThroughPCSC() async throws {
        try await SecondVPCDPort.withPort {
            let directory = try TemporaryDirectory("pcsc")
            let env = environment(directory)
            let server = try ServeProcess([
                "sim", "serve", "-v", "--vpcd", String(SecondVPCDPort.port),
                "sim:ntag215?file=\(directory.path("tag.nfc"))",
            ])
            #expect(await server.waitForError(containing: "the tag is in the reader's field"))
            let journal = directory.path("job.journal")
            let template = ["uri", "https://example.com/pcsc/{counter}"]
            let plan = ["--from", "7", "--to", "7", "--journal", journal]
            let dry = try await BinaryRunner.run(["batch"] + template + plan + ["--lock", "--dry-run", "--json"])
            let code = try #require(
                dry.outputText.split(separator: "\"").drop { $0 != "lockCode" }.dropFirst(2).first.map(String.init))
            // pcscd looks at vpcd every 0.4 s: the card may show a moment after the server says so.
            await SecondVPCDPort.waitUntilPresent()
            let run = try await BinaryRunner.run(
                ["batch"] + template + plan + [
                    "--lock", "--confirm", code, "--reader", reader + "?profile=acr122u", "--wait", "5", "--json",
                ], environment: env)
            #expect(run.status == 0, "\(run.error)")
            #expect(run.outputText.contains("\"done\" : 1"), "\(run.outputText)")
            #expect(run.outputText.contains("\"locked\" : 1"), "\(run.outputText)")
            let read = try await BinaryRunner.run(["read", "--reader", reader, "--json"], environment: env)
            #expect(read.outputText.contains("https://example.com/pcsc/7"), "\(read.outputText)")
            let info = try await BinaryRunner.run(["info", "--reader", reader], environment: env)
            #expect(info.outputText.contains("read-only"), "\(info.outputText)")
            server.terminate()
            #expect(try await server.waitForExit() == 0)
            #expect(server.errorText.contains("reader signals: success"), "\(server.errorText)")
        }
    }
}
