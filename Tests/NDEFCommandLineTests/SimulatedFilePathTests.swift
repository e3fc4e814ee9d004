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

    @Test("file= naming a FIFO: refused at once as not a regular file (65), never waiting for a writer")
    func fifoAsTagFile() async throws {
        let folder = try TemporaryDirectory("sim-fifo")
        let fifo = folder.path("tag.nfc")
        #expect(mkfifo(fifo, 0o600) == 0)
        let result = try await BinaryRunner.run(
            ["read", "--reader", "sim:ntag215?file=\(fifo)"], timeout: .seconds(60))
        #expect(result.status == 65, "\(result.error)")
        #expect(result.error.contains("is not a regular file"), "\(result.error)")
        folder.remove()
    }
}
