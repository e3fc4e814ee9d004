// libFuzzer entry point for the Type 2 tag memory parser and the TLV scanner.
//
// `Scripts/fuzz --target type2` compiles this file together with every source file of the NDEF
// and TagMemory modules into one executable (`swiftc -sanitize=fuzzer,address`; the TagMemory
// files are copied without their `import NDEF` line, since everything is one module here).
// Parsing must never trap on any input; the invariants below turn silent inconsistencies into
// crashes, which libFuzzer reports.

/// Stops the run with a message: an invariant of the parser does not hold for this input.
func violated(_ what: String, _ bytes: [UInt8]) -> Never {
    let shown = bytes.prefix(64).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    fatalError("fuzz invariant violated: \(what); input (\(bytes.count) bytes) starts \(shown)")
}

/// Checks the TLV blocks of a scan: in address order, inside the area and the memory, disjoint.
func checkScan(_ scan: TagTLVScan, area: Range<Int>, memoryEnd: Int, input: [UInt8]) {
    var end = area.lowerBound
    for tlv in scan.tlvs {
        if tlv.typeAddress < end { violated("TLV at \(tlv.typeAddress) starts before the previous one ends", input) }
        if tlv.endAddress <= tlv.typeAddress { violated("TLV at \(tlv.typeAddress) does not move forward", input) }
        if tlv.endAddress > area.upperBound || tlv.endAddress > memoryEnd {
            violated("TLV at \(tlv.typeAddress) ends at \(tlv.endAddress), past the area or the memory", input)
        }
        if tlv.valueRanges.reduce(0, { $0 + $1.count }) != tlv.length {
            violated("TLV at \(tlv.typeAddress): value runs do not add up to its length", input)
        }
        end = tlv.endAddress
    }
    if scan.tlvs.count > area.count { violated("more TLV blocks than bytes", input) }
    if let last = scan.tlvs.last, last.kind == .terminator, scan.error != nil {
        violated("a scan that reached a Terminator reports an error", input)
    }
}

/// Checks one parsed image and a few of its prefixes.
func checkMemory(_ memory: Type2Memory, input: [UInt8]) {
    let status = memory.ndefStatus
    if status.capacity < 0 { violated("negative capacity", input) }
    // notSupported has capacity 0, except a CC that denies reading: it still announces its size.
    let readDenied = memory.capabilityContainer.map { $0.problem == nil && $0.readAccess != .granted } ?? false
    if status.status == .notSupported, status.capacity != 0, !readDenied {
        violated("capacity without NDEF support", input)
    }
    if status.status != .notSupported, memory.ndefTLVAddress == nil { violated("NDEF status without a TLV", input) }
    if let bytes = memory.ndefMessageBytes, status.status != .notSupported, bytes.count > status.capacity {
        violated("an NDEF message of \(bytes.count) bytes in a capacity of \(status.capacity)", input)
    }
    if (memory.message != nil || memory.ndefMessageBytes?.isEmpty == true) && memory.problem != nil {
        violated("a message was read but a problem is reported", input)
    }
    if let scan = memory.tlvScan, let area = memory.dataArea {
        checkScan(scan, area: area, memoryEnd: memory.bytes.count, input: input)
    }
    _ = memory.ndefStatusReason
    _ = memory.lockedPages
    _ = memory.configuration?.mirror
    _ = memory.uid
    if let address = memory.ndefTLVWriteAddress {
        let ranges = memory.dataRanges(from: address)
        if let area = memory.dataArea,
            ranges.contains(where: { $0.lowerBound < area.lowerBound || $0.upperBound > area.upperBound })
        {
            violated("usable ranges outside the data area", input)
        }
        _ = memory.capacity(forTLVAt: address)
    }
    // A prefix of the image agrees with the whole on the NDEF TLV and the capacity.
    for count in [memory.bytes.count / 2, memory.bytes.count - 1] where count >= 0 && count < memory.bytes.count {
        let prefix = Type2Memory(bytes: Array(memory.bytes.prefix(count)), chip: memory.chip)
        guard let address = prefix.ndefTLVAddress else { continue }
        if address != memory.ndefTLVAddress { violated("a prefix finds the NDEF TLV elsewhere", input) }
        if prefix.ndefStatus.capacity != status.capacity { violated("a prefix has another capacity", input) }
    }
}

