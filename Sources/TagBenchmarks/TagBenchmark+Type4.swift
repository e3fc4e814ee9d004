import BenchmarkSupport
import NDEF
import NFCSession
import TagSimulator

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
            operation: { (tag: NFCTag) async throws -> Void in try await tag.type4().writeNDEF(message) },
            verify: { (field: SimulatedField) -> String? in
                field.firstType4Message == message ? nil : "the NDEF file does not hold the message"
            },
            minimum: MinimumBudgets.type4Write(messageLength: 100, mlc: mlc, mle: 256),
            reference: NfcpyReference.type4Write(messageLength: 100, mlc: mlc, mle: 256))
    }
}
