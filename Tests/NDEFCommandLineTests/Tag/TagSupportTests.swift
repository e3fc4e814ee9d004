import CommandLineKit
import LibNFCReader
import NFCReaders
import NFCSession
import PCSCReader
import SimulatedReader
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The pieces of the tag commands that need no tag: exit statuses, command lines shown for the
/// next step, message input detection, reader addresses.
@Suite struct TagSupportTests {
    /// Every session error code and the exit status it has (the one table of ``TagFailure``).
    static let exitStatuses: [(NFCReaderError.Code, Int32)] = [
        (NFCReaderError.Code.readerUnavailable, Int32(69)),
        (.unsupportedFeature, 69),
        (.invalidParameter, 64),
        (.timeout, 75),
        (.cancelled, 130),
        (.multipleTagsFound, 81),
        (.tagNotSupported, 76),
        (.tagConnectionLost, 75),
        (.tagResponseError, 76),
        (.tagNotWritable, 77),
        (.tagSizeTooSmall, 73),
        (.tagUpdateFailure, 80),
        (.zeroLengthMessage, 65),
        (.invalidMessage, 76),
        (.authenticationRequired, 78),
        (.authenticationFailed, 78),
        (.passwordDisabled, 78),
        (.confirmationMismatch, 79),
        (.passwordAcknowledgeMismatch, 78),
        (.invalidTagFile, 65),
        (.tagFolderMissing, 66),
    ]

    @Test(arguments: exitStatuses)
    func exitStatus(code: NFCReaderError.Code, status: Int32) {
        #expect(TagFailure.status(for: code).rawValue == status)
        #expect(TagFailure.error(NFCReaderError(code, "x"), while: "reading").status.rawValue == status)
    }

    @Test func everyCodeIsInTheTable() {
        #expect(Set(Self.exitStatuses.map(\.0)) == Set(NFCReaderError.Code.allCases))
    }

