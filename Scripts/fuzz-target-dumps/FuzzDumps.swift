// libFuzzer entry point for tag dumps: format detection, the five readers and the five writers.
//
// `Scripts/fuzz --target dumps` compiles this file together with every source file of the NDEF
// and TagMemory modules into one executable (`swiftc -sanitize=fuzzer,address`; the TagMemory
// files are copied without their `import NDEF` line, since everything is one module here).
// Reading must never trap on any input; the invariants below turn round trips that lose or
// change something into crashes, which libFuzzer reports:
// - a dump read from the input in any format, written in that format and read again, is the
//   same dump: every field it has comes back unchanged, and a field it lacks may come back
//   only as the value the writer documents for it (a Flipper file without "Pages read" is
//   written with every page read); written and read once more, it is exactly the same;
// - written in another format that takes it (one per input, chosen by its last byte), it keeps
//   its memory image and layout, and that writer is canonical (read back and written again,
//   the same bytes);
// - the chip identification and the Type 2 reading of the image do not trap.

/// Stops the run: a dump invariant does not hold for this input.
func dumpViolated(_ what: String, _ bytes: [UInt8]) -> Never {
    let shown = bytes.prefix(64).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    fatalError("dump fuzz invariant violated: \(what); input (\(bytes.count) bytes) starts \(shown)")
}

/// Reads `bytes` in `format`, with `layout` for the formats that take one.
func readDump(_ bytes: [UInt8], _ format: TagDumpFormat, layout: TagDump.Layout?) -> TagDump? {
    let layout = format == .raw || format == .hexText ? layout : nil
    return try? TagDump(decoding: bytes, format: format, layout: layout)
}

/// Whether `copy` has every field of `dump` unchanged (fields `dump` lacks are not compared).
func keepsFields(of dump: TagDump, in copy: TagDump) -> Bool {
    func same<T: Equatable>(_ field: KeyPath<TagDump, T?>) -> Bool {
        dump[keyPath: field] == nil || dump[keyPath: field] == copy[keyPath: field]
    }
    return dump.layout == copy.layout && dump.memory == copy.memory && same(\.uid) && same(\.atqa) && same(\.sak)
        && same(\.version) && same(\.signature) && same(\.counters) && same(\.tearingFlags) && same(\.chipName)
        && same(\.readPageCount) && same(\.failedAuthenticationAttempts)
}

/// The round trips of one dump read in `format`.
func checkRoundTrips(_ dump: TagDump, readAs format: TagDumpFormat, input: [UInt8]) {
    _ = dump.description
    _ = (dump.password, dump.passwordAcknowledge, dump.effectiveUID)
    if let identification = dump.chipIdentification {
        _ = identification.passwordPage
        let memory = Type2Memory(bytes: dump.memory, chip: identification.chip)
        _ = (memory.ndefStatus, memory.regions, memory.lockedPages, memory.configuration?.mirror)
    }
    let own: [UInt8]
    do {
        own = try dump.encoded(as: format)
    } catch {
        dumpViolated("a dump read as \(format) cannot be written as \(format): \(error)", input)
    }
    guard let again = readDump(own, format, layout: dump.layout) else {
        dumpViolated("the \(format) writer's output does not read back", input)
    }
    if !keepsFields(of: dump, in: again) {
        dumpViolated("\(format): read, written and read again, a field of the dump changed", input)
    }
    guard let bytes = try? again.encoded(as: format), readDump(bytes, format, layout: dump.layout) == again else {
        dumpViolated("\(format): a second round trip changed the dump", input)
    }
    // One other format per input (chosen by its last byte), to keep executions fast; the
    // corpus covers them all.
    let others = TagDumpFormat.allCases.filter { $0 != format }
    for other in [others[Int(input.last ?? 0) % others.count]] {
        guard let bytes = try? dump.encoded(as: other) else { continue }
        guard let copy = readDump(bytes, other, layout: dump.layout) else {
            dumpViolated("the \(other) writer's output (from \(format)) does not read back", input)
        }
        if copy.memory != dump.memory || copy.layout != dump.layout {
            dumpViolated("\(format) through \(other) changed the memory image or its layout", input)
        }
        if (try? copy.encoded(as: other)) != bytes { dumpViolated("the \(other) writer is not canonical", input) }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDumps(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input: [UInt8] = if let start, count > 0 { Array(UnsafeBufferPointer(start: start, count: count)) } else { [] }
    for name in [nil, "tag.mfd", "tag.txt"] {
        guard let format = try? TagDump.detect(input, fileName: name) else { continue }
        guard let dump = try? TagDump(decoding: input, fileName: name) else { continue }
        if (try? TagDump(decoding: input, format: format)) != dump {
            dumpViolated("reading by detection differs from reading as the detected \(format)", input)
        }
    }
    for format in TagDumpFormat.allCases {
        // Only raw images and hex text take a layout; the other formats hold Type 2 pages.
        let layouts: [TagDump.Layout?] = format == .raw || format == .hexText ? [nil] + TagDump.Layout.allCases : [nil]
        for layout in layouts {
            guard let dump = readDump(input, format, layout: layout) else { continue }
            checkRoundTrips(dump, readAs: format, input: input)
        }
    }
    return 0
}
