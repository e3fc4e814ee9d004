import HexText
import NDEF
import TagMemory

/// One TLV block of the data area (NFC Forum Type 2 Tag 1.1, 2.3) with the byte and page
/// addresses of its parts, or the place where the scan had to stop.
package struct InspectTLVFacts: Encodable {
    /// The block, when it could be read.
    package var tlv: TagTLV?
    /// Why the block at ``address`` could not be read.
    package var problem: TagMemoryError?
    /// The T byte of a block that could not be read, if the image holds it.
    package var failedType: UInt8?
    /// The address of the T byte.
    package var address: Int
    /// The memory's write unit: 4-byte pages (Type 2) or 16-byte blocks (MIFARE Classic).
    package var unitSize = 4

    package init(_ tlv: TagTLV) {
        self.tlv = tlv
        address = tlv.typeAddress
    }

    package init(failure: TagMemoryError, type: UInt8?, address: Int) {
        problem = failure
        failedType = type
        self.address = address
    }

    /// The blocks of a scan, with its failure last; addresses are shown in units of `unitSize` bytes.
    package static func all(in scan: TagTLVScan?, unitSize: Int = 4) -> [InspectTLVFacts] {
        guard let scan else { return [] }
        var facts = scan.tlvs.map(InspectTLVFacts.init)
        if let error = scan.error {
            facts.append(
                InspectTLVFacts(
                    failure: error, type: scan.failedType, address: scan.failedTypeAddress ?? error.offset ?? 0))
        }
        for index in facts.indices { facts[index].unitSize = unitSize }
        return facts
    }

    /// The unit addresses are shown in besides bytes.
    private var unit: String { unitSize == 16 ? "block" : "page" }

    /// The name of a block kind, as in T2T 1.1 Table 3.
    package static func name(_ kind: TagTLV.Kind) -> String {
        switch kind {
        case .null: "NULL"
        case .lockControl: "Lock Control"
        case .memoryControl: "Memory Control"
        case .ndefMessage: "NDEF Message"
        case .proprietary: "Proprietary"
        case .terminator: "Terminator"
        case .unknown: "reserved type"
        }
    }

    /// The JSON name of a block kind.
    package static func key(_ kind: TagTLV.Kind) -> String {
        switch kind {
        case .null: "null"
        case .lockControl: "lockControl"
        case .memoryControl: "memoryControl"
        case .ndefMessage: "ndefMessage"
        case .proprietary: "proprietary"
        case .terminator: "terminator"
        case .unknown: "reserved"
        }
    }

    private enum CodingKeys: String, CodingKey {
        case kind, type, bytes, pages, blocks, length, lengthBytes, value, lockBytes, lockBits, bytesPerLockBit
        case reservedBytes, problem
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        guard let tlv else {
            try container.encode("unreadable", forKey: .kind)
            try container.encode(failedType.map(Int.init), forKey: .type)
            try container.encode(AddressSpan(address...address), forKey: .bytes)
            try container.encodeIfPresent(problem.map(InspectProblem.init), forKey: .problem)
            return
        }
        let range = tlv.typeAddress..<tlv.endAddress
        try container.encode(Self.key(tlv.kind), forKey: .kind)
        try container.encode(Int(tlv.type), forKey: .type)
        try container.encode(AddressSpan(range), forKey: .bytes)
        try container.encode(
            AddressSpan(range.lowerBound / unitSize...(range.upperBound - 1) / unitSize),
            forKey: unitSize == 16 ? .blocks : .pages)
        if !tlv.lengthAddresses.isEmpty {
            try container.encode(tlv.length, forKey: .length)
            try container.encode(tlv.lengthAddresses, forKey: .lengthBytes)
            try container.encode(tlv.valueRanges.compactMap(AddressSpan.init), forKey: .value)
        }
        if let control = tlv.lockControl {
            try container.encode(AddressSpan(control.lockBytes), forKey: .lockBytes)
            try container.encode(control.lockBitCount, forKey: .lockBits)
            try container.encode(control.bytesLockedPerBit, forKey: .bytesPerLockBit)
        }
        if let control = tlv.memoryControl {
            try container.encode(AddressSpan(control.reservedBytes), forKey: .reservedBytes)
        }
    }

    /// `Lock Control (01h) at bytes 16-20 (pages 4-5), length 3: lock bytes 160-161, ...`.
    package var line: String {
        guard let tlv else {
            let type = failedType.map { " (\(Hex.byte($0))h)" } ?? ""
            return "at byte \(address)\(type): unreadable: \(problem?.reason ?? "unknown reason")"
        }
        var line = Self.name(tlv.kind) + " (\(Hex.byte(tlv.type))h) at "
        line += InspectFormatting.location(tlv.typeAddress..<tlv.endAddress, unitSize: unitSize, unit: unit)
        guard !tlv.lengthAddresses.isEmpty else { return line }
        line += ", length \(tlv.length)"
        if tlv.valueRanges.count > 1 {
            let runs = tlv.valueRanges.compactMap { AddressSpan($0) }
            line += ", value in bytes " + AddressSpan.list(runs) + " (around reserved bytes)"
        }
        if let control = tlv.lockControl, let span = AddressSpan(control.lockBytes) {
            line += ": lock bytes " + AddressSpan.list([span]) + ", "
            line += "\(control.lockBitCount) lock bits of \(control.bytesLockedPerBit) bytes"
        }
        if let control = tlv.memoryControl, let span = AddressSpan(control.reservedBytes) {
            line += ": reserves " + span.text("byte")
        }
        return line
    }
}
