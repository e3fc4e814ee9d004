import HexText
import NDEF
import NFCSession
import TagInspection
import TagMemory

/// What `ndeftool info` reports about a tag, as text (``lines``) or JSON (``encode(to:)``).
///
/// Chip identification (GET_VERSION, NTAG213/215/216 10.1), the NDEF status and capacity (NFC
/// Forum Type 2 Tag 1.1, 6.4.1), the capability container (6.1), the lock bits (2.1.2, 2.2.2),
/// the password configuration (NTAG213/215/216 8.8, MF0ULX1 8.6), the NFC counter (READ_CNT 2,
/// NTAG213/215/216 10.6), the originality signature (READ_SIG, 10.8) and the lock code.
struct TagInfoReport: Encodable {
    /// The NFC counter of NTAG21x chips (NFC_CNT_EN, NTAG213/215/216 8.5.7).
    enum Counter {
        case value(UInt32)
        case disabled
        case notReadable
    }

    var reader: String
    var target: NFCTargetInfo
    var identification: Type2Identification
    var status = NDEFTagStatus(status: .notSupported, capacity: 0)
    var statusReason: String?
    /// The message bytes, when the memory was read.
    var ndef: [UInt8]?
    /// Why the NDEF message of a formatted tag cannot be read (a malformed NDEF TLV or message),
    /// when it cannot: the tag stays read/write, since a write replaces the TLV.
    var messageProblem: TagMemoryError?
    var recordCount: Int?
    var capabilityContainer: InspectCapabilityFacts?
    var locks: InspectLockFacts?
    var password: NFCPasswordStatus?
    var counter: Counter?
    /// The UID and NFC counter mirror (NTAG213/215/216 8.7).
    var mirror: MirrorFacts?
    var signature: OriginalitySignatureCheck?
    var lockCode: String?
    /// Why a writable tag has no lock code.
    var lockProblem: String?
    /// Whether the whole memory could be read (not when pages are read-protected).
    var memoryRead = false
    /// The memory drawn page by page, when it was read (text only; JSON has the facts).
    var pageMap: PageMap?
    /// The Type 4 facts; nil for a Type 2 tag.
    var type4: Type4InfoFacts?
    /// The MIFARE Classic facts, for a Classic card.
    var classic: ClassicInfoFacts?

    init(tag: NFCMiFareTag, reader: String) {
        self.reader = reader
        target = tag.targetInfo
        identification = tag.identification
    }

    init(reader: String, target: NFCTargetInfo, identification: Type2Identification) {
        self.reader = reader
        self.target = target
        self.identification = identification
    }

    /// Takes the facts of the memory image, when it was read, and the NDEF status.
    mutating func set(memory: Type2Memory?, status: NDEFTagStatus) {
        self.status = status
        guard let memory else { return }
        memoryRead = true
        pageMap = PageMap(memory: memory, pageCount: memory.chip?.pageCount ?? memory.bytes.count / Type2Page.size)
        statusReason = memory.ndefStatusReason
        ndef = memory.ndefMessageBytes
        recordCount = memory.message?.records.count ?? (ndef?.isEmpty == true ? 0 : nil)
        if status.status != .notSupported, memory.message == nil, ndef?.isEmpty != true {
            messageProblem = memory.problem
        }
        capabilityContainer = InspectCapabilityFacts(memory: memory)
        locks = InspectLockFacts(memory: memory)
    }

    var chip: Type2Chip? { identification.chip }

