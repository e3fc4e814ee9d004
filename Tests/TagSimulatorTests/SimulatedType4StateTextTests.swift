import Foundation
import NDEF
import NFCWireFormat
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Simulated Type 4 tag: saving and loading its state as text")
struct SimulatedType4StateTextTests {
    /// Fixtures/tags/type4/simulated-ntag424-uri-state.txt: a default tag holding the
    /// https://www.proxmark.com URI record, as stateText writes it.
    static let fixture: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "" }
        let directory = String(path[..<tests.lowerBound]) + "/Fixtures/tags/type4/"
        return (try? String(contentsOfFile: directory + "simulated-ntag424-uri-state.txt", encoding: .utf8)) ?? ""
    }()

    /// The fixture with the line starting with `key ` replaced by `line` (or removed when nil).
    static func edited(_ key: String, _ line: String?) -> String {
        var lines = fixture.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.firstIndex(where: { $0.hasPrefix(key + " ") || $0 == key }) {
            if let line { lines[index] = line } else { lines.remove(at: index) }
        }
        return lines.joined(separator: "\n")
    }

    @Test("T4T 3.0 5.1, 5.2: the saved text names the configuration, the CC file and the NDEF file")
    func writesFixture() throws {
        let tag = try SimulatedType4Tag(message: proxmarkMessage)
        #expect(!Self.fixture.isEmpty)
        #expect(tag.stateText == Self.fixture)
    }

    @Test(
        "looksLikeStateText: the first line that is not blank or a comment names the format",
        arguments: [
            ("ndeftool-type4-tag 1\n", true), ("# note\n\n  \t# more\r\nndeftool-type4-tag 2", true),
            ("ndeftool-type4-tag#", true), ("ndeftool-type4-tags 1", false), ("Filetype: Flipper NFC device", false),
            ("04 51 7C 57\n", false), ("# only a comment", false), ("", false),
        ])
    func looksLikeStateText(text: String, expected: Bool) {
        #expect(SimulatedType4Tag.looksLikeStateText(Array(text.utf8)) == expected)
    }

    @Test("The fixture looks like state text")
    func fixtureLooksLikeStateText() {
        #expect(SimulatedType4Tag.looksLikeStateText(Array(Self.fixture.utf8)))
    }

    @Test("T4T 3.0 5.2: the fixture loads as a powered-down tag holding its message")
    func loadsFixture() throws {
        var tag = try SimulatedType4Tag(stateText: Self.fixture)
        #expect(tag.configuration == SimulatedType4Tag.Configuration())
        #expect(tag.state == .idle)
        #expect(tag.totalCommandCount == 0)
        #expect(try tag.fileImages.ndefFile().message == proxmarkMessage)
        tag.select()
        #expect(tag.open(0xE104) == true)
        #expect(tag.send("00 B0 00 00 02") == hex("00 11 90 00"))
    }

    @Test(
        "Round trip: every configuration, a changed CC and bytes up to the file's end survive", arguments: type4Versions
    )
    func roundTrip(configuration: SimulatedType4Tag.Configuration) throws {
        var changed = configuration
        changed.isCapabilityContainerWritable = true
        changed.reportsEndOfFile = true
        changed.frameSize = 256
        changed.uid = hex("08 A1 B2 C3")
        var tag = try SimulatedType4Tag.active(changed, message: type4TextMessage(count: 40))
        let cc = try changed.capabilityContainer()
        #expect(tag.open(0xE103) == true)
        #expect(try SimulatedType4WriteTests.run(try cc.lockPlan(), on: &tag) == [.success])
        #expect(tag.open(cc.ndefFile.fileIdentifier) && tag.ndefFile.count > 100)
        tag.fieldOff()
        var last = tag.ndefFile
        last[last.count - 1] = 0xFF
        let loadedLast = try SimulatedType4Tag(
            stateText: try SimulatedType4Tag(configuration: changed, ndefFile: last).stateText)
        #expect(loadedLast.ndefFile == last)
        let loaded = try SimulatedType4Tag(stateText: tag.stateText)
        #expect(loaded.configuration == changed)
        #expect(loaded.capabilityContainerFile == tag.capabilityContainerFile)
        #expect(loaded.ndefFile == tag.ndefFile)
        #expect(loaded.stateText == tag.stateText)
        #expect(try loaded.fileImages.ndefFile().status.status == .readOnly)
    }

    @Test("Windows line ends and extra blanks load the same tag")
    func carriageReturns() throws {
        let text = Self.fixture.replacingOccurrences(of: "\n", with: " \r\n").replacingOccurrences(of: " ", with: "\t ")
        let tag = try SimulatedType4Tag(stateText: text)
        #expect(tag.ndefFile == (try SimulatedType4Tag(stateText: Self.fixture)).ndefFile)
    }

    @Test("Hostile text: every cut-off prefix of a saved tag is refused")
    func truncated() {
        let bytes = Array(Self.fixture.utf8)
        #expect(bytes.count > 100)
        for count in 0..<(bytes.count - 1) {
            let text = String(decoding: bytes.prefix(count), as: UTF8.self)
            #expect(throws: TagMemoryError(.malformedDump, ""), "\(count) bytes") {
                try SimulatedType4Tag(stateText: text)
            }
        }
    }

    @Test(
        "Hostile text: bad hex, bad numbers, unknown, repeated or missing lines and impossible values are refused",
        arguments: [
            ("uid", "uid 04 ZZ 6A 92 2F 61 80"), ("uid", "uid 04 3C 6A 92 2"), ("uid", "uid 04 3C 6A 92 2F"),
            ("uid", "uid"), ("mle", "mle 10000"), ("mle", "mle -1"), ("mle", "mle +1"), ("mle", "mle 0x10"),
            ("mle", "mle 000E"), ("mlc", "mlc 0000"), ("mapping-version", "mapping-version 40"),
            ("mapping-version", "mapping-version 20 30"), ("ndef-file", "ndef-file E103"),
            ("ndef-file-size", "ndef-file-size FFFFFFFF"), ("ndef-file-size", "ndef-file-size 123456789"),
            ("ndef-file-size", "ndef-file-size 00000010"), ("read-access", "read-access 01"),
            ("cc-writable", "cc-writable maybe"), ("frame-size", "frame-size 0008"),
            ("cc", "cc 00 0F 20 01 00 00 FF 04 06 E1 04 01 00 00 00 00"), ("cc", "cc 00 0F 20 01 00 00 FF 04 06 E1"),
            ("cc", nil), ("uid", nil), ("end", nil), ("end", "end now"), ("end", "end\nuid 04 3C 6A 92 2F 61 80"),
            ("end", "end\nend"), ("mlc", "mlc 00FF\nmlc 00FF"), ("mlc", "mlc 00FF\ncolour red"),
            ("ndeftool-type4-tag", "ndeftool-type4-tag 2"), ("ndeftool-type4-tag", nil), ("ndef", "ndef"),
        ])
    func hostile(key: String, line: String?) {
        let text = Self.edited(key, line)
        #expect(text != Self.fixture)
        #expect(throws: TagMemoryError(.malformedDump, "")) { try SimulatedType4Tag(stateText: text) }
    }

    @Test("Hostile text: empty, foreign, or NDEF bytes past the file or past 1 MiB are refused")
    func hostileSizes() {
        let tooLong = (0..<17).map { _ in "ndef " + String(repeating: "AB ", count: 16) }.joined(separator: "\n")
        let huge = "ndef " + String(repeating: "00", count: (1 << 20) + 1)
        for text in [
            "", "\n\n# only a comment\n", "hello", "ndeftool-type4-tag", Self.edited("ndef", tooLong),
            Self.edited("ndef", huge), String(repeating: "ndef 00\n", count: 3),
        ] {
            #expect(throws: TagMemoryError(.malformedDump, ""), "\(text.prefix(40))") {
                try SimulatedType4Tag(stateText: text)
            }
        }
    }
}
