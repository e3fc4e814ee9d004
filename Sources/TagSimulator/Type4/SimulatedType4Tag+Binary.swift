import NFCWireFormat
import NTAG424
import TagMemory

extension SimulatedType4Tag {
    /// A READ BINARY as the tag understood it.
    struct ReadRequest {
        var offset: Int
        /// Ne.
        var expectedLength: Int
        var asksForAllAvailable: Bool
        /// Whether the answer wraps the data in a discretionary data object (`B1`).
        var wrapsData: Bool
    }

    /// An UPDATE BINARY as the tag understood it.
    struct UpdateRequest {
        var offset: Int
        /// The bytes to write.
        var data: ArraySlice<UInt8>
        /// Nc, the whole command data field (with the `D7` wrappers), which MLc limits.
        var commandDataCount: Int
    }

    /// The contents of `file`, if the tag has it.
    func contents(of file: UInt16) -> [UInt8]? {
        switch file {
        case Type4CapabilityContainer.fileIdentifier: capabilityContainerFile
        case configuration.ndefFileIdentifier: ndefFile
        case SimulatedNTAG424Chip.proprietaryFileIdentifier: ntag424?.proprietaryFile
        default: nil
        }
    }

    /// The NDEF file's read and write access bytes as the CC file holds them now (T4T 3.0,
    /// 5.1.2); FF when the CC file has lost them.
    var currentAccess: (read: Type4AccessCondition, write: Type4AccessCondition) {
        let write = factoryCapabilityContainer.writeAccessOffset
        let file = capabilityContainerFile
        return (
            Type4AccessCondition(rawValue: file.indices.contains(write - 1) ? file[write - 1] : 0xFF),
            Type4AccessCondition(rawValue: file.indices.contains(write) ? file[write] : 0xFF)
        )
    }

    /// Whether READ BINARY may read `file`: the CC file always (5.1), the NDEF file when its
    /// read access is `00`.
    func isReadable(_ file: UInt16) -> Bool {
        if let chip = ntag424 { return chip.isoAccess(file, writing: false) }
        return file == Type4CapabilityContainer.fileIdentifier || currentAccess.read.isGranted
    }

    /// Whether UPDATE BINARY may write `file`: the CC file when the configuration allows it,
    /// the NDEF file when its write access is `00`.
    func isWritable(_ file: UInt16) -> Bool {
        if let chip = ntag424 { return chip.isoAccess(file, writing: true) }
        if file == Type4CapabilityContainer.fileIdentifier { return configuration.isCapabilityContainerWritable }
        return currentAccess.write.isGranted
    }

    /// READ BINARY `B0` (offset in P1-P2, T4T 3.0 5.4.4) or, from version 3.0, `B1` with an
    /// offset data object `54 03 o o o` as command data (5.4.6, P1-P2 `0000`: current file).
    func readRequest(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) -> ReadRequest {
        let wraps = apdu.ins == 0xB1
        if wraps, configuration.majorVersion < 3 { throw SimulatedType4Refusal(.instructionNotSupported) }
        guard let expected = apdu.expectedLength, apdu.hasCommandData == wraps else {
            throw SimulatedType4Refusal(.wrongLength)
        }
        let offset: Int
        if wraps {
            guard apdu.p1 == 0, apdu.p2 == 0 else { throw SimulatedType4Refusal(.incorrectParameters) }
            var reader = apdu.data
            guard let value = Self.offsetDataObject(&reader), reader.isEmpty else {
                throw SimulatedType4Refusal(.incorrectData)
            }
            offset = value
        } else {
            guard apdu.p1 & 0x80 == 0 else { throw SimulatedType4Refusal(.incorrectParameters) }
            offset = apdu.offset
        }
        return ReadRequest(
            offset: offset, expectedLength: expected, asksForAllAvailable: apdu.asksForAllAvailable, wrapsData: wraps)
    }

