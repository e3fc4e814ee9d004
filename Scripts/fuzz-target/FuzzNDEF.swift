// libFuzzer entry point for the NDEF codec.
//
// Scripts/fuzz compiles this directory together with every source file of the NDEF module into
// one executable (`swiftc -sanitize=fuzzer,address`), so it is not a package target and uses
// the module's declarations directly. Decoding must never trap on any input; the invariants
// below turn silent inconsistencies into crashes, which libFuzzer reports.
//
// One source, three targets, chosen when compiling, so the cheap decoder checks run at full
// speed and the expensive ones get their own runs:
//   (default)          the decoder: strict (plain path and full), lenient, sliced, limited and
//                      sequence decoding agree
//   -D NDEF_FUZZ_VIEWS every record through its typed view, which must read back what it builds
//   -D NDEF_FUZZ_JSON  the message JSON, each view's JSON value, and re-encoding round trips
//
// With NDEF_FUZZ_VIEW_CHECKS=0 in the environment the views target still runs the views on
// every record (a trap is still a finding) but does not check their round trips, so the
// fuzzer can look past a known view inconsistency for crashes.

#if canImport(Glibc)
    import Glibc
#endif

/// Whether typed views must read back what they build and what their JSON says.
let checksViews: Bool = {
    guard let value = getenv("NDEF_FUZZ_VIEW_CHECKS") else { return true }
    return String(cString: value) != "0"
}()

/// Stops the run with a message: an invariant of the codec does not hold for this input.
func violated(_ what: String, _ bytes: [UInt8]) -> Never {
    let shown = bytes.prefix(64).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    fatalError("fuzz invariant violated: \(what); input (\(bytes.count) bytes) starts \(shown)")
}

/// Encodes `message` and checks that strict decoding gives it back, record for record.
func checkEncoding(_ message: NFCNDEFMessage, chunkSize: Int?, mustEncode: Bool, input: [UInt8]) {
    let encoded: [UInt8]
    do {
        encoded = try message.encoded(chunkSize: chunkSize)
    } catch {
        if mustEncode { violated("a strictly decoded message does not encode: \(error)", input) }
        return
    }
    if chunkSize == nil, encoded.count != message.length {
        violated("length is \(message.length) but the encoding has \(encoded.count) bytes", input)
    }
    let again: NFCNDEFMessage
    do {
        again = try NFCNDEFMessage(decoding: encoded)
    } catch {
        violated("encoder output (chunk size \(String(describing: chunkSize))) fails strict decoding: \(error)", input)
    }
    if again != message {
        violated("encode then decode (chunk size \(String(describing: chunkSize))) changed the message", input)
    }
}

/// Reads `value` back from the record it builds: a view must read what it writes.
func checkView<View: NDEFRecordConvertible>(_ value: View, input: [UInt8]) {
    _ = value.description
    let record: NFCNDEFPayload
    do {
        record = try value.makeRecord()
    } catch {
        return  // a value read leniently may not be writable as it stands
    }
    guard View.matches(record) else { violated("\(View.kind): makeRecord() builds a record it does not match", input) }
    let reread: View
    do {
        reread = try View(parsing: record)
    } catch {
        violated("\(View.kind): cannot parse the record it built: \(error)", input)
    }
    if reread != value { violated("\(View.kind): parse(makeRecord(value)) differs from value", input) }
}

/// Reads every record through its typed view, at the default and at zero nesting depth; the
/// view chosen by format (`view()`) must be the registry's, and `interpreted()` its value.
func checkRecords(_ message: NFCNDEFMessage, input: [UInt8]) {
    for record in message.records {
        _ = record.typeString
        _ = record.identifierString
        let registered = NDEFRecordRegistry.view(format: record.typeNameFormat, type: record.type)
        for options in [NDEFDecodingOptions(), NDEFDecodingOptions(maximumNestingDepth: 0)] {
            do {
                let view = try record.view(options: options)
                if view.map({ type(of: $0.value).kind }) != registered?.kind {
                    violated("view() picks \(String(describing: view)), the registry \(String(describing: registered))", input)
                }
                if let value = view?.value {
                    _ = value.description
                    if checksViews { checkView(value, input: input) }
                }
            } catch {
                _ = error.description
                guard let registered, (try? registered.init(parsing: record, options: options)) == nil else {
                    violated("view() throws \(error) where the registry's view parses", input)
                }
            }
        }
    }
}

