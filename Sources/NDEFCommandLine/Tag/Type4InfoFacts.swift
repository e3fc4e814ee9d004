import HexText
import NDEF
import NFCSession
import TagInspection
import TagMemory

/// What `ndeftool info` adds for a Type 4 tag: the ATS and the capability container of its NDEF
/// Tag Application (NFC Forum Type 4 Tag 3.0, 5.1: mapping version, MLe, MLc, NDEF File Control
/// TLV with file identifier, size and access conditions).
struct Type4InfoFacts: Encodable {
    /// The ATS (ISO/IEC 14443-4 5.2), when the reader gave it.
    var ats: [UInt8]?
    /// Its historical bytes.
    var historicalBytes: [UInt8]
    /// The CC, when it could be read.
    var capabilityContainer: Type4CapabilityContainer?

    private enum CodingKeys: String, CodingKey {
        case ats, historicalBytes, mappingVersion, mle, mlc, ndefFile, maximumFileSize, readAccess, writeAccess
        case conformanceIssues
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(ats.map { Hex.encode($0) }, forKey: .ats)
        try container.encode(Hex.encode(historicalBytes), forKey: .historicalBytes)
        guard let cc = capabilityContainer else { return }
        try container.encode("\(cc.majorVersion).\(cc.minorVersion)", forKey: .mappingVersion)
        try container.encode(cc.maximumResponseDataSize, forKey: .mle)
        try container.encode(cc.maximumCommandDataSize, forKey: .mlc)
        try container.encode(Self.hex(cc.ndefFile.fileIdentifier), forKey: .ndefFile)
        try container.encode(cc.ndefFile.maximumFileSize, forKey: .maximumFileSize)
        try container.encode(Self.hex(cc.ndefFile.readAccess.rawValue), forKey: .readAccess)
        try container.encode(Self.hex(cc.ndefFile.writeAccess.rawValue), forKey: .writeAccess)
        try container.encode(cc.conformanceIssues, forKey: .conformanceIssues)
    }

    /// The chip line: the tag type and the mapping version.
    var chipLine: String {
        "chip: \(NFCISO7816Tag.type4Name) (ISO-DEP)"
            + (capabilityContainer.map { ", NDEF mapping version \($0.majorVersion).\($0.minorVersion)" } ?? "")
    }

    /// The lines after the NDEF line: the ATS and the CC.
    var lines: [String] {
        var lines: [String] = []
        if let ats {
            lines.append(
                "ATS: \(Hex.bytes(ats))"
                    + (historicalBytes.isEmpty ? "" : " (historical bytes \(Hex.bytes(historicalBytes)))"))
        }
        guard let cc = capabilityContainer else {
            lines.append("capability container: not readable")
            return lines
        }
        lines.append(
            "capability container (file E103): version \(cc.majorVersion).\(cc.minorVersion), "
                + "MLe \(cc.maximumResponseDataSize), MLc \(cc.maximumCommandDataSize)")
        lines.append("  \(cc.ndefFile)")
        lines += cc.conformanceIssues.map { "  not conformant: \($0)" }
        return lines
    }

    /// `E104`, `00`.
    static func hex(_ value: some FixedWidthInteger) -> String {
        let bytes = (0..<(value.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        return Hex.encode(bytes, uppercase: true)
    }
}