    /// Reads from the selected file: at most Ne bytes and no further than its end. On an
    /// NTAG 424 DNA with SDM on, the NDEF file as SDM mirrors it (NT4H2421Gx 9.3).
    mutating func readBinary(_ request: ReadRequest) throws(SimulatedType4Refusal) -> Type4Response {
        guard let file = selectedFile, var content = contents(of: file) else {
            throw SimulatedType4Refusal(.commandNotAllowed)
        }
        guard isReadable(file) else { throw SimulatedType4Refusal(.securityStatusNotSatisfied) }
        if var chip = ntag424, file == configuration.ndefFileIdentifier, chip.fileSettings[0x02]?.sdm != nil {
            do {
                content = try sdmContents(kind: .isoReadBinary, chip: &chip)
            } catch {
                throw SimulatedType4Refusal(.securityStatusNotSatisfied)
            }
            ntag424 = chip
        }
        guard request.expectedLength <= configuration.maximumResponseDataSize else {
            throw SimulatedType4Refusal(.wrongLength)
        }
        guard request.offset < content.count else { throw SimulatedType4Refusal(.wrongParameters) }
        let available = content.count - request.offset
        if request.wrapsData {
            let count = Self.largestWrappedCount(budget: request.expectedLength, available: available)
            guard let count else { throw SimulatedType4Refusal(.wrongLength) }
            let data = content[request.offset..<(request.offset + count)]
            return Type4Response(data: [0x53] + Self.berLength(count) + data, status: .success)
        }
        let count = min(request.expectedLength, available)
        let short = count < request.expectedLength && !request.asksForAllAvailable
        return Type4Response(
            data: Array(content[request.offset..<(request.offset + count)]),
            status: short && configuration.reportsEndOfFile ? .endOfData : .success)
    }

    /// UPDATE BINARY `D6` (offset in P1-P2, data as command data, no Le; T4T 3.0 5.4.5) or,
    /// from version 3.0, `D7` with `54 03 o o o 53 L data` as command data (5.4.7).
    func updateRequest(_ apdu: CommandAPDU) throws(SimulatedType4Refusal) -> UpdateRequest {
        let wraps = apdu.ins == 0xD7
        if wraps, configuration.majorVersion < 3 { throw SimulatedType4Refusal(.instructionNotSupported) }
        guard apdu.hasCommandData, apdu.expectedLength == nil else { throw SimulatedType4Refusal(.wrongLength) }
        guard wraps else {
            guard apdu.p1 & 0x80 == 0 else { throw SimulatedType4Refusal(.incorrectParameters) }
            return UpdateRequest(offset: apdu.offset, data: apdu.data, commandDataCount: apdu.data.count)
        }
        guard apdu.p1 == 0, apdu.p2 == 0 else { throw SimulatedType4Refusal(.incorrectParameters) }
        var reader = apdu.data
        guard let offset = Self.offsetDataObject(&reader), reader.popFirst() == 0x53,
            let length = Self.berLength(&reader), reader.count == length
        else { throw SimulatedType4Refusal(.incorrectData) }
        return UpdateRequest(offset: offset, data: reader, commandDataCount: apdu.data.count)
    }

    /// Writes to the selected file; with `keeping`, only that many of the first data bytes
    /// (a torn write). Nothing is written when the command is refused.
    mutating func updateBinary(_ request: UpdateRequest, keeping: Int?) throws(SimulatedType4Refusal) {
        guard let file = selectedFile, let size = contents(of: file)?.count else {
            throw SimulatedType4Refusal(.commandNotAllowed)
        }
        guard request.commandDataCount <= configuration.maximumCommandDataSize else {
            throw SimulatedType4Refusal(.wrongLength)
        }
        guard isWritable(file) else { throw SimulatedType4Refusal(.securityStatusNotSatisfied) }
        guard request.offset < size else { throw SimulatedType4Refusal(.wrongParameters) }
        guard request.data.count <= size - request.offset else { throw SimulatedType4Refusal(.notEnoughMemory) }
        let count = min(max(0, keeping ?? request.data.count), request.data.count)
        let range = request.offset..<(request.offset + count)
        let bytes = request.data.prefix(count)
        if file == Type4CapabilityContainer.fileIdentifier {
            capabilityContainerFile.replaceSubrange(range, with: bytes)
        } else if file == SimulatedNTAG424Chip.proprietaryFileIdentifier {
            ntag424?.proprietaryFile.replaceSubrange(range, with: bytes)
        } else {
            ndefFile.replaceSubrange(range, with: bytes)
        }
    }

