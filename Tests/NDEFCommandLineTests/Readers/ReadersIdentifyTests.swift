import Foundation
import TestSupport
import Testing

/// `ndeftool readers --identify READER`.
@Suite("readers --identify")
struct ReadersIdentifyTests {
    @Test("A simulated reader takes the identify signal: exit 0")
    func simulated() async {
        let result = await runInProcess(["readers", "--identify", "sim:ntag215"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText == "Blinking the lights of sim:ntag215\n")
    }

    @Test("A bad reader is a usage error (64)", arguments: ["0", "sim:nothing", "bogus:reader"])
    func usage(_ text: String) async {
        let result = await runInProcess(["readers", "--identify", text])
        #expect(result.status == 64, "\(result.error)")
    }

    @Test("A reader number with no readers connected is exit 69 (no reader), naming it")
    func missingNumber() async {
        let result = await runInProcess(["readers", "--identify", "3"])
        #expect(result.status == 69)
        #expect(result.error.contains("There is no reader 3"), "\(result.error)")
    }
}

extension SharedVPCDPortTests.PCSCReaderCommandTests {
    @Test("readers --identify on a PC/SC reader: acr122u blinks (0); the transparent profile has no lights (69)")
    func identifyPCSC() async throws {
        try await SecondVPCDPort.withPort {
            let directory = try TemporaryDirectory("pcsc")
            let server = try await serve(directory.path("tag.nfc"))
            // pcscd looks at vpcd every 0.4 s: the card may show a moment after the server says so.
            await SecondVPCDPort.waitUntilPresent()
            let blink = try await BinaryRunner.run(
                ["readers", "--identify", reader], environment: environment(directory))
            #expect(blink.status == 0, "\(blink.error)")
            #expect(blink.outputText.contains("Blinking the lights of \(SecondVPCDPort.readerName)"))
            let refused = try await BinaryRunner.run(
                ["readers", "--identify", reader + "?profile=pcsc-transparent"], environment: environment(directory))
            #expect(refused.status == 69)
            #expect(refused.error.contains("has no lights or buzzer"), "\(refused.error)")
            try await stop(server)
            // No tag on the reader: the ACR122U takes the LED command only over a card connection.
            let empty = try await BinaryRunner.run(
                ["readers", "--identify", reader], environment: environment(directory))
            #expect(empty.status == 69)
            #expect(empty.error.contains("only while a tag is on it"), "\(empty.error)")
        }
    }
}