/// The input read as hex text must parse, if at all, to bytes that print back to the same digits.
func checkHex(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    let bytes: [UInt8]
    do {
        bytes = try Hex.decode(text, allowSeparators: input.count % 2 == 1)
    } catch {
        _ = error.description
        return
    }
    let printed = Hex.encode(bytes)
    guard (try? Hex.decode(printed)) == bytes else { violated("hex printed by encode does not parse back", input) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDEF(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input: [UInt8] = if let start, count > 0 { Array(UnsafeBufferPointer(start: start, count: count)) } else { [] }
    #if NDEF_FUZZ_VIEWS
        fuzzViews(input)
    #elseif NDEF_FUZZ_JSON
        fuzzJSONAndEncoding(input)
    #else
        fuzzDecoder(input)
    #endif
    return 0
}

/// The message strict decoding gives, or nil; and lenient decoding's recovery, or nil.
func decodeBoth(_ input: [UInt8]) -> (strict: NFCNDEFMessage?, lenient: NDEFRecovery?) {
    var strict: NFCNDEFMessage?
    do {
        strict = try NFCNDEFMessage(decoding: input)
    } catch {
        _ = error.description
    }
    var lenient: NDEFRecovery?
    do {
        lenient = try NFCNDEFMessage.recovering(from: input)
    } catch {
        _ = error.description
    }
    return (strict, lenient)
}

/// The decoder target: every way of decoding the same bytes must agree.
///
/// Strict, lenient and plain-against-full decoding are checked on every input; the three other
/// ways of decoding (a slice of a larger buffer, a tight record limit, NDEFRecordSequence) one
/// per input, chosen by its last byte, so the target keeps its speed and a mutation of that
/// byte moves an input to another check.
func fuzzDecoder(_ input: [UInt8]) {
    let (strict, lenient) = decodeBoth(input)
    let sampled = Int(input.last ?? 0) % 3

    // The same bytes inside a larger buffer: offsets must be relative to the slice.
    if sampled == 0 {
        let framed = [0xEE] + input + [0xEE]
        let sliced = try? NFCNDEFMessage(decoding: framed[1..<(framed.count - 1)])
        if sliced != strict { violated("decoding a slice differs from decoding an array", input) }
    }

    // A tight record limit must only ever turn success into tooManyRecords.
    if sampled == 1 {
        do {
            let limited = try NFCNDEFMessage(decoding: input, options: NDEFDecodingOptions(maximumRecordCount: 2))
            if limited != strict { violated("a record limit changed what was decoded", input) }
        } catch {
            if strict != nil && error.code != .tooManyRecords {
                violated("a record limit made decoding fail with \(error.code.rawValue)", input)
            }
        }
    }

    // The plain-message path must agree with the full strict decoder wherever it answers.
    if let plain = NDEFMessageDecoder.decodePlain(input[...], maximumRecordCount: 16_384) {
        var full = NDEFMessageDecoder(input[...], options: NDEFDecodingOptions(), lenient: false)
        guard let records = try? full.decode(), records == plain else {
            violated("the plain-message path accepts what the full decoder refuses or reads otherwise", input)
        }
    }

    // NDEFRecordSequence checks as the message decoder does and yields the same records.
    if sampled == 2 {
        do {
            let records = Array(try NDEFRecordSequence(decoding: input))
            guard let strict, strict.records == records, strict.records.map(\.chunkSizes) == records.map(\.chunkSizes)
            else { violated("NDEFRecordSequence accepts what NFCNDEFMessage refuses, or reads it otherwise", input) }
        } catch {
            if strict != nil {
                violated("NDEFRecordSequence refuses a message NFCNDEFMessage accepts: \(error)", input)
            }
        }
    }
    if let strict {
        guard let lenient else { violated("strict decoding succeeds but lenient decoding throws", input) }
        if lenient.message != strict { violated("lenient and strict decoding differ on a valid message", input) }
        if lenient.issues.contains(where: { $0.code != .reservedTypeNameFormat }) {
            violated("lenient decoding reports an issue in a message strict decoding accepts", input)
        }
    }
    if let lenient {
        if lenient.isClean, strict == nil {
            violated("lenient decoding reports no issue but strict decoding throws", input)
        }
        if lenient.message.records.isEmpty { violated("lenient decoding returned no records without throwing", input) }
    }
}

/// The views target: every record of what decodes, strictly or leniently, through its view.
func fuzzViews(_ input: [UInt8]) {
    let (strict, lenient) = decodeBoth(input)
    if let message = strict ?? lenient?.message {
        checkRecords(message, input: input)
    }
}
