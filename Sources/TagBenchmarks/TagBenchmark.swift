import NDEF
import NFCSession
import TagMemory
import TagSimulator

/// One tag operation measured through a `SimulatedReader`: the tag it starts from, what is done
/// to it, how the result is checked, and the counts it is compared with.
struct TagBenchmark: Sendable {
    /// A short name for the TSV output.
    var id: String
    /// The operation and the tag, for the table.
    var label: String
    /// The `sim:` URL of the reader and tag (latency is added by the runner).
    var url: String
    /// The reader's capabilities when they differ from the simulated reader's defaults.
    var capabilities: NFCReaderCapabilities?
    /// Brings the tag to the state the operation starts from, through the library, before the
    /// counts are reset and the clock starts (nil: a factory tag).
    var prepare: (@Sendable (NFCTag) async throws -> Void)?
    /// The operation: runs on the tag the session hands out, after identification.
    var operation: @Sendable (NFCTag) async throws -> Void
    /// Checks the tag afterwards, from the simulator's state; returns what is wrong, or nil.
    var verify: @Sendable (SimulatedField) -> String?
    /// The theoretical minimum, with its derivation.
    var minimum: CommandBudget
    /// What nfcpy 1.0.4 sends for the same operation, derived from its source; nil when there is
    /// nothing to compare.
    var reference: CommandBudget?
}

/// A benchmark that could not run or whose result is wrong.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

extension NFCTag {
    /// The Type 2 tag, or a failure.
    func type2() throws(BenchmarkFailure) -> NFCMiFareTag {
        guard case .miFare(let tag) = self else { throw BenchmarkFailure("expected a Type 2 tag") }
        return tag
    }

    /// The Type 4 tag, or a failure.
    func type4() throws(BenchmarkFailure) -> NFCISO7816Tag {
        guard case .iso7816(let tag) = self else { throw BenchmarkFailure("expected a Type 4 tag") }
        return tag
    }
}

extension SimulatedField {
    /// The memory of the first Type 2 tag, as a reader would parse it.
    var firstType2Memory: Type2Memory? {
        guard let tag = tags.first?.type2Tag else { return nil }
        return Type2Memory(bytes: tag.bytes, chip: tag.chip)
    }

    /// The NDEF message in the first Type 4 tag's NDEF file.
    var firstType4Message: NFCNDEFMessage? {
        guard let tag = tags.first?.type4Tag else { return nil }
        return try? tag.fileImages.ndefFile().message
    }
}

/// The messages the operations write and read.
enum TagBenchmarkMessages {
    /// A message of one URI record (NFC Forum URI RTD 1.0, prefix 04h `https://`) whose encoding
    /// is exactly `length` bytes: a short record (4 header bytes) up to 259 bytes, a long one
    /// (7 header bytes) beyond. `seed` changes every character of the path.
    static func uri(length: Int, seed: Int = 0) -> NFCNDEFMessage {
        let header = length - 4 <= 255 ? 4 : 7
        let host = Array("example.com/".utf8)
        let pathLength = max(0, length - header - 1 - host.count)
        let path = (0..<pathLength).map { UInt8(0x61 + (seed + $0) % 26) }
        return NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + host + path)
        ])
    }

    /// The encoded length of `message`, or -1 when it does not encode.
    static func encodedLength(_ message: NFCNDEFMessage) -> Int {
        (try? message.encoded().count) ?? -1
    }
}
