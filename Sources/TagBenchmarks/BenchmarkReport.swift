import BenchmarkSupport

/// The table and the TSV lines of a tag benchmark run.
struct BenchmarkReport {
    /// One operation's figures.
    struct Row {
        var benchmark: TagBenchmark
        var tally: CommandTally
        /// The median wall time for each latency (0 first), in milliseconds.
        var medians: [(latency: Int, milliseconds: Double)]
    }

    var rows: [Row]
    var latencies: [Int]
    var plainIterations: Int
    var latencyIterations: Int

    /// The table for people, with the derivations under it.
    var table: String {
        var lines: [String] = []
        lines.append(
            "Tag operations through SimulatedReader, release build: commands the tag received and median wall time")
        lines.append(
            "of session + identification + operation, in process (\(plainIterations) iterations without latency, "
                + "\(latencyIterations) with)")
        var header =
            Statistics.pad("operation", 42, left: true) + Statistics.pad("total", 6) + Statistics.pad("min", 5)
            + Statistics.pad("nfcpy*", 7)
        for latency in [0] + latencies { header += Statistics.pad("\(latency) ms lat.", 13) }
        lines.append(header + "   commands by kind")
        for row in rows {
            var line =
                Statistics.pad(row.benchmark.label, 42, left: true) + Statistics.pad("\(row.tally.total)", 6)
                + Statistics.pad("\(row.benchmark.minimum.total)", 5)
                + Statistics.pad(row.benchmark.reference.map { "\($0.total)" } ?? "-", 7)
            for median in row.medians { line += Statistics.pad(Statistics.formatMilliseconds(median.milliseconds), 13) }
            lines.append(line + "   " + row.tally.kindsDescription)
        }
        lines.append("")
        lines.append("* \(NfcpyReference.label): the commands nfcpy sends for the same operation, worked out")
        lines.append("  from its tt2.py, tt2_nxp.py and tt4.py (a live run needs a reader). Polling, selection and")
        lines.append("  RATS are not counted, here or there. min: the theoretical minimum (derivations below).")
        lines.append("Latency: with latency-ms=N the simulated reader sleeps N ms before each command, a flat stand-in")
        lines.append("  for one round trip through a real reader (driver, USB, air time, the tag's own time). 3 ms is")
        lines.append("  the figure assumed for a fast PC/SC or libnfc reader (ACR122U, PN533), not measured; a USB log")
        lines.append("  of an ACR122U (github.com/googlearchive/chrome-nfc issue 22) shows about 20 ms per WRITE.")
        lines.append("  Air time of the data itself (about 0.085 ms a byte at 106 kbit/s) is not modelled. The 0 ms")
        lines.append("  column is the in-process cost of session, identification, operation and simulated tag.")
        for row in rows {
            lines.append("")
            lines.append("\(row.benchmark.label) (\(row.benchmark.url))")
            lines.append("  sent:    \(row.tally.total) = \(row.tally.sequenceDescription)")
            let minimum = row.benchmark.minimum
            lines.append("  minimum: \(minimum.total) = \(minimum.derivation)")
            if let note = minimum.note { lines.append("           \(note)") }
            if let reference = row.benchmark.reference {
                lines.append("  nfcpy:   \(reference.total) = \(reference.derivation)")
                if let note = reference.note { lines.append("           \(note)") }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// Tab-separated lines: `operation ID LABEL`, `url ID URL`, `total ID N`, `kind ID KIND N`,
    /// `sequence ID TEXT`, `minimum ID N`, `reference ID N`, `median-ms ID LATENCY MS`.
    var tsv: String {
        var lines: [String] = []
        for row in rows {
            let id = row.benchmark.id
            lines += [
                "operation\t\(id)\t\(row.benchmark.label)",
                "url\t\(id)\t\(row.benchmark.url)",
                "total\t\(id)\t\(row.tally.total)",
            ]
            lines += row.tally.byKind.map { "kind\t\(id)\t\($0.kind)\t\($0.count)" }
            lines.append("sequence\t\(id)\t\(row.tally.sequenceDescription)")
            lines.append("minimum\t\(id)\t\(row.benchmark.minimum.total)")
            if let reference = row.benchmark.reference { lines.append("reference\t\(id)\t\(reference.total)") }
            lines += row.medians.map { "median-ms\t\(id)\t\($0.latency)\t\($0.milliseconds)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `value` with 3 decimals below 10 ms, 1 above.
}
