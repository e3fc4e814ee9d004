import Foundation
import TagInspection
import TestSupport
import Testing

@testable import NDEFCommandLine

/// `-q` and `-v` on every command that prints messages: `-q` leaves out informational messages
/// (never errors, never data), `-v` adds detail: record offsets (decode, encode), the memory of a
/// dump (inspect), what each backend answered (readers).
@Suite struct MessageOptionsTests {
    /// `text "hello"` in chunks of 3 payload bytes (NDEF 1.0, 2.3.3): B1 01 03 54 02 65 6E,
    /// 36 00 03 68 65 6C, 56 00 02 6C 6F.
    static let chunked = hex("b101035402656e" + "360003" + "68656c" + "560002" + "6c6f")

    @Test(
        "Every command that prints messages takes -q and -v",
        arguments: [
            ["encode", "text", "hi"], ["decode"], ["inspect"], ["readers"], ["sim", "serve"],
        ])
    func accepted(_ command: [String]) async {
        for flag in ["-q", "-v", "--quiet", "--verbose"] {
            let result = await runInProcess(command + [flag], input: Self.chunked)
            #expect(!result.error.contains("Unknown option"), "\(command) \(flag): \(result.error)")
        }
    }

    @Test("decode -v: a line per chunk with the header byte, its flags and the byte ranges (NDEF 1.0, 3.2)")
    func decodeOffsets() async {
        let result = await runInProcess(["decode", "-v"], input: Self.chunked)
        #expect(result.status == 0)
        #expect(
            result.outputText == """
                NDEF message: 1 record, 18 bytes
                record 0: well-known (TNF 1), type "T", payload 8 bytes, 3 chunks
                  chunk 0 at bytes 0-6: header B1h (MB CF SR), type at byte 3, payload at bytes 4-6
                  chunk 1 at bytes 7-12: header 36h (CF SR), no type, payload at bytes 10-12
                  chunk 2 at bytes 13-17: header 56h (ME SR), no type, payload at bytes 16-17
                  Text (en): "hello"

                """)
        #expect(result.error.isEmpty)
        // D9 = MB ME SR IL, TNF 1; type length 1, payload length 5, ID length 1, "T", ID 01.
        let identified = await runInProcess(
            ["decode", "-v", "--hex-input"], input: Array("d9010501540102656e6869".utf8))
        #expect(
            identified.outputText.contains(
                "  at bytes 0-10: header D9h (MB ME SR IL), type at byte 4, ID at byte 5, payload at bytes 6-10\n"))
        // A long record (SR clear): a 4-byte payload length, the type at byte 6.
        let long = await runInProcess(["decode", "-v", "--hex-input"], input: Array("c1010000000155ff".utf8))
        #expect(long.outputText.contains("  at bytes 0-7: header C1h (MB ME), type at byte 6, payload at byte 7\n"))
        // Without -v the description has no offsets; --json never changes.
        #expect(!(await runInProcess(["decode"], input: Self.chunked)).outputText.contains("at bytes"))
        let json = await runInProcess(["decode", "--json"], input: Self.chunked)
        #expect(await runInProcess(["decode", "--json", "-v"], input: Self.chunked).output == json.output)
    }

    @Test("RecordLayout.scan: nil for bytes that do not walk as records")
    func layoutRejectsMalformed() {
        #expect(RecordLayout.scan([0xD1, 0x01]) == nil)
        #expect(RecordLayout.scan([0xD1, 0x01, 0x05, 0x55, 0x00]) == nil)
        #expect(RecordLayout.scan(hex("d10101550000")) == nil)
        #expect(RecordLayout.scan(hex("b10101550000")) == nil)
        #expect(RecordLayout.scan(hex("d1010155ff"))?.first?.first?.payloadOffset == 4)
    }

    @Test("decode -q leaves out the warnings of --lenient, not the data or the status")
    func decodeQuiet() async {
        let damaged = hex("d1010d550270726f786d61726b2e636f6d00")
        let loud = await runInProcess(["decode", "--lenient"], input: damaged)
        let quiet = await runInProcess(["decode", "--lenient", "-q"], input: damaged)
        #expect(loud.error.hasPrefix("warning: skipped at byte 17"))
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty)
        #expect(quiet.output == loud.output)
        // Errors are printed whatever -q says.
        let failed = await runInProcess(["decode", "-q"], input: [0xD1, 0x01])
        #expect(failed.status == 65)
        #expect(failed.error.hasPrefix("Error: malformed NDEF message"))
    }

    @Test("encode -v says on standard error what was encoded; standard output is the same")
    func encodeVerbose() async {
        let plain = await runInProcess(["encode", "text", "hi", "uri", "https://example.com"])
        let verbose = await runInProcess(["encode", "-v", "text", "hi", "uri", "https://example.com"])
        #expect(verbose.status == 0)
        #expect(verbose.output == plain.output)
        #expect(
            verbose.error == """
                Encoded 2 records, 25 bytes:
                  record 0 at bytes 0-8: header 91h (MB SR), type at byte 3, payload at bytes 4-8
                  record 1 at bytes 9-24: header 51h (ME SR), type at byte 12, payload at bytes 13-24

                """)
        #expect(plain.error.isEmpty)
    }

    @Test("inspect ends with the page map, PWD and PACK as **; --json does not change")
    func inspectVerbose() async throws {
        let path = PackagePaths.root.appendingPathComponent("Fixtures/dumps/ntag213-uri-libnfc-pw.mfd").path
        let result = await runInProcess(["inspect", "-v", path])
        #expect(result.status == 0)
        let text = result.outputText
        #expect(text.contains("\npage map (secrets shown as **):\n"))
        #expect(text.contains("\n        0   04 A1 B2 9F  ....   UID            locked\n"))
        #expect(
            text.hasSuffix(
                "       42   00 05 00 00  ....   CFG1\n       43   ** ** ** **         PWD\n"
                    + "       44   ** ** ** **         PACK\n"))
        #expect(!(await runInProcess(["inspect", path])).outputText.contains("memory ("))
        let json = await runInProcess(["inspect", "--json", path])
        #expect(await runInProcess(["inspect", "--json", "-v", path]).output == json.output)
        let classic = PackagePaths.root.appendingPathComponent("Fixtures/dumps/mifare-classic-1k-ndef-libnfc.mfd").path
        let blocks = await runInProcess(["inspect", "-v", classic])
        #expect(blocks.outputText.contains("\nmemory (keys A and B shown as **):\n"))
        #expect(blocks.outputText.contains("  block  3 (03h): ** ** ** ** ** ** 78 77 88 C1 ** ** ** ** ** **\n"))
    }

    @Test("readers -v says what each backend answered; -q keeps the errors")
    func readersMessages() async {
        let io = TestIO()
        io.pcsc = fakePCSC(["Reader 0"])
        io.libnfc = fakeLibNFC(["pn532_uart:/dev/x"])
        #expect(await NDEFCommandLine.run(["readers", "-v"], io: io) == .success)
        #expect(io.error == "pcscd: 1 reader\nlibnfc: 1 device\n")
        let down = TestIO()
        #expect(await NDEFCommandLine.run(["readers", "-q"], io: down) == .unavailable)
        #expect(down.error == "Error: PC/SC readers cannot be listed: pcscd is not running\n")
        #expect(down.outputText.contains("(pcscd is not running)"))
        // pcscd down but a libnfc device there: the device is listed, pcscd's state is a warning, 0.
        let half = TestIO()
        half.libnfc = fakeLibNFC(["pn532_uart:/dev/x"])
        #expect(await NDEFCommandLine.run(["readers"], io: half) == .success)
        #expect(half.outputText.contains("pn532_uart:/dev/x"), "\(half.outputText)")
        #expect(half.error == "Warning: PC/SC readers cannot be listed: pcscd is not running\n")
        let quiet = TestIO()
        quiet.libnfc = fakeLibNFC(["pn532_uart:/dev/x"])
        #expect(await NDEFCommandLine.run(["readers", "-q"], io: quiet) == .success)
        #expect(quiet.error.isEmpty)
    }

    @Test("Tag commands: -q leaves out notes, -v shows the commands, errors always")
    func tagCommands() async throws {
        let folder = try TemporaryDirectory("cli")
        let reader = "sim:ntag215?file=\(folder.path("tag.nfc"))"
        let written = await runInProcess(["write", "-q", "uri", "https://example.com", "--reader", reader])
        #expect(written.status == 0)
        #expect(written.error.isEmpty)
        let read = await runInProcess(["read", "-v", "--reader", reader, "--wait", "0"])
        #expect(read.error.contains("> 3A 00"))
        #expect(read.error.contains("tag commands: "))
        let empty = await runInProcess(["read", "--json", "--reader", "sim:ntag215", "--wait", "0"])
        #expect(empty.error == "The tag holds an empty NDEF message.\n")
        let quiet = await runInProcess(["read", "--json", "-q", "--reader", "sim:ntag215", "--wait", "0"])
        #expect(quiet.error.isEmpty)
        #expect(quiet.output == empty.output)
    }
}
