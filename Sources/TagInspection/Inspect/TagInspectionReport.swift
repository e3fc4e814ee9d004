import HexText
import NDEF
import TagMemory

/// Everything `ndeftool inspect` reports about a tag dump, built once and printed as text
/// (``text``) or JSON (``encode(to:)``), so both show the same facts: the dump, the chip, the
/// UID and its check bytes, the capability container, locks, TLVs, memory regions, password
/// protection, originality data, the NDEF status and the message.
///
/// ```swift
/// let dump = try TagDump(decoding: bytes, fileName: "tag.nfc")
/// let report = TagInspectionReport(dump: dump, format: try TagDump.detect(bytes, fileName: "tag.nfc"))
/// print(report.text)
/// ```
///
/// A Type 2 image is read with ``TagMemory/Type2Memory`` as the chip it comes from, up to the
/// pages the reading tool managed to read. A MIFARE Classic image is read with
/// ``TagMemory/MifareClassicMemory``: MAD, NDEF sectors and the NDEF TLV across them.
public struct TagInspectionReport: Encodable, Sendable {
    package var dump: InspectDumpFacts
    package var chip: InspectChipFacts?
    /// A Type 2 image drawn page by page (text only).
    package var pageMap: PageMap?
    package var uid: InspectUIDFacts?
    package var capabilityContainer: InspectCapabilityFacts?
    package var locks: InspectLockFacts?
    package var tlvs: [InspectTLVFacts]
    /// What the TLV walk read although the specification asks otherwise (``TagMemory/TagTLVScan/warnings``).
    public internal(set) var warnings: [TagMemoryError] = []
    package var regions: [InspectRegionFacts]
    package var password: InspectPasswordFacts?
    /// The MIFARE Application Directory and NDEF sectors of a MIFARE Classic image.
    package var classic: InspectClassicFacts?
    package var originality: InspectOriginalityFacts
    /// The NDEF status and capacity (T2T 1.1, 6.3; CoreNFC's `queryNDEFStatus`).
    public internal(set) var status: NDEFTagStatus
    /// Why the status is not read/write.
    public internal(set) var statusReason: String?
    /// The address of the NDEF Message TLV's T byte.
    public internal(set) var ndefTLVAddress: Int?
    /// The NDEF Message TLV's value: the message bytes (empty on an initialized tag).
    package var ndef: [UInt8]?
    /// The message, strictly decoded.
    public internal(set) var message: NFCNDEFMessage?
    /// What keeps the message from being read.
    public internal(set) var problem: TagMemoryError?

    /// The report on `dump`, read in `format`, as the chip `forced` when given.
    public init(dump: TagDump, format: TagDumpFormat, chip forced: Type2Chip? = nil) {
        self.dump = InspectDumpFacts(dump: dump, format: format)
        originality = InspectOriginalityFacts(dump: dump)
        guard dump.layout == .type2 else {
            let memory = MifareClassicMemory(dump: dump)
            uid = InspectUIDFacts(mifareClassic: dump.memory, stated: dump.uid)
            classic = InspectClassicFacts(memory: memory)
            tlvs = InspectTLVFacts.all(in: memory.tlvScan, unitSize: 16)
            warnings = memory.tlvScan?.warnings ?? []
            regions = []
            status = memory.ndefStatus
            statusReason = memory.ndefStatusReason
            ndefTLVAddress = memory.ndefTLVAddress
            ndef = memory.ndefMessageBytes
            message = memory.message
            problem = memory.problem
            return
        }
        let chip = InspectChipFacts(dump: dump, forced: forced)
        self.chip = chip
        let image = Array(dump.memory.prefix(self.dump.usedUnitCount * TagDump.Layout.type2.unitSize))
        let memory = Type2Memory(bytes: image, chip: chip.chip)
        uid = InspectUIDFacts(type2: image, stated: dump.uid)
        capabilityContainer = InspectCapabilityFacts(memory: memory)
        locks = InspectLockFacts(memory: memory)
        tlvs = InspectTLVFacts.all(in: memory.tlvScan)
        warnings = memory.tlvScan?.warnings ?? []
        regions = memory.regions.map(InspectRegionFacts.init)
        pageMap = PageMap(memory: memory, pageCount: self.dump.usedUnitCount)
        password = InspectPasswordFacts(memory: memory)
        status = memory.ndefStatus
        statusReason = memory.ndefStatusReason
        ndefTLVAddress = memory.ndefTLVAddress
        ndef = memory.ndefMessageBytes
        message = memory.message
        problem = memory.problem
    }

    private enum CodingKeys: String, CodingKey {
        case dump, chip, uid, uidDetails, capabilityContainer, locks, tlvs, warnings, regions, password, classic
        case signature, counters, tearingFlags, status, statusReason, capacity, ndefTLVAddress, ndef, message, problem
    }