    /// Applies a torn UPDATE BINARY: the tag receives `apdu` and loses power after writing
    /// the first `count` of its data bytes (clamped to 0...data count), for fault injection.
    ///
    /// The APDU is counted like any other. When the tag would accept it (ACTIVE, a valid `D6`
    /// or `D7` that ``transceiveAPDU(_:)`` answers with `9000`), the first `count` data bytes
    /// are written at its offset and the rest of the file is left as it was; otherwise nothing
    /// is written. Either way the tag sends no answer and ends powered down, as after
    /// ``fieldOff()``. ISO/IEC 7816-4 does not promise that an UPDATE BINARY is atomic; tags
    /// that buffer a whole frame (NT4H2421Gx 10.8.2) tear less often than this model allows.
    ///
    /// - Returns: the number of bytes written.
    @discardableResult
    public mutating func applyPartialUpdate(_ apdu: [UInt8], keepingBytes count: Int) -> Int {
        record(apdu)
        defer { fieldOff() }
        guard state == .active, SimulatedType4Command(apdu: apdu) == .updateBinary,
            let parsed = CommandAPDU(apdu), !parsed.isExtended || configuration.acceptsExtendedLength
        else { return 0 }
        do {
            let request = try updateRequest(parsed)
            try updateBinary(request, keeping: count)
            return min(max(0, count), request.data.count)
        } catch {
            return 0
        }
    }

    /// Reads an offset data object `54 03 o o o` (ISO/IEC 7816-4, 7.2.2) from the front.
    static func offsetDataObject(_ reader: inout ArraySlice<UInt8>) -> Int? {
        guard reader.popFirst() == 0x54, reader.popFirst() == 0x03, reader.count >= 3 else { return nil }
        let bytes = reader.prefix(3)
        reader = reader.dropFirst(3)
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads a BER-TLV length (one byte below 80h, or 81h-83h and 1 to 3 bytes) from the front.
    static func berLength(_ reader: inout ArraySlice<UInt8>) -> Int? {
        guard let first = reader.popFirst() else { return nil }
        guard first >= 0x80 else { return Int(first) }
        let count = Int(first & 0x7F)
        guard (1...3).contains(count), reader.count >= count else { return nil }
        let bytes = reader.prefix(count)
        reader = reader.dropFirst(count)
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// The BER-TLV length field for `length` (below 2²⁴), in its shortest form.
    static func berLength(_ length: Int) -> [UInt8] {
        let value = UInt32(truncatingIfNeeded: length)
        let bytes = [16, 8, 0].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
        switch length {
        case ..<0x80: return [UInt8(truncatingIfNeeded: value)]
        case ..<0x100: return [0x81] + bytes.suffix(1)
        case ..<0x1_0000: return [0x82] + bytes.suffix(2)
        default: return [0x83] + bytes
        }
    }

    /// The most file bytes a `B1` answer of at most `budget` bytes carries (tag 53, its
    /// length, the data), up to `available`; nil when not even the wrapping fits.
    static func largestWrappedCount(budget: Int, available: Int) -> Int? {
        var best: Int?
        for size in 1...4 {
            let room = min(budget - 1 - size, available)
            guard room >= 0, berLength(room).count <= size else { continue }
            best = max(best ?? 0, room)
        }
        return best
    }
}
