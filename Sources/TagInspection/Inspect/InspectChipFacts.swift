import HexText
import NDEF
import TagMemory

/// Which chip the memory is read as, and how that was decided: `--chip`, else GET_VERSION in
/// the dump, else the chip name in the file, else the page count (``Type2ChipIdentification``).
package struct InspectChipFacts: Encodable {
    /// What decided the chip.
    package enum Source: String, Encodable {
        case option, getVersion, chipName, pageCount
    }

    /// The chip, nil when the evidence names none ndeftool knows.
    package var chip: Type2Chip?
    /// What decided it.
    package var source: Source
    /// The GET_VERSION response the dump records (nil when absent or all zeros).
    package var version: [UInt8]?
    /// The chip name the file states.
    package var nameInFile: String?
    /// Other chips the evidence fits equally (same page count and memory layout).
    package var alternatives: [Type2Chip]
    /// The pages in the image.
    package var imagePages: Int

    package init(dump: TagDump, forced: Type2Chip?) {
        imagePages = dump.pageCount
        nameInFile = dump.chipName
        version = dump.version.flatMap { $0.contains { $0 != 0 } ? $0 : nil }
        alternatives = []
        if let forced {
            chip = forced
            source = .option
            return
        }
        let identification = dump.chipIdentification
        chip = identification?.chip
        alternatives = Array(identification?.candidates.dropFirst() ?? [])
        switch identification?.evidence {
        case .getVersion: source = .getVersion
        case .chipName: source = .chipName
        case .pageCount, nil: source = .pageCount
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, typeCode, pages, userMemory, identifiedBy, getVersion, nameInFile, alternatives
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chip?.name, forKey: .name)
        try container.encode(chip?.typeCode, forKey: .typeCode)
        try container.encode(chip?.pageCount, forKey: .pages)
        try container.encode(chip?.userMemorySize, forKey: .userMemory)
        try container.encode(source, forKey: .identifiedBy)
        try container.encode(version.map { Hex.encode($0) }, forKey: .getVersion)
        try container.encode(nameInFile, forKey: .nameInFile)
        try container.encode(alternatives.map(\.name), forKey: .alternatives)
    }

    /// `chip: NTAG213 (NT2H1311), 45 pages, 144 bytes of user memory`, then how it was told.
    package var lines: [String] {
        guard let chip else {
            let why: String
            switch source {
            case .getVersion:
                why = "GET_VERSION \(Hex.bytes(version ?? [])) names no chip ndeftool knows"
            case .chipName: why = "the file names \"\(nameInFile ?? "")\", a chip ndeftool does not know"
            case .pageCount, .option: why = "no chip ndeftool knows has \(imagePages) pages"
            }
            return ["chip: unknown: \(why)", "  the memory is read with the NFC Forum defaults (Type 2 Tag 1.1)"]
        }
        var lines = [
            "chip: \(Self.label(chip)), \(InspectFormatting.count(chip.pageCount, "page")), "
                + "\(chip.userMemorySize) bytes of user memory"
        ]
        switch source {
        case .option: lines.append("  chosen with --chip")
        case .getVersion: lines.append("  identified by GET_VERSION " + Hex.bytes(version ?? []))
        case .chipName: lines.append("  identified by the chip name in the file, \"\(nameInFile ?? "")\"")
        case .pageCount:
            var line = "  identified by the page count, \(imagePages)"
            if !alternatives.isEmpty {
                let others = alternatives.map(Self.label).joined(separator: ", ")
                line += "; \(others) has as many pages and the same memory layout"
            }
            lines.append(line)
        }
        let readable = chip.pageCount - (chip.unreadablePages?.count ?? 0)
        if imagePages < readable, let missing = AddressSpan(imagePages..<chip.pageCount) {
            lines.append("  the image has \(imagePages) pages: \(missing.text("page")) are not in the dump")
        } else if imagePages > chip.pageCount {
            lines.append("  the image has \(imagePages) pages, \(imagePages - chip.pageCount) more than the chip")
        }
        return lines
    }

    /// `NTAG215 (NT2H1511)`; a name that holds its type code already is left as it is
    /// (`MIFARE Ultralight EV1 (MF0UL11)`).
    static func label(_ chip: Type2Chip) -> String {
        chip.name.contains(chip.typeCode) ? chip.name : "\(chip.name) (\(chip.typeCode))"
    }
}

/// What the dump recorded of READ_SIG and READ_CNT (NTAG213/215/216 datasheet 10.7 and 10.8,
/// MF0ULX1 8.8.7 and 8.8.9): the originality signature and the counters with their tearing
/// flags. The signature's check (``check``) is the caller's: it needs elliptic-curve
/// cryptography, which this module does without (NFCSession's `NFCOriginalityKey` does it).
package struct InspectOriginalityFacts {
    /// The 32-byte signature, nil when absent or all zeros (what tools write without one).
    package var signature: [UInt8]?
    /// What checking the signature against known keys found; nil when it was not checked.
    package var check: OriginalitySignatureCheck?
    /// The counters as READ_CNT returns them.
    package var counters: [UInt32]?
    /// The tearing flags, one per counter.
    package var tearingFlags: [UInt8]?

    package init(dump: TagDump) {
        signature = dump.signature.flatMap { $0.contains { $0 != 0 } ? $0 : nil }
        counters = dump.counters
        tearingFlags = dump.tearingFlags
    }

    /// The signature and counters, one line each.
    package func lines(chip: Type2Chip?) -> [String] {
        var lines: [String] = []
        if let check {
            lines.append("originality signature: " + check.summary)
        } else if let signature {
            lines.append(
                "originality signature (READ_SIG, \(signature.count) bytes, not verified): "
                    + Hex.bytes(signature))
        } else {
            lines.append("originality signature: not in the dump")
        }
        if let counters, !counters.isEmpty {
            var line =
                "counters (READ_CNT 0-\(counters.count - 1)): " + counters.map(String.init).joined(separator: ", ")
            if let tearingFlags, !tearingFlags.isEmpty {
                line += "; tearing flags " + Hex.bytes(tearingFlags)
            }
            if chip?.features.contains(.nfcCounter) == true { line += "; the NFC counter is counter 2" }
            lines.append(line)
        } else {
            lines.append("counters: not in the dump")
        }
        return lines
    }
}