    /// The report as `ndeftool inspect --json` prints it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dump, forKey: .dump)
        try container.encode(chip, forKey: .chip)
        // The UID in the form every command's JSON gives it, then the checks behind it.
        try container.encode(uid.map { UIDText.json($0.uid) }, forKey: .uid)
        try container.encode(uid, forKey: .uidDetails)
        try container.encode(capabilityContainer, forKey: .capabilityContainer)
        try container.encode(locks, forKey: .locks)
        try container.encode(tlvs, forKey: .tlvs)
        try container.encode(warnings.map(InspectProblem.init), forKey: .warnings)
        try container.encode(regions, forKey: .regions)
        try container.encodeIfPresent(classic, forKey: .classic)
        try container.encode(password, forKey: .password)
        if let check = originality.check {
            try container.encode(check, forKey: .signature)
        } else {
            try container.encode(originality.signature.map { Hex.encode($0) }, forKey: .signature)
        }
        try container.encode(originality.counters, forKey: .counters)
        try container.encode(originality.tearingFlags.map { Hex.encode($0) }, forKey: .tearingFlags)
        try container.encode(status.status, forKey: .status)
        try container.encode(statusReason, forKey: .statusReason)
        try container.encode(status.capacity, forKey: .capacity)
        try container.encode(ndefTLVAddress, forKey: .ndefTLVAddress)
        try container.encode(ndef.map { Hex.encode($0) }, forKey: .ndef)
        try container.encode(message, forKey: .message)
        try container.encode(problem.map(InspectProblem.init), forKey: .problem)
    }
}

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

/// A problem found in the tag's memory, as JSON shows it: `{"code", "offset", "reason"}`.
package struct InspectProblem: Encodable {
    /// The stable code, for example `malformed-tlv`.
    package var code: String
    /// The byte address, when one applies.
    package var offset: Int?
    /// What is wrong.
    package var reason: String

    package init(_ error: TagMemoryError) {
        code = error.code.rawValue
        offset = error.offset
        reason = error.reason
    }

    private enum CodingKeys: String, CodingKey { case code, offset, reason }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(offset, forKey: .offset)
        try container.encode(reason, forKey: .reason)
    }
}

/// One region of the memory map (``Type2Memory/regions``), as `inspect` lists it.
package struct InspectRegionFacts: Encodable {
    /// The region.
    package var region: Type2MemoryRegion

    /// What a region holds, in words.
    package static func meaning(_ kind: Type2MemoryRegion.Kind) -> String {
        switch kind {
        case .uid: "UID0-2, BCC0, UID3-6 (locked at the factory)"
        case .staticLock: "BCC1, internal byte, static lock bytes"
        case .capabilityContainer: "capability container"
        case .dataArea: "NDEF data area"
        case .userMemory: "user memory, not in the NDEF data area"
        case .reservedByTLV: "reserved by a Lock or Memory Control TLV"
        case .dynamicLock: "dynamic lock bytes"
        case .configuration: "configuration: CFG0, CFG1, PWD, PACK"
        case .counter: "16-bit counter"
        case .authentication: "AUTH0, AUTH1"
        case .key: "3DES key (never readable, not shown)"
        case .beyondChip: "past the chip's last page"
        case .unknown: "unknown use (no chip or capability container tells)"
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, bytes, pages }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(region.kind, forKey: .kind)
        try container.encode(AddressSpan(region.bytes), forKey: .bytes)
        try container.encode(region.pages.map(AddressSpan.init), forKey: .pages)
    }

    /// `  pages 4-39             NDEF data area`.
    package var line: String {
        let label = InspectFormatting.location(region.bytes)
        let padded = label.count < 24 ? label + String(repeating: " ", count: 24 - label.count) : label + "  "
        return "  " + padded + Self.meaning(region.kind)
    }
}

/// What `inspect` says about a MIFARE Classic image: card type, MAD and NDEF sectors
/// (NXP AN10787 for the MAD, AN1304 for the NDEF mapping).
package struct InspectClassicFacts: Encodable {
    /// `"MIFARE Classic 1K"` and so on, from the image size.
    package var card: String
    package var sectorCount: Int
    /// The MAD version (1 or 2), when sector 0's general purpose byte announces one.
    package var madVersion: Int?
    /// Whether every MAD block's CRC-8 matches.
    package var madCRCValid: Bool?
    /// The sectors holding NDEF data (AID E103), in order.
    package var ndefSectors: [Int]

    package init(memory: MifareClassicMemory) {
        card = memory.type.map(Self.name) ?? "MIFARE Classic (size not recognised)"
        sectorCount = memory.sectors.count
        madVersion = memory.directory?.version
        madCRCValid = memory.directory?.isCRCValid
        ndefSectors = memory.ndefSectors.map(\.number)
    }

    private static func name(_ type: MifareClassicType) -> String {
        switch type {
        case .mini: "MIFARE Classic Mini"
        case .classic1K: "MIFARE Classic 1K"
        case .classic2K: "MIFARE Classic 2K"
        case .classic4K: "MIFARE Classic 4K"
        }
    }

    package var lines: [String] {
        var lines = ["card: \(card), \(MessageDescription.count(sectorCount, "sector"))"]
        if let madVersion {
            lines.append("MAD: version \(madVersion), CRC " + (madCRCValid == true ? "correct" : "WRONG"))
        } else {
            lines.append("MAD: none (sector 0 does not announce a MIFARE Application Directory)")
        }
        lines.append(
            ndefSectors.isEmpty
                ? "NDEF sectors: none"
                : "NDEF sectors: " + ndefSectors.map(String.init).joined(separator: ", "))
        return lines
    }
}
