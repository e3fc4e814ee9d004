import Foundation
import TestSupport
import Testing

/// A simulated tag's `file=` is a path to a regular file, read and written as given: a NUL or
/// another control character, which would cut the path short and reach another file, is
/// refused, and so is a FIFO, which would hang the open for ever (through the built binary).
@Suite(.timeLimit(.minutes(3))) struct SimulatedFilePathTests {
    @Test("file=victim%00.json: 64, naming the control character; victim is neither read nor written")
    func controlCharacterInPath() async throws {
        let folder = try TemporaryDirectory("sim-path")
        let victim = try folder.file("victim", text: "keep me")
        for encoded in ["%00.json", "%0A.json", "%1B"] {
            let result = try await BinaryRunner.run(
                ["write", "text", "x", "--reader", "sim:ntag215?file=\(victim)\(encoded)"])
            #expect(result.status == 64, "\(encoded): \(result.error)")
            #expect(result.error.contains("the value holds a control character"), "\(result.error)")
        }
        #expect(try folder.read("victim") == Array("keep me".utf8))
        #expect(try folder.contents() == ["victim"])
        folder.remove()
    }

    @Test("file= in a folder that does not exist: 66 when the reader opens, not a lost reader at the first write")
    func missingFolder() async throws {
        let folder = try TemporaryDirectory("sim-missing")
        defer { folder.remove() }
        let path = folder.path("absent/tag.nfc")
        let result = try await BinaryRunner.run(["write", "text", "x", "--reader", "sim:ntag215?file=\(path)"])
        #expect(result.status == 66, "\(result.error)")
        #expect(
            result.error.contains("opening the reader sim:ntag215?file=\(path): the folder of the tag file"),
            "\(result.error)")
        #expect(try folder.contents().isEmpty)
    }

    @Test("file= naming a regular file over 8 MiB (a sparse one): 65, the file is larger than any tag file")
    func oversizedTagFile() async throws {
        let folder = try TemporaryDirectory("sim-large")
        let path = try folder.file("tag.nfc", [])
        #expect(truncate(path, off_t(8 << 20) + 1) == 0)
        let result = try await BinaryRunner.run(["read", "--reader", "sim:ntag215?file=\(path)"])
        #expect(result.status == 65, "\(result.error)")
        #expect(result.error.contains("is larger than the"), "\(result.error)")
        folder.remove()
    }

    @Test("file= naming a symbolic link: written through it, the link stays a link to the tag's file")
    func symbolicLinkIsWrittenThrough() async throws {
        let folder = try TemporaryDirectory("sim-link")
        let target = folder.path("tags/tag.nfc")
        try FileManager.default.createDirectory(atPath: folder.path("tags"), withIntermediateDirectories: false)
        let link = folder.path("link.nfc")
        #expect(symlink(target, link) == 0)
        let write = try await BinaryRunner.run([
            "write", "uri", "https://example.com", "--reader", "sim:ntag215?file=\(link)",
        ])
        #expect(write.status == 0, "\(write.error)")
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link was replaced by a file")
        #expect(FileManager.default.fileExists(atPath: target))
        let read = try await BinaryRunner.run(["read", "--hex", "--reader", "sim:ntag215?file=\(target)"])
        #expect(read.outputText == "d1010c55046578616d706c652e636f6d\n", "\(read.error)")
        #expect(try folder.contents().sorted() == ["link.nfc", "tags"])
        folder.remove()
    }

    @Test("A supply's folder that does not exist is found when the reader opens: 66, nothing written")
    func missingSupplyFolder() async throws {
        let folder = try TemporaryDirectory("sim-supply")
        let result = try await BinaryRunner.run([
            "write", "uri", "https://example.com", "--reader", "sim:ntag215?supply=2&file=\(folder.path("none"))/",
            "--wait", "0",
        ])
        #expect(result.status == 66, "\(result.error)")
        #expect(result.error.contains("the supply folder"), "\(result.error)")
        #expect(!result.error.contains("WRITE"))
        let file = try folder.file("plain", text: "")
        let notFolder = try await BinaryRunner.run([
            "write", "uri", "https://example.com", "--reader", "sim:ntag215?supply=2&file=\(file)/", "--wait", "0",
        ])
        #expect(notFolder.status == 66, "\(notFolder.error)")
        folder.remove()
    }

    @Test("A FIFO as a sim: tag file (65), a dump to inspect (65) or the last-reader file (ignored): never waited on")
    func fifosAreNotWaitedOn() async throws {
        let folder = try TemporaryDirectory("sim-fifo")
        for name in ["tag.nfc", "dump.bin", "config/ndeftool/last-reader"] {
            try FileManager.default.createDirectory(
                atPath: folder.path("config/ndeftool"), withIntermediateDirectories: true)
            #expect(mkfifo(folder.path(name), 0o600) == 0, "\(name)")
        }
        let result = try await BinaryRunner.run(
            ["read", "--reader", "sim:ntag215?file=\(folder.path("tag.nfc"))"], timeout: .seconds(60))
        #expect(result.status == 65, "\(result.error)")
        #expect(result.error.contains("is not a regular file"), "\(result.error)")
        let inspect = try await BinaryRunner.run(["inspect", folder.path("dump.bin")], timeout: .seconds(60))
        #expect(inspect.status == 65, "\(inspect.error)")
        #expect(inspect.error.contains("it is a FIFO, not a regular file"), "\(inspect.error)")
        let read = try await BinaryRunner.run(
            ["read", "--wait", "0"], environment: ["XDG_CONFIG_HOME": folder.path("config"), "NDEFTOOL_READER": ""],
            timeout: .seconds(60))
        #expect([64, 69, 75].contains(read.status), "\(read.error)")  // no reader, several, or no tag
        folder.remove()
    }
}