/// On a read/write image, the write plan a session sends (``Type2Memory/tearSafeWritePlan(for:)``)
/// for a message that fits must apply without a refusal,
/// leave exactly that message, and after every prefix of its steps (short plans only) read as
/// the old message, no message, or the new one (T2T 1.0, 6.4.3: tearing safety).
func checkWritePlan(_ memory: Type2Memory, input: [UInt8]) {
    let status = memory.ndefStatus
    guard status.status == .readWrite, status.capacity >= 3 else { return }
    var length = min(input.count, status.capacity - 3)
    if length >= 256 { length = min(length, status.capacity - 6) }
    guard length >= 0 else { return }
    let message = NFCNDEFMessage(records: [NFCNDEFPayload(format: .unknown, type: [], payload: Array(input.prefix(length)))])
    let plan: TagWritePlan
    do {
        // The plan a session sends: TagMemory's steps in tear-safe order.
        plan = try memory.tearSafeWritePlan(for: message)
    } catch {
        if error.code == .insufficientCapacity { violated("a message within the capacity was refused: \(error)", input) }
        return  // locked or protected areas may refuse a plan; that is not a finding
    }
    do {
        let after = try memory.applying(plan, authenticated: true)
        if after.message != message { violated("a write plan does not leave the message it was made for", input) }
        guard plan.steps.count <= 40 else { return }
        for count in 0..<plan.steps.count {
            let partial = TagWritePlan(steps: Array(plan.steps.prefix(count)), requiresAuthentication: true)
            let torn = try memory.applying(partial, authenticated: true).message
            if torn != nil && torn != memory.message && torn != message {
                violated("after \(count) of \(plan.steps.count) steps the tag holds another message", input)
            }
        }
    } catch {
        violated("a write plan has a step the tag refuses: \(error)", input)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzType2(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input: [UInt8] = if let start, count > 0 { Array(UnsafeBufferPointer(start: start, count: count)) } else { [] }
    let chips = Type2ChipCatalogue.all
    let chip = chips[Int(input.last ?? 0) % chips.count]

    // The input as a whole image, with and without a chip.
    checkMemory(Type2Memory(bytes: input), input: input)
    checkMemory(Type2Memory(bytes: input, chip: chip), input: input)

    // The input as the data area of a formatted tag, so the TLV walk sees every input.
    let size = UInt8(clamping: (input.count + 7) / 8)
    let header: [UInt8] = [
        0x04, 0x01, 0x02, 0x8F, 0x03, 0x04, 0x05, 0x06, 0x04, 0x48, 0x00, 0x00, 0xE1, 0x10, size, 0x00,
    ]
    checkMemory(Type2Memory(bytes: header + input), input: input)
    checkMemory(Type2Memory(bytes: header + input, chip: chip), input: input)
    checkWritePlan(Type2Memory(bytes: header + input), input: input)
    if (header + input).count <= chip.pageCount * 4 {
        let image = header + input + Array(repeating: 0, count: chip.pageCount * 4 - header.count - input.count)
        checkWritePlan(Type2Memory(bytes: image, chip: chip), input: input)
    }

    // The bare scanner, with reserved ranges taken from the first bytes and without control TLVs.
    var reserved = ReservedByteRanges()
    for pair in stride(from: 0, to: min(8, input.count - 1), by: 2) {
        let from = Int(input[pair])
        reserved.insert(from..<(from + Int(input[pair + 1] % 16)))
    }
    let area = 0..<input.count
    checkScan(
        TagTLVScanner.scan(input[...], area: area, reserved: reserved), area: area, memoryEnd: input.count, input: input
    )
    let plain = TagTLVScanner.scan(input[...], area: area, interpretsControlTLVs: false)
    checkScan(plain, area: area, memoryEnd: input.count, input: input)
    return 0
}