    /// How the chip was identified, in the words of `inspect --json`.
    static func identifiedBy(_ method: Type2Identification.Method) -> String {
        switch method {
        case .version: "getVersion"
        case .capabilityContainer: "capabilityContainer"
        case .pageCount: "pageCount"
        case .unidentified: "unidentified"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case reader, uid, atqa, sak, chip, status
        case statusReason, capacity, used, records, capabilityContainer, locks, password, nfcCounter
        case nfcCounterState, mirror, signature, lockCode, lockProblem, tagType, type4, messageProblem, mifareClassic
    }

    /// The chip, as `inspect --json` gives it: one object (`name`, `typeCode`, `pages`, `userMemory`,
    /// `identifiedBy`, `getVersion`).
    private enum ChipKeys: String, CodingKey {
        case name, typeCode, pages, userMemory, identifiedBy, getVersion
    }

    private enum PasswordKeys: String, CodingKey {
        case mechanism, protection, fromPage, readProtected, attemptLimit, configurationLocked
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(reader, forKey: .reader)
        try container.encode(classic != nil ? "mifare-classic" : type4 == nil ? "type2" : "type4", forKey: .tagType)
        try container.encode(target.uidJSON, forKey: .uid)
        try container.encode(atqa.map { Hex.encode($0.bytes.reversed()) }, forKey: .atqa)
        try container.encode(Hex.encode([target.sak]), forKey: .sak)
        // A MIFARE Classic card and a Type 4 tag: the chip's name, their own facts, the NDEF facts.
        if classic != nil || type4 != nil {
            var chip = container.nestedContainer(keyedBy: ChipKeys.self, forKey: .chip)
            try chip.encode(classic?.type.description ?? NFCISO7816Tag.type4Name, forKey: .name)
            try container.encodeIfPresent(classic, forKey: .mifareClassic)
            try container.encodeIfPresent(type4, forKey: .type4)
            try container.encode(status.status, forKey: .status)
            try container.encode(status.capacity, forKey: .capacity)
            try container.encode(ndef?.count, forKey: .used)
            try container.encode(recordCount, forKey: .records)
            try container.encode(lockCode, forKey: .lockCode)
            try container.encode(lockProblem, forKey: .lockProblem)
            return
        }
        var chipObject = container.nestedContainer(keyedBy: ChipKeys.self, forKey: .chip)
        try chipObject.encode(chip?.name, forKey: .name)
        try chipObject.encode(chip?.typeCode, forKey: .typeCode)
        try chipObject.encode(chip?.pageCount, forKey: .pages)
        try chipObject.encode(chip?.userMemorySize, forKey: .userMemory)
        try chipObject.encode(Self.identifiedBy(identification.method), forKey: .identifiedBy)
        try chipObject.encode(identification.version.map { Hex.encode($0) }, forKey: .getVersion)
        try container.encode(status.status, forKey: .status)
        try container.encode(statusReason, forKey: .statusReason)
        try container.encode(status.capacity, forKey: .capacity)
        try container.encode(ndef?.count, forKey: .used)
        try container.encode(recordCount, forKey: .records)
        try container.encodeIfPresent(messageProblem.map(InspectProblem.init), forKey: .messageProblem)
        try container.encode(capabilityContainer, forKey: .capabilityContainer)
        try container.encode(locks, forKey: .locks)
        if let password {
            var nested = container.nestedContainer(keyedBy: PasswordKeys.self, forKey: .password)
            try nested.encode(password.mechanism.rawValue, forKey: .mechanism)
            switch password.protection {
            case .off:
                try nested.encode("off", forKey: .protection)
            case .from(let page, let readProtected):
                try nested.encode(readProtected ? "read-write" : "write", forKey: .protection)
                try nested.encode(page, forKey: .fromPage)
                try nested.encode(readProtected, forKey: .readProtected)
            case .unknown:
                try nested.encode("unknown", forKey: .protection)
            }
            try nested.encode(password.authenticationLimit, forKey: .attemptLimit)
            try nested.encode(password.isConfigurationLocked, forKey: .configurationLocked)
        } else {
            try container.encodeNil(forKey: .password)
        }
        switch counter {
        case .value(let value):
            try container.encode(value, forKey: .nfcCounter)
            try container.encode("enabled", forKey: .nfcCounterState)
        case .disabled:
            try container.encodeNil(forKey: .nfcCounter)
            try container.encode("disabled", forKey: .nfcCounterState)
        case .notReadable:
            try container.encodeNil(forKey: .nfcCounter)
            try container.encode("notReadable", forKey: .nfcCounterState)
        case nil:
            try container.encodeNil(forKey: .nfcCounter)
            try container.encodeNil(forKey: .nfcCounterState)
        }
        try container.encode(mirror, forKey: .mirror)
        try container.encode(signature, forKey: .signature)
        try container.encode(lockCode, forKey: .lockCode)
        try container.encode(lockProblem, forKey: .lockProblem)
    }

    /// The ATQA the reader reported, else the identified chip's (PC/SC readers report none);
    /// nil when neither is known.
    var atqa: (bytes: [UInt8], fromChip: Bool)? {
        if !target.atqa.isEmpty { return (target.atqa, false) }
        return type4 == nil && classic == nil ? chip.map { ($0.atqa, true) } : nil
    }

    /// `ATQA 00 44`, `ATQA 00 44 (the chip's; the reader does not report it)` or `ATQA not reported`.
    var atqaText: String {
        guard let atqa else { return "ATQA not reported" }
        return "ATQA " + Hex.bytes(atqa.bytes.reversed())
            + (atqa.fromChip ? " (the chip's; the reader does not report it)" : "")
    }

    /// The report as text, one fact per line.
    var lines: [String] {
        var lines = ["reader: \(reader)"]
        if let classic {
            lines.append("chip: \(classic.type), identified by its SAK")
            lines.append("UID: \(target.uidDescription) (\(atqaText), SAK \(Hex.bytes([target.sak])))")
            lines.append(ndefLine)
            return lines + classic.lines + [lockLine]
        }
        if let type4 {
            lines.append(type4.chipLine)
            lines.append(
                "UID: \(target.uidDescription) (\(atqaText), "
                    + "SAK \(Hex.bytes([target.sak])))")
            lines.append(ndefLine)
            if !memoryRead, status.status != .notSupported { lines.append("  the NDEF file could not be read") }
            return lines + type4.lines + [lockLine]
        }
        var chipLine = "chip: " + (chip.map(Self.name) ?? "unknown Type 2 chip")
        switch identification.method {
        case .version:
            chipLine += ", identified by GET_VERSION " + Hex.bytes(identification.version ?? [])
        case .capabilityContainer: chipLine += ", identified by its capability container"
        case .pageCount: chipLine += ", identified by its page count"
        case .unidentified: chipLine += " (handled by its capability container alone)"
        }
        lines.append(chipLine)
        lines.append(
            "UID: \(target.uidDescription) (\(atqaText), "
                + "SAK \(Hex.bytes([target.sak])))")
        if let chip {
            lines.append(
                "memory: \(InspectFormatting.count(chip.pageCount, "page")), "
                    + "\(chip.userMemorySize) bytes of user memory")
        }
        lines.append(ndefLine)
        if !memoryRead { lines.append("  the memory could not be read whole: pages are password-protected") }
        lines += capabilityContainer?.lines ?? []
        lines += locks?.lines ?? []
        lines.append(passwordLine)
        if let counterLine { lines.append(counterLine) }
        if let mirror { lines.append(mirror.line) }
        if let signature {
            lines.append("originality signature: " + signature.summary)
        } else if chip?.features.contains(.readSignature) == true {
            lines.append("originality signature: not readable")
        }
        lines.append(lockLine)
        return lines
    }

    /// `NDEF: read/write, capacity 492 bytes; 17 bytes used (1 record)`; on a formatted tag whose
    /// message cannot be read, what keeps it from being read.
    private var ndefLine: String {
        var line = "NDEF: "
        switch status.status {
        case .readWrite: line += "read/write"
        case .readOnly: line += "read-only"
        case .notSupported: line += "not formatted or not supported"
        }
        if status.status != .notSupported {
            line += ", capacity \(InspectFormatting.count(status.capacity, "byte"))"
            if let ndef {
                line += "; " + PlanReport.usage(ndef.count, of: status.capacity)
                if let recordCount { line += " (\(InspectFormatting.count(recordCount, "record")))" }
            }
        }
        if let statusReason { line += ": " + statusReason }
        if let messageProblem {
            line +=
                "; the NDEF message cannot be read: \(messageProblem.reason) (\(messageProblem.code.rawValue)); "
                + "writing a message replaces it"
        }
        return line
    }

    private var passwordLine: String {
        guard let password else {
            if chip?.features.contains(.passwordAuthentication) == true {
                return "password protection: unknown (the configuration could not be read)"
            }
            return "password protection: none (the chip has no password)"
        }
        let prefix = password.mechanism == .tripleDES ? "3DES authentication (not performed): " : ""
        return "password protection: " + prefix + password.description
    }

    private var counterLine: String? {
        switch counter {
        case .value(let value): "NFC counter: \(value)"
        case .disabled: "NFC counter: off (NFC_CNT_EN 0)"
        case .notReadable: "NFC counter: not readable (password-protected or refused)"
        case nil: nil
        }
    }

    private var lockLine: String {
        if let lockCode, status.status == .readOnly {
            return
                "lock code: \(lockCode) (the lock is not complete: 'ndeftool lock --confirm \(lockCode)' completes it)"
        }
        if let lockCode {
            return "lock code: \(lockCode) ('ndeftool lock --confirm \(lockCode)' locks the tag for good)"
        }
        if let lockProblem { return "lock code: none: \(lockProblem)" }
        switch status.status {
        case .readOnly: return "lock code: none: the tag is read-only"
        case .notSupported: return "lock code: none: the tag is not NDEF formatted"
        case .readWrite: return "lock code: none"
        }
    }

    /// `NTAG215 (NT2H1511)`; the type code only once when the name has it already.
    static func name(_ chip: Type2Chip) -> String {
        chip.name.contains(chip.typeCode) ? chip.name : "\(chip.name) (\(chip.typeCode))"
    }
}

/// A chip in the JSON of the commands that name it only (write, lock, password, dump, batch):
/// `{"name": "NTAG215"}`, the same object `info --json` and `inspect --json` give with more
/// keys (`Fixtures/schemas/definitions.schema.json#/$defs/chip`).
struct ChipJSON: Encodable, Sendable {
    var name: String

    init(_ name: String) { self.name = name }
}
