import BenchmarkSupport
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
    var prepare: (@Sendable (any NFCNDEFTag) async throws -> Void)?
    /// The operation: runs on the tag the session hands out, after identification.
    var operation: @Sendable (any NFCNDEFTag) async throws -> Void
    /// Checks the tag afterwards, from the simulator's state; returns what is wrong, or nil.
    var verify: @Sendable (SimulatedField) -> String?
    /// The theoretical minimum, with its derivation.
    var minimum: CommandBudget
    /// What nfcpy 1.0.4 sends for the same operation, derived from its source; nil when there is
    /// nothing to compare.
    var reference: CommandBudget?
}

extension NFCNDEFTag {
    /// The Type 2 tag, or a failure.
    func type2() throws(BenchmarkFailure) -> NFCMiFareTag {
        guard let tag = self as? NFCMiFareTag else { throw BenchmarkFailure("expected a Type 2 tag") }
        return tag
    }

    /// The Type 4 tag, or a failure.
    func type4() throws(BenchmarkFailure) -> NFCISO7816Tag {
        guard let tag = self as? NFCISO7816Tag else { throw BenchmarkFailure("expected a Type 4 tag") }
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

/// The Type 4 operations: `sim:type4` (a factory NTAG 424 DNA: MLe 256, MLc 255, NLEN 0).
extension TagBenchmark {
    /// The Type 4 operations, in the order of the table.
    static let type4: [TagBenchmark] = [
        type4Write(id: "write-type4", label: "T4 write+verify 100 bytes, MLc 255", url: "sim:type4", mlc: 255),
        type4Write(
            id: "write-type4-mlc59", label: "T4 write+verify 100 bytes, MLc 59", url: "sim:type4?mlc=59", mlc: 59),
    ]

    /// `writeNDEF` of a 100-byte URI message (it reads the NDEF file back).
    static func type4Write(id: String, label: String, url: String, mlc: Int) -> TagBenchmark {
        let message = BenchmarkMessages.uri(length: 100)
        return TagBenchmark(
            id: id, label: label, url: url,
            operation: { (tag: any NFCNDEFTag) async throws -> Void in try await tag.type4().writeNDEF(message) },
            verify: { (field: SimulatedField) -> String? in
                field.firstType4Message == message ? nil : "the NDEF file does not hold the message"
            },
            minimum: MinimumBudgets.type4Write(messageLength: 100, mlc: mlc, mle: 256),
            reference: NfcpyReference.type4Write(messageLength: 100, mlc: mlc, mle: 256))
    }
}
