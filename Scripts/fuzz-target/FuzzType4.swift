// libFuzzer entry point for the Type 4 tag memory parsers and planners (module TagMemory).
//
// Everything here is compiled only with `-D NDEF_FUZZ_TYPE4`: the NDEF fuzz mode builds every
// file of Scripts/fuzz-target without that flag, and sees an empty file. The Type 4 mode
// compiles this file alone with the sources of NDEF and TagMemory as one module named NDEF
// (TagMemory's `import NDEF` then only warns), so it uses their declarations directly:
//
//   swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 \
//       -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility \
//       -D NDEF_FUZZ_TYPE4 -module-name NDEF $(find Sources/NDEF Sources/TagMemory -name '*.swift') \
//       Scripts/fuzz-target/FuzzType4.swift -o .build/fuzz/type4-fuzzer
//
// Each input is read as a CC file, as an NDEF file under several CCs, as a response APDU and as
// command parameters. Parsers must never trap; the invariants below turn inconsistencies into
// crashes, which libFuzzer reports.

#if NDEF_FUZZ_TYPE4

    /// Stops the run: an invariant of the Type 4 code does not hold for this input.
    func type4Violated(_ what: String, _ bytes: [UInt8]) -> Never {
        let shown = bytes.prefix(64).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        fatalError("type 4 fuzz invariant violated: \(what); input (\(bytes.count) bytes) starts \(shown)")
    }

    /// Fixed capability containers the input is also read under as an NDEF file.
    let type4FuzzContainers: [Type4CapabilityContainer] = [
        Type4CapabilityContainer(
            maximumResponseDataSize: 59, maximumCommandDataSize: 52,
            ndefFile: Type4FileControl(kind: .ndef, fileIdentifier: 0xE104, maximumFileSize: 255)),
        Type4CapabilityContainer(
            mappingVersion: 0x30, maximumResponseDataSize: 255, maximumCommandDataSize: 255,
            ndefFile: Type4FileControl(kind: .extendedNDEF, fileIdentifier: 0xE104, maximumFileSize: 0x1200)),
    ]

    /// The input as a CC file: round trip, status, lock plan, read plan.
    func fuzzCapabilityContainer(_ input: [UInt8]) -> Type4CapabilityContainer? {
        let cc: Type4CapabilityContainer
        do {
            cc = try Type4CapabilityContainer(parsing: input)
        } catch {
            _ = error.description
            return nil
        }
        let framed = [0xEE] + input + [0xEE]
        if (try? Type4CapabilityContainer(parsing: framed[1..<(framed.count - 1)])) != cc {
            type4Violated("parsing a slice differs from parsing an array", input)
        }
        let encoded: [UInt8]
        do {
            encoded = try cc.encoded()
        } catch {
            type4Violated("a parsed CC does not encode: \(error)", input)
        }
        if encoded != Array(input.prefix(cc.length)) { type4Violated("encoded() differs from the CC read", input) }
        if (try? Type4CapabilityContainer(parsing: encoded)) != cc { type4Violated("CC round trip changed it", input) }
        _ = cc.conformanceIssues
        let status = cc.ndefStatus
        if status.capacity < 0 { type4Violated("negative capacity", input) }

        // Lock: at most one FF at the write access byte of E103; applied, the CC reads read-only.
        if let lock = try? cc.lockPlan() {
            for step in lock.steps
            where step.file != 0xE103 || step.address != cc.writeAccessOffset || step.data != [0xFF] {
                type4Violated("a lock step writes \(step)", input)
            }
            let files = Type4FileImages(files: [0xE103: encoded])
            guard let locked = try? files.applying(lock).capabilityContainer() else {
                type4Violated("the locked CC does not parse", input)
            }
            if locked.ndefFile.writeAccess != .none { type4Violated("the lock plan did not lock", input) }
        } else if status.status != .notSupported {
            type4Violated("a lock plan fails on a supported CC", input)
        }

        // Read plan for a length from the input: contiguous reads within the budget.
        let length = Swift.min(status.capacity, Int(input.last ?? 0) * 257)
        if let plan = try? cc.readPlan(messageLength: length) {
            var next = plan.lengthFieldSize
            for read in plan.dropFirst().prefix(64) {
                if read.offset != next || read.length < 1 { type4Violated("read plan gap at \(read)", input) }
                if read.length > Swift.max(plan.plainReadSize, plan.extendedReadSize) {
                    type4Violated("read of \(read.length) over budget", input)
                }
                if (try? Type4Command.readBinary(read)) == nil { type4Violated("no command for \(read)", input) }
                next += read.length
            }
            if let last = plan.last, plan.count > 1, last.offset + last.length != plan.lengthFieldSize + length {
                type4Violated("the read plan does not end at the message end", input)
            }
        }
        return cc
    }

    /// The input as an NDEF file under `cc`: framing and re-encoding; then, on a simulated tag
    /// holding the input, writing three messages (the one read, a fixed one, the one read with
    /// its last byte changed) with a command budget from the input, with and without the current
    /// image, checking the file after every step.
    func fuzzNDEFFile(_ input: [UInt8], _ cc: Type4CapabilityContainer) {
        let file: Type4NDEFFile
        do {
            file = try Type4NDEFFile(parsing: input, capabilityContainer: cc)
        } catch {
            _ = error.description
            return
        }
        let fieldSize = cc.messageLengthFieldSize
        guard let again = try? Type4NDEFFile.encoded(messageBytes: file.messageBytes, capabilityContainer: cc),
            again == Array(input.prefix(fieldSize + file.messageBytes.count))
        else {
            type4Violated("the NDEF file does not re-encode to its bytes", input)
        }
        if file.status != cc.ndefStatus { type4Violated("file status differs from the CC's", input) }
        guard cc.ndefStatus.status == .readWrite, cc.ndefFile.maximumFileSize <= 0x1_0000 else { return }

        let content = Array(input.prefix(cc.ndefFile.maximumFileSize))
        guard let start = try? Type4FileImages(capabilityContainer: cc, ndefFileContent: content) else {
            type4Violated("cannot simulate the tag", input)
        }
        let old = Array(file.messageBytes)
        var flipped = old
        if let last = flipped.indices.last { flipped[last] ^= 0x5A }
        let fixed: [UInt8] = [0xD1, 0x01, 0x04, 0x55, 0x03, 0x61, 0x2E, 0x62]  // URI http://a.b
        let budget = 4 + Int(input.first ?? 0) % 61
        for target in [old, fixed, flipped] where target.count <= cc.ndefStatus.capacity {
            for current in [content, nil] {
                let plan: TagWritePlan
                do {
                    plan = try cc.writePlan(
                        messageBytes: target, currentFile: current, maximumCommandData: budget,
                        singleUpdateWhenPossible: input.count % 2 == 0)
                } catch {
                    // An MLc smaller than NLEN is refused; nothing else may fail on a writable file.
                    if error.code == .unsupportedChip, cc.maximumCommandDataSize < fieldSize { return }
                    type4Violated("no write plan for a writable file: \(error)", input)
                }
                if current != nil, target == old, !plan.steps.isEmpty {
                    type4Violated("a plan rewrites what the current image proves in place", input)
                }
                var files = start
                for step in plan.steps {
                    if step.file != cc.ndefFile.fileIdentifier { type4Violated("a step on another file", input) }
                    if step.data.count > budget { type4Violated("a step over the budget", input) }
                    do {
                        try files.apply(TagWritePlan(steps: [step]))
                    } catch {
                        type4Violated("a write step does not apply: \(error)", input)
                    }
                    guard let image = files[cc.ndefFile.fileIdentifier],
                        let seen = try? Type4NDEFFile.messageBytes(in: image[...], capabilityContainer: cc),
                        seen.isEmpty || seen.elementsEqual(old) || seen.elementsEqual(target)
                    else {
                        type4Violated("a write torn after a step leaves a mixed file", input)
                    }
                }
                guard let image = files[cc.ndefFile.fileIdentifier],
                    let result = try? Type4NDEFFile.messageBytes(in: image[...], capabilityContainer: cc),
                    result.elementsEqual(target)
                else {
                    type4Violated("plan then apply does not give the message back", input)
                }
                if files[0xE103] != start[0xE103] { type4Violated("a write plan changed the CC file", input) }
            }
        }
    }

    /// The input as a response APDU and as command parameters.
    func fuzzAPDUs(_ input: [UInt8]) {
        if let response = try? Type4Response(parsing: input) {
            if response.bytes != input { type4Violated("response bytes differ from the input", input) }
            _ = response.description
            for command in [
                try? Type4Command.readBinary(offset: 0x8000, length: 16),
                try? Type4Command.readBinary(offset: 0, length: 2),
            ] {
                guard let command else { type4Violated("no READ BINARY for fixed parameters", input) }
                _ = try? response.binaryData(for: command)
            }
        }
        guard input.count >= 6 else { return }
        let offset = Int(input[0]) << 16 | Int(input[1]) << 8 | Int(input[2])
        let length = Int(input[3]) << 8 | Int(input[4])
        if let read = try? Type4Command.readBinary(offset: offset, length: length) {
            if read.instruction != (Type4Addressing.isPlain(offset: offset, length: length) ? 0xB0 : 0xB1) {
                type4Violated("READ BINARY chose the wrong form", input)
            }
        }
        let data = input.dropFirst(5)
        if let update = try? Type4Command.updateBinary(offset: offset, data: data) {
            if !update.bytes.suffix(data.count).elementsEqual(data) {
                type4Violated("UPDATE BINARY does not end with its data", input)
            }
        }
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzType4(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
        let input: [UInt8] =
            if let start, count > 0 { Array(UnsafeBufferPointer(start: start, count: count)) } else { [] }
        var containers = type4FuzzContainers
        if let cc = fuzzCapabilityContainer(input) {
            containers.append(cc)
        }
        // A CC whose MLc and file size come from the input's last bytes.
        if input.count >= 2 {
            var varied = type4FuzzContainers[0]
            varied.maximumCommandDataSize = 1 + Int(input[input.count - 1]) % 64
            varied.ndefFile.maximumFileSize = 5 + Int(input[input.count - 2])
            containers.append(varied)
        }
        for cc in containers {
            fuzzNDEFFile(input, cc)
        }
        fuzzAPDUs(input)
        return 0
    }

#endif
