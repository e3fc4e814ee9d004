import Foundation
import NDEF
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// nfcpy 1.0.4 (an independent PN532 driver and NDEF implementation) against
/// ``PN532SerialSimulator``, through `Scripts/lib/nfcpy-tag.py`: it reads what this project's
/// write plans put on a tag, and what it writes is found where the NFC Forum mappings say.
///
/// Runs when `NDEFTOOL_NFCPY_PYTHON` names a Python with nfcpy installed (`Scripts/test` installs
/// nfcpy 1.0.4 in .build/nfcpy-venv, Scripts/lib/nfcpy.sh); skipped otherwise, saying so.
@Suite(.enabled(if: NfcpyPython.path != nil, NfcpyPython.skipNote), .timeLimit(.minutes(3)))
struct PN532NfcpyTests {
    /// A URI record, https://www.proxmark.com (NFC Forum URI RTD 1.0, prefix 02).
    static let message = hex("D1010D550270726F786D61726B2E636F6D")

    /// `Scripts/lib/nfcpy-tag.py`, found from this file's path.
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scripts/lib/nfcpy-tag.py").path
    }

    /// Runs the script with `arguments` and returns the message it read or wrote (the "message"
    /// of its JSON answer, hex), failing the test when it does not succeed.
    static func nfcpy(_ arguments: [String]) async throws -> String {
        let python = try #require(NfcpyPython.path)
        let process = try ChildProcess(path: python, [script] + arguments)
        let result = await process.finish(timeout: .seconds(120))
        let text = result.outputText + result.error
        #expect(result.shellStatus == 0, "\(text)")
        let line = result.outputText.split(separator: "\n").first { $0.hasPrefix("{") } ?? ""
        let answer = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return (answer?["message"] as? String ?? "").uppercased()
    }

    /// A started simulator over `tag`, with a link in `directory`.
    static func serve(_ tag: SimulatedTag, in directory: TemporaryDirectory) throws -> (PN532SerialSimulator, String) {
        let link = directory.path("pn532")
        let simulator = try PN532SerialSimulator(reader: SimulatedReader(tag: tag), linkPath: link)
        try simulator.start()
        return (simulator, link)
    }

    @Test("nfcpy reads the message this project's Type 2 write plan put on an NTAG215")
    func readsOurType2Message() async throws {
        var tag = SimulatedType2Tag(chip: .ntag215)
        var field = SimulatedField(.type2(tag))
        field.select(uid: tag.uid)
        for step in try tag.memory.writePlan(messageBytes: Self.message).steps {
            _ = field.transceive([0xA2, UInt8(step.address)] + step.data)
        }
        tag = try #require(field.tags.first?.type2Tag)
        let directory = try TemporaryDirectory("nfcpy")
        let (simulator, link) = try Self.serve(.type2(tag), in: directory)
        defer { simulator.stop() }
        #expect(try await Self.nfcpy([link, "read"]) == hexText(Self.message))
    }

    @Test("What nfcpy writes on an NTAG215 is the NDEF Message TLV of the tag memory")
    func writesType2() async throws {
        let directory = try TemporaryDirectory("nfcpy")
        let (simulator, link) = try Self.serve(.type2(SimulatedType2Tag(chip: .ntag215)), in: directory)
        defer { simulator.stop() }
        #expect(try await Self.nfcpy([link, "write", hexText(Self.message)]) == hexText(Self.message))
        let memory = try #require(simulator.reader.field.tags.first?.type2Tag?.memory)
        let tlv = try #require(memory.ndefTLV)
        #expect(tlv.valueRanges.flatMap { Array(memory.bytes[$0]) } == Self.message)
    }

    @Test("nfcpy reads and writes a Type 4 tag through ISO-DEP blocks (its own RATS and chaining)")
    func type4() async throws {
        let tag = try SimulatedType4Tag(message: try NFCNDEFMessage(decoding: Self.message))
        let directory = try TemporaryDirectory("nfcpy")
        let (simulator, link) = try Self.serve(.type4(tag), in: directory)
        defer { simulator.stop() }
        #expect(try await Self.nfcpy([link, "read"]) == hexText(Self.message))
        // A message longer than a frame: nfcpy chains its UPDATE BINARY and the answers chain back.
        let text200 = hex("D1 01 C8 54 02 656E") + [UInt8](repeating: 0x41, count: 197)
        #expect(try await Self.nfcpy([link, "write", hexText(text200)]) == hexText(text200))
        let file = try #require(simulator.reader.field.tags.first?.type4Tag?.fileImages.files[0xE104])
        #expect(Array(file.prefix(2)) == [0x00, UInt8(text200.count)])
        #expect(Array(file.dropFirst(2).prefix(text200.count)) == text200)
    }
}

/// The Python with nfcpy that ``PN532NfcpyTests`` use, if one is named.
enum NfcpyPython {
    static let path = ProcessInfo.processInfo.environment["NDEFTOOL_NFCPY_PYTHON"]
    static let skipNote = Comment(
        rawValue: "SKIPPED: no nfcpy: "
            + (ProcessInfo.processInfo.environment["NDEFTOOL_NFCPY_SKIPPED"]
                ?? "set NDEFTOOL_NFCPY_PYTHON to a Python with nfcpy 1.0.4 (Scripts/test installs one)")
            + "; the cross-checks with nfcpy's PN532 driver and NDEF code did not run")
}
