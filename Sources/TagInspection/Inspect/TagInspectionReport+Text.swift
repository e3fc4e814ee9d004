import NDEF
import TagMemory

extension TagInspectionReport {
    /// The report as `inspect` prints it, one fact per line, ending with a newline.
    public var text: String {
        var lines = dump.lines
        lines += chip?.lines ?? []
        lines += uid?.lines ?? []
        lines += classic?.lines ?? []
        lines += capabilityContainer?.lines ?? []
        lines += locks?.lines ?? []
        lines.append(tlvs.isEmpty ? "TLVs: none read" : "TLVs:")
        lines += tlvs.map { "  " + $0.line }
        lines += warnings.map { "  warning: \($0.reason) (\($0.code.rawValue))" }
        if !regions.isEmpty {
            lines.append("memory map:")
            lines += regions.map(\.line)
        }
        lines += password?.lines ?? []
        if dump.layout == .type2 { lines += originality.lines(chip: chip?.chip) }
        lines += ndefLines
        return lines.joined(separator: "\n") + "\n"
    }

    /// `NDEF: read/write, capacity 137 bytes`, then the message as `decode` describes it.
    private var ndefLines: [String] {
        var line = "NDEF: "
        switch status.status {
        case .readWrite: line += "read/write"
        case .readOnly: line += "read-only"
        case .notSupported: line += "not supported"
        }
        if status.status != .notSupported { line += ", capacity \(InspectFormatting.count(status.capacity, "byte"))" }
        if let statusReason { line += ": " + statusReason }
        var lines = [line]
        if let message, let ndef {
            lines += MessageDescription(message: message, size: ndef.count).text.split(separator: "\n").map(String.init)
        } else if let ndef, ndef.isEmpty, problem == nil {
            lines.append("NDEF message: none (the NDEF Message TLV is empty: an initialized tag)")
        } else if let problem, problem.code != .unsupportedChip, problem.reason != statusReason {
            lines.append("NDEF message: not read: " + problem.description)
        }
        return lines
    }
}
