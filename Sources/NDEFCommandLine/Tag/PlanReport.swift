import HexText
import NDEF
import TagInspection
import TagMemory

/// A plan of writes as `--dry-run` shows it: one line per Type 2 WRITE with the page, the four
/// bytes and why (NFC Forum Type 2 Tag 1.1, 5.2), or per Type 4 UPDATE BINARY with the file,
/// the offset, the bytes and the command APDU (Type 4 Tag 3.0, 5.4.4), or as JSON. Password
/// bytes would be shown as `**` (``TagMemory/PlanStep/displayedData``); no plan shown here
/// carries one.
struct PlanReport: Encodable {
    /// One page write or UPDATE BINARY.
    struct Step: Encodable {
        /// The page of a Type 2 write; the offset in ``file`` of a Type 4 one.
        var page: Int
        /// The bytes as lower-case hex, or `**` per byte for a secret.
        var data: String
        var reason: String
        /// The Type 4 file (`E104`); nil for a Type 2 page write.
        var file: String?
        /// The UPDATE BINARY command APDU of a Type 4 step, as lower-case hex.
        var apdu: String?

        private enum CodingKeys: String, CodingKey { case page, file, offset, data, apdu, reason }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let file {
                try container.encode(file, forKey: .file)
                try container.encode(page, forKey: .offset)
            } else {
                try container.encode(page, forKey: .page)
            }
            try container.encode(data, forKey: .data)
            try container.encodeIfPresent(apdu, forKey: .apdu)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// The writes, in the order they would be sent.
    var steps: [Step]

    /// The report of `plan`.
    init(_ plan: TagWritePlan) {
        steps = plan.steps.map {
            let apdu = $0.file == nil || $0.isSecret ? nil : (try? Type4Command.updateBinary($0)).map(\.bytes)
            return Step(
                page: $0.address,
                data: $0.isSecret ? String(repeating: "*", count: 2 * $0.data.count) : Hex.encode($0.data),
                reason: $0.reason,
                file: $0.file.map {
                    Hex.word($0)
                },
                apdu: apdu.map { Hex.encode($0) })
        }
        // People read bytes as every description writes them, upper case and spaced (`00 D6 00 0E 01 FF`);
        // JSON keeps its compact hex.
        lines = plan.steps.flatMap { step in
            let apdu = step.file == nil || step.isSecret ? nil : (try? Type4Command.updateBinary(step)).map(\.bytes)
            return ["  " + step.description]
                + (apdu.map { ["    APDU " + Hex.encode($0, uppercase: true, separator: " ")] } ?? [])
        }
    }

    /// The lines of text, indented by two spaces (a Type 4 step's APDU by four).
    let lines: [String]

    private enum CodingKeys: String, CodingKey { case steps }

    /// `3 page writes`, `2 UPDATE BINARY commands`.
    static func count(_ count: Int, _ unit: String) -> String {
        MessageDescription.count(count, unit)
    }

    /// `17 of 492 bytes used`.
    static func usage(_ used: Int, of capacity: Int) -> String {
        "\(used) of \(MessageDescription.count(capacity, "byte")) used"
    }
}
