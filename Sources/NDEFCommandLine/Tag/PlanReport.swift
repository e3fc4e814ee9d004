import NDEF
import TagMemory

/// A plan of page writes as `--dry-run` shows it: one line per WRITE with the page, the four
/// bytes and why (NFC Forum Type 2 Tag 1.1, 5.2), or as JSON. Password bytes would be shown
/// as `**` (``TagMemory/PlanStep/displayedData``); no plan shown here carries one.
struct PlanReport: Encodable {
    /// One page write.
    struct Step: Encodable {
        var page: Int
        /// The bytes as lower-case hex, or `**` per byte for a secret.
        var data: String
        var reason: String
    }

    /// The writes, in the order they would be sent.
    var steps: [Step]

    /// The report of `plan`.
    init(_ plan: TagWritePlan) {
        steps = plan.steps.map {
            Step(
                page: $0.address,
                data: $0.isSecret ? String(repeating: "*", count: 2 * $0.data.count) : NDEFHex.encode($0.data),
                reason: $0.reason)
        }
        lines = plan.steps.map { "  " + $0.description }
    }

    /// The lines of text, indented by two spaces.
    let lines: [String]

    private enum CodingKeys: String, CodingKey { case steps }

    /// `17 of 492 bytes used`.
    static func usage(_ used: Int, of capacity: Int) -> String {
        "\(used) of \(MessageDescription.count(capacity, "byte")) used"
    }
}
