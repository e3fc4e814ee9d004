import Foundation
import Testing

/// Tags that leave, readers that are not there, several tags at once: exit statuses 64, 69, 75
/// and 80, with what to do next.
@Suite(.timeLimit(.minutes(5))) struct TagFaultTests {
    static let message = ["uri", "https://example.com/a-longer-address", "text", "Hello there"]

    /// The tag leaves during the 5th command: GET_VERSION, two FAST_READs, then the second
    /// page WRITE of the message, after the length was set to 0 (T2T 1.1, 6.4.3).
    @Test func interruptedWriteThenResume() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://old.example"]).status == 0)
        let interrupted = try await tag.run(["write"] + Self.message, faults: "&remove-after=5")
        #expect(interrupted.status == 80)
        #expect(interrupted.error.contains("(tag-connection-lost)"))
        #expect(interrupted.error.contains("The tag may be half-written."))
        let hint =
            "ndeftool write uri https://example.com/a-longer-address text 'Hello there' --reader '"
            + tag.reader() + "' --wait 0 --resume"
        #expect(interrupted.error.contains(hint), "\(interrupted.error)")
        #expect(!interrupted.error.contains("remove-after"))
        // Torn at that point the tag holds an empty message, never a mix.
        #expect(try await tag.run(["read", "--hex"]).outputText == "\n")

        let resumed = try await tag.run(["write"] + Self.message + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.error)")
        #expect(resumed.outputText.hasPrefix("Completed the write to tag "))
        let read = try await tag.run(["read"])
        #expect(read.outputText.contains("  URI: https://example.com/a-longer-address\n"))
        #expect(read.outputText.contains("  Text (en): \"Hello there\"\n"))
    }

    @Test func tagLeavingBeforeAnyWriteIsTryAgain() async throws {
        let tag = try SimulatedTagFile()
        let result = try await tag.run(["write"] + Self.message, faults: "&remove-after=3")
        #expect(result.status == 75)
        #expect(result.error.contains("Nothing was changed"))
        #expect(tag.contents().isEmpty)
    }

    @Test func twoTagsInTheField() async throws {
        let tag = try SimulatedTagFile()
        let result = try await tag.run(["write", "uri", "https://example.com"], faults: "&second-tag=1")
        #expect(result.status == 81)
        #expect(result.error.contains("Several tags in the field: remove all but one.\n"))
        #expect(result.error.contains("(multiple-tags-found)"))
        #expect(tag.contents().isEmpty)
        let waited = try await BinaryRunner.run(
            ["read", "--reader", tag.reader("&second-tag=1"), "--wait", "0.3"], environment: ["NDEFTOOL_READER": ""])
        #expect(waited.status == 81)
        #expect(waited.error.contains("for all of 0.3 seconds"))
    }

    @Test func noTagInTime() async throws {
        let tag = try SimulatedTagFile()
        let result = try await tag.run(["read"], faults: "&remove-after=0")
        #expect(result.status == 75)
        #expect(result.error.contains("no tag was at the reader (timeout)"))
    }

    @Test(arguments: [
        // No reader at all: 69; the test run's pcscd (NDEFTOOL_PCSCD=1) has several: a usage error.
        (["read"], ProcessInfo.processInfo.environment["NDEFTOOL_PCSCD"] == "1" ? 64 : 69, "No reader given"),
        (["read", "--reader", "pcsc:ACS ACR122U", "--wait", "0"], 69, "opening the PC/SC reader pcsc:ACS ACR122U"),
        (
            ["info", "--reader", "libnfc:pn532_uart:/nonexistent/ttyUSB0"], 69,
            "opening the libnfc device libnfc:pn532_uart:/nonexistent/ttyUSB0: libnfc could not open the device"
        ),
        (["read", "--reader", "usb:0"], 64, "a reader is sim:CHIP, pcsc:NAME or libnfc:CONNSTRING"),
        (["read", "--reader", "sim:ntag999"], 64, "chip \"ntag999\" is not one the simulator has"),
        (["read", "--reader", "sim:ntag215?remove-after=x"], 64, "remove-after=x"),
        (["read", "--reader", "sim:ntag215", "--wait", "soon"], 64, "--wait <seconds>"),
        (["read", "--reader", "sim:ntag215?file=/dev/zero"], 65, "the tag file /dev/zero is not a regular file"),
    ])
    func readerErrors(arguments: [String], status: Int32, message: String) async throws {
        // No remembered reader: the configuration folder does not exist.
        let result = try await BinaryRunner.run(
            arguments, environment: ["NDEFTOOL_READER": "", "XDG_CONFIG_HOME": "/nonexistent/ndeftool-tests"])
        #expect(result.status == status)
        #expect(result.error.contains(message), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test func readerFromTheEnvironment() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let result = try await BinaryRunner.run(
            ["read", "--hex", "--wait", "0"], environment: ["NDEFTOOL_READER": tag.reader()])
        #expect(result.status == 0)
        #expect(result.outputText == "d1010c55046578616d706c652e636f6d\n")
        // A PC/SC reader that is not there (or pcscd not running): unavailable.
        let unavailable = try await BinaryRunner.run(
            ["read", "--wait", "0"], environment: ["NDEFTOOL_READER": "pcsc:No Such Reader"])
        #expect(unavailable.status == 69)
    }

    @Test func aTagFileOfAnotherChipIsRefused() async throws {
        let tag = try SimulatedTagFile()
        #expect(try await tag.run(["write", "uri", "https://example.com"]).status == 0)
        let result = try await BinaryRunner.run(["read", "--reader", "sim:ntag213?file=\(tag.path)", "--wait", "0"])
        #expect(result.status == 64)
        #expect(result.error.contains("NTAG215"))
    }
}