    @Test func halfWrittenIsIncompleteWhateverTheCode() {
        let error = NFCReaderError(.tagConnectionLost, "gone", mayBeHalfWritten: true)
        let failure = TagFailure.error(error, while: "writing the message", resume: "ndeftool write uri x --resume")
        #expect(failure.status == .incompleteWrite)
        #expect(
            failure.message == """
                writing the message: gone (tag-connection-lost)
                The tag may be half-written. To complete the change, hold the tag to the reader again and run:
                  ndeftool write uri x --resume
                """)
    }

    @Test func shellQuoting() {
        #expect(ShellQuoting.word("https://example.com/a?b=c") == "'https://example.com/a?b=c'")
        #expect(ShellQuoting.word("sim:ntag215") == "sim:ntag215")
        #expect(ShellQuoting.word("it's") == #"'it'\''s'"#)
        #expect(ShellQuoting.word("") == "''")
        #expect(ShellQuoting.line(["ndeftool", "write", "text", "Hello there"]) == "ndeftool write text 'Hello there'")
    }

    @Test func resumeCommandDropsTheLockAndTheFaults() {
        let arguments = [
            "write", "text", "Hi", "--lock", "--confirm", "123-456", "--reader",
            "sim:ntag215?file=/tmp/t.nfc&remove-after=5&in-flight=tear", "--wait", "2",
        ]
        #expect(
            WriteCommand.resumeCommand(arguments, resumes: false)
                == "ndeftool write text Hi --reader 'sim:ntag215?file=/tmp/t.nfc' --wait 2 --resume")
        #expect(
            LockFlow.lockCommand(arguments, code: "123-456")
                == "ndeftool lock --reader 'sim:ntag215?file=/tmp/t.nfc' --wait 2 --confirm 123-456")
        #expect(
            LockFlow.lockCommand(["lock", "--reader=pcsc:ACR 122", "--json"], code: nil)
                == "ndeftool lock '--reader=pcsc:ACR 122'")
        #expect(RepeatCommand.withoutFaults("sim:ntag213?second-tag=1") == "sim:ntag213")
        #expect(RepeatCommand.withoutFaults("sim:NTAG213?file=a.nfc") == "sim:NTAG213?file=a.nfc")
    }

    @Test("A line shown keeps each option with its value: --signature-key FILE, every command's value options")
    func repeatedLinesKeepValues() {
        let line = RepeatCommand.line(
            [
                "batch", "uri", "https://x.test/{counter}", "--from", "1", "--to", "3", "--require-genuine",
                "--signature-key", "key.der", "--reader", "sim:ntag215?supply=1&signal-after=9", "--journal",
                "j.journal",
            ], command: ["batch", "--resume", "j.journal"],
            keeping: ["--reader", "--signature-key"])
        #expect(line == "ndeftool batch --resume j.journal --signature-key key.der --reader 'sim:ntag215?supply=1'")
        // `--resume` is a flag of write and takes a value in batch.
        let write = RepeatCommand.line(["write", "--resume", "uri", "https://x.test", "--reader", "sim:ntag215"])
        #expect(write == "ndeftool write --resume uri https://x.test --reader sim:ntag215")
        let resume = RepeatCommand.line(["batch", "--resume", "j.journal", "--wait", "2"], keeping: ["--wait"])
        #expect(resume == "ndeftool --wait 2")
        // Every value option of every command, from its definition.
        func check(_ command: CommandSpec, _ words: [String]) {
            let names = RepeatCommand.valueOptions(in: words)
            for option in command.options where option.valueName != nil {
                #expect(names.contains("--" + option.long), "\(words): --\(option.long)")
            }
            for option in command.options where option.valueName == nil {
                #expect(!names.contains("--" + option.long), "\(words): --\(option.long) is a flag")
            }
            for subcommand in command.subcommands { check(subcommand, words + [subcommand.name]) }
        }
        check(RootCommand.spec, [])
    }

    @Test func messageInputDetection() throws {
        let uri = hex("d1010c55046578616d706c652e636f6d")
        let binary = try MessageInput.decode(detecting: uri, source: "x")
        let hex = try MessageInput.decode(
            detecting: Array("# a comment\nd1010c55 046578616d706c652e636f6d\n".utf8), source: "x")
        let json = try MessageInput.decode(
            detecting: Array(#"  {"records":[{"tnf":1,"type":"U","payloadHex":"046578616d706c652e636f6d"}]}"#.utf8),
            source: "x")
        #expect(binary == hex)
        #expect(binary == json)
        for (input, message) in [("", "(empty-input)"), ("zz", "invalid hex"), ("{", "invalid JSON message")] {
            let error = #expect(throws: CommandLineError.self) {
                try MessageInput.decode(detecting: Array(input.utf8), source: "x")
            }
            #expect(error?.status == .dataError)
            #expect(error?.message.contains(message) == true, "\(String(describing: error))")
        }
    }

    @Test func readerAddresses() throws {
        #expect(
            try ReaderAddress(parsing: "pcsc:ACS ACR122U", origin: "--reader")
                == .pcsc(PCSCReaderURL(selector: .name("ACS ACR122U")), text: "pcsc:ACS ACR122U"))
        guard case .pcsc(let indexed, _) = try ReaderAddress(parsing: "pcsc:1?profile=acr122u", origin: "--reader")
        else {
            Issue.record("not a PC/SC reader")
            return
        }
        #expect(indexed == PCSCReaderURL(selector: .index(1), profile: .acr122u))
        let badProfile = #expect(throws: CommandLineError.self) {
            try ReaderAddress(parsing: "pcsc:?profile=omnikey", origin: "--reader")
        }
        #expect(badProfile?.status == .usage)
        #expect(try ReaderAddress(parsing: "libnfc:", origin: "--reader") == .libnfc(LibNFCReaderURL()))
        #expect(
            try ReaderAddress(parsing: "libnfc:pn532_uart:/dev/ttyUSB0", origin: "--reader")
                == .libnfc(LibNFCReaderURL(selector: .connstring("pn532_uart:/dev/ttyUSB0"))))
        let badDriver = #expect(throws: CommandLineError.self) {
            try ReaderAddress(parsing: "libnfc:ttyUSB0", origin: "--reader")
        }
        #expect(badDriver?.status == .usage)
        #expect(badDriver?.message.contains("libnfc has no driver \"ttyUSB0\"") == true)
        guard case .simulated(let url, _) = try ReaderAddress(parsing: "sim:ntag213?file=t.nfc", origin: "--reader")
        else {
            Issue.record("not a simulated reader")
            return
        }
        #expect(url.filePath == "t.nfc")
        let error = #expect(throws: CommandLineError.self) {
            try ReaderAddress(parsing: "ntag215", origin: "--reader")
        }
        #expect(error?.status == .usage)
    }

    @Test func waitOption() async {
        let result = await runInProcess(["read", "--reader", "sim:ntag215", "--wait", "nan"])
        #expect(result.status == 64)
        #expect(result.error.contains("expected a number of seconds from 0 to 3600"))
        #expect(TagConnection.seconds(.milliseconds(1500)) == "1.5 seconds")
        #expect(TagConnection.seconds(.seconds(1)) == "1 second")
    }

    /// In process (no terminal, no environment): a fresh simulated tag reads as empty.
    @Test func inProcessReadOfAFactoryTag() async {
        let result = await runInProcess(["read", "--json", "--reader", "sim:ntag213", "--wait", "0"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.outputText == "{\n  \"records\" : [\n\n  ]\n}\n")
    }
}
