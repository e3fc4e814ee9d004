import NDEF
import NFCReaders
import NFCSession
import Testing

/// Opening readers by URL with the library products only, as an application would.
@Suite struct OpenReaderTests {
    @Test("openReader(\"sim:...\") gives a reader whose tag is written and read like any other")
    func simulatedTag() async throws {
        let reader = try await openReader("sim:ntag215")
        let session = NFCTagReaderSession(reader: reader)
        await session.begin()
        guard let tag = try await session.nextTag(timeout: .seconds(30)) as? NFCMiFareTag else {
            Issue.record("not a Type 2 tag")
            return
        }
        let message = NFCNDEFMessage(records: [try URIRecord(uri: "https://example.com/a").makeRecord()])
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        await session.invalidate()
        await reader.close()
    }

    /// The library example of README.md, as printed there, then a check of what it wrote.
    @Test("README: a link written and read through the tag of any kind; errors of two modules in one catch")
    func readmeExample() async throws {
        var printed: [String] = []
        let print: (Any) -> Void = { printed.append("\($0)") }
        // Example begin
        let reader = try await openReader("sim:ntag215")  // or "pcsc:0", "libnfc:pn532_uart:/dev/ttyUSB0"
        let session = NFCTagReaderSession(reader: reader)
        do {
            let tag = try await session.nextTag(timeout: .seconds(5))  // any NFCNDEFTag: polls, selects, identifies
            let link = try URIRecord(uri: "https://example.com").makeRecord()  // throws NDEFError
            try await tag.writeNDEF(NFCNDEFMessage(records: [link]))  // capacity-checked, tear-safe, verified
            print(try await tag.readNDEF())  // NDEF message, 1 record: ...
        } catch let error as any NDEFToolError {  // the errors of every module
            print("\(error.code): \(error.reason)")  // tag-size-too-small: ..., timeout: ...
        }
        await session.invalidate()
        // Example end
        await reader.close()
        // The message read back, as print shows it; no error was caught.
        let link = try URIRecord(uri: "https://example.com").makeRecord()
        #expect(printed == ["\(NFCNDEFMessage(records: [link]))"])
        #expect(printed.first?.hasPrefix("NDEF message, 1 record:\n  1. ") == true)
    }

    @Test("URLs are parsed by their backend; an unknown scheme names none of them")
    func parsing() throws {
        guard case .simulated(let url, let text) = try NFCReaderAddress(parsing: "sim:ntag213") else {
            Issue.record("not a simulated reader")
            return
        }
        #expect(text == "sim:ntag213" && "\(url)".hasPrefix("sim:ntag213"))
        guard case .pcsc = try NFCReaderAddress(parsing: "PCSC:ACR122U") else {
            Issue.record("not a PC/SC reader")
            return
        }
        #expect(NFCReaderAddress.hasKnownScheme("libnfc:pn532_uart:/dev/ttyUSB0"))
        #expect(!NFCReaderAddress.hasKnownScheme("usb:1"))
        #expect(throws: NFCReaderError(.invalidParameter, "")) { try NFCReaderAddress(parsing: "usb:1") }
        #expect(throws: NFCReaderError(.invalidParameter, "")) { try NFCReaderAddress(parsing: "sim:no-such-chip") }
    }

    @Test("Opening a URL that names no reader fails with the parse error, before any I/O")
    func badURL() async {
        await #expect(throws: NFCReaderError(.invalidParameter, "")) { _ = try await openReader("bluetooth:x") }
    }
}
