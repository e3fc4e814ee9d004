import BenchmarkSupport
import PCSCReader
import SimulatorBridges

/// The table and the TSV lines of the PC/SC benchmark.
struct PCSCBenchmarkReport {
    var outcomes: [PCSCBenchmark.Outcome]
    var iterations: Int
    var floorSamples: Int
    var readerName: String

    /// The table for people.
    var table: String {
        var lines: [String] = []
        lines.append("Tag operations through the real pcscd and the vpcd card bridge (reader \"\(readerName)\"),")
        lines.append(
            "release build, simulated NTAG215 and MIFARE Classic 1K: APDUs through pcscd, commands the tag received, median wall"
        )
        lines.append("time of \(iterations) iterations, and APDUs x the floor (the median of \(floorSamples) GET DATA")
        lines.append("APDUs that pcscd and the bridge answer without the tag, measured in the same run).")
        for outcome in outcomes {
            lines.append("")
            lines.append(
                "\(outcome.card.rawValue), profile \(outcome.profile.backend.rawValue) (card plays "
                    + "\(outcome.profile.card.name)): floor \(Statistics.formatMilliseconds(outcome.floorMilliseconds)) per APDU"
            )
            lines.append(
                Statistics.pad("operation", 30, left: true) + Statistics.pad("APDUs", 6)
                    + Statistics.pad("tag cmds", 9) + Statistics.pad("median", 12) + Statistics.pad("APDUs x floor", 15)
                    + "   commands in order")
            for operation in outcome.operations {
                let floor = Double(operation.apdus) * outcome.floorMilliseconds
                lines.append(
                    Statistics.pad(operation.label, 30, left: true) + Statistics.pad("\(operation.apdus)", 6)
                        + Statistics.pad("\(operation.tally.total)", 9)
                        + Statistics.pad(Statistics.formatMilliseconds(operation.medianMilliseconds), 12)
                        + Statistics.pad(Statistics.formatMilliseconds(floor), 15) + "   "
                        + (operation.tally.total == 0 ? "-" : operation.tally.sequenceDescription))
            }
        }
        lines.append("")
        lines.append("APDUs above tag commands: the session's GET DATA (UID, ATS) and, for pcsc-transparent, the")
        lines.append("Manage Session APDUs that start and end the transparent session; the generic profile")
        lines.append("has no FAST_READ or GET_VERSION and reads 4 pages per READ BINARY. A MIFARE Classic")
        lines.append("authentication is two APDUs (LOAD KEYS into slot 00, GENERAL AUTHENTICATE; PC/SC Part 3")
        lines.append("3.2.2.1), READ and WRITE one each (READ BINARY, UPDATE BINARY of 16 bytes).")
        return lines.joined(separator: "\n")
    }

    /// Tab-separated lines: `floor-ms PROFILE MS`, then `operation PROFILE LABEL APDUS COMMANDS MS`.
    var tsv: String {
        var lines: [String] = []
        for outcome in outcomes {
            let profile =
                outcome.card == .ntag215
                ? outcome.profile.backend.rawValue : outcome.profile.backend.rawValue + "-classic"
            lines.append("floor-ms\t\(profile)\t\(outcome.floorMilliseconds)")
            for operation in outcome.operations {
                lines.append(
                    "operation\t\(profile)\t\(operation.label)\t\(operation.apdus)\t\(operation.tally.total)\t"
                        + "\(operation.medianMilliseconds)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
