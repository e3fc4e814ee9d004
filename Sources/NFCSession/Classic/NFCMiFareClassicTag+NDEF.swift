import NDEF
import TagMemory

extension NFCMiFareClassicTag: NFCNDEFTag {
    public nonisolated var isAvailable: Bool { !lifetime.isInvalidated }

    /// The UID and the product: `C1:7A:55:0E: MIFARE Classic 1K`.
    public nonisolated var description: String { "\(targetInfo.uidDescription): \(type)" }

    /// The product's name, `MIFARE Classic 1K`.
    public nonisolated var chipName: String? { type.description }

    /// `block write` (WRITE A0h, MF1S50yyX 9.4.2).
    public nonisolated var writeCommandName: String { "block write" }

    /// Calls `observer` after each accepted WRITE of every plan the card sends from now on.
    public func observeWriteProgress(_ observer: (@Sendable (NFCWriteProgress) -> Void)?) {
        writeProgressObserver = observer
    }

    /// The NDEF status and capacity (AN1304): read with the public keys, the MAD and the
    /// trailer of every NFC sector. A card whose sector 0 does not open with the MAD key A, or
    /// an NFC sector with the NFC Forum key A, is not NDEF formatted (``TagMemory/NFCNDEFStatus/notSupported``).
    public func queryNDEFStatus() async throws(NFCReaderError) -> (NFCNDEFStatus, Int) {
        let status = try await ndefStatus()
        return (status.status, status.capacity)
    }

    /// The NDEF status and capacity as one value (see ``queryNDEFStatus()``).
    public func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus {
        try await beginOperation()
        defer { endOperation() }
        let area = try await loadNDEFArea(.status)
        // A sector that refuses its public key makes the card unusable to a reader (AN1304).
        if area.refusal != nil { return NDEFTagStatus(status: .notSupported, capacity: 0) }
        return area.memory.ndefStatus
    }

    /// The status the last write or erase left, without a command; else ``ndefStatus()``.
    public func ndefStatusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        if let lastWrittenStatus { return lastWrittenStatus }
        return try await ndefStatus()
    }

    /// The message (AN1304): the MAD with its key A, then the NFC sectors with the NFC Forum
    /// key A, in order, until the NDEF Message TLV ends.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` for a card that is not NDEF formatted;
    ///   ``NFCReaderError/Code/zeroLengthMessage`` for an empty message;
    ///   ``NFCReaderError/Code/invalidMessage`` for bytes that are no NDEF message.
    public func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await beginOperation()
        defer { endOperation() }
        let area = try await loadNDEFArea(.message)
        if let refusal = area.refusal {
            throw NFCReaderError(.tagNotSupported, "the card is not NDEF formatted: \(refusal)")
        }
        return try Self.message(in: area.memory, reason: area.reason)
    }

    /// ``readNDEF()``: a MIFARE Classic card mirrors nothing into its message.
    public func readNDEFAsWritten() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await readNDEF()
    }

    /// The message bytes as stored (empty for an empty message); nil when the NFC sectors hold
    /// no NDEF Message TLV.
    public func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
        try await beginOperation()
        defer { endOperation() }
        let area = try await loadNDEFArea(.message)
        if area.memory.ndefMessageBytes == nil, area.memory.ndefTLVAddress == nil, area.memory.directory == nil {
            throw NFCReaderError(.tagNotSupported, "the card is not NDEF formatted: \(area.reason)")
        }
        return area.memory.ndefMessageBytes
    }

    /// Writes `message` (AN1304), capacity-checked, in the cut-safe order of
    /// ``TagMemory/MifareClassicMemory/writePlan(messageBytes:)`` (the length block with
    /// length 0 first and with the final length last), each sector authenticated with the NFC
    /// Forum key A, every written block read back.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` for a message without records, before
    ///   any command; ``NFCReaderError/Code/tagNotSupported`` for a card that is not NDEF
    ///   formatted; ``NFCReaderError/Code/tagNotWritable`` for a read-only card and
    ///   ``NFCReaderError/Code/tagSizeTooSmall`` for a message that does not fit, before any
    ///   write; ``NFCReaderError/Code/tagConnectionLost`` (half-written) when the card leaves
    ///   during the writes; ``NFCReaderError/Code/tagUpdateFailure`` for a refused write or a
    ///   read-back that differs.
    public func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try Self.encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        try await writeMessage(bytes, purpose: "the NDEF write")
    }

    /// Completes an interrupted write: the plan starts from what the card holds, so only the
    /// blocks still missing are written, then the length.
    public func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try Self.encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        try await writeMessage(bytes, purpose: "the resumed NDEF write")
    }

    /// The block writes ``writeNDEF(_:)`` would send, in order, without writing.
    public func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan {
        let bytes = try Self.encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        let area = try await loadNDEFArea(.writeArea(dataFromTLV: bytes.count + 5))
        return try Self.plan(bytes, for: area, purpose: "cannot write the message")
    }

    /// Empties the message: the NDEF TLV's length becomes 0 (usually one block write).
    public func erase() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try await writeMessage([], purpose: "the erase")
    }

    /// The block writes ``erase()`` would send, without writing.
    public func plannedErase() async throws(NFCReaderError) -> TagWritePlan {
        try await beginOperation()
        defer { endOperation() }
        return try Self.plan(
            [], for: try await loadNDEFArea(.writeArea(dataFromTLV: 5)), purpose: "cannot erase the card")
    }

    /// Erases a card that is NDEF formatted and writable. A card that is not NDEF formatted is
    /// not formatted here: that changes its keys, which needs the card's current keys and the
    /// key B to install, and a confirmation.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` for a card that is not NDEF formatted;
    ///   the errors of ``erase()``.
    public func format() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        let area = try await loadNDEFArea(.status)
        guard area.refusal == nil, area.memory.ndefStatus.status != .notSupported else {
            throw NFCReaderError(
                .tagNotSupported,
                "the card is not NDEF formatted (\(area.reason)); formatting a MIFARE Classic card changes its "
                    + "keys and needs its current keys and the key B to install")
        }
        try await writeMessage([], purpose: "the format (erase)")
    }
}

extension NFCMiFareClassicTag {
    /// How much of the NFC sectors a read covers.
    enum Extent: Equatable {
        /// The sectors until the NDEF Message TLV ends.
        case message
        /// The data of the sectors until the NDEF Message TLV ends and until `bytes` bytes from
        /// its T byte on are read (what a new TLV of that size covers), and the trailer of every
        /// other NFC sector (for the status).
        case everyTrailer(dataFromTLV: Int)
        /// The sectors a write of a TLV of `bytes` bytes reads or writes, whole (their trailers
        /// tell whether the public key A may write them): nothing past them.
        case writeArea(dataFromTLV: Int)

        /// The extent a status needs.
        static let status = Extent.everyTrailer(dataFromTLV: 0)

        /// Whether the read stops once the data it needs is read.
        var stopsWithTheData: Bool {
            switch self {
            case .message, .writeArea: true
            case .everyTrailer: false
            }
        }

        /// The bytes from the TLV's T byte on that a new TLV covers.
        var newTLVSize: Int {
            switch self {
            case .message: 0
            case .everyTrailer(let size), .writeArea(let size): size
            }
        }
    }

    /// What a read of the NDEF area found, and why it stopped when it could not go on.
    struct Area {
        var memory: MifareClassicMemory
        var reason: String
        /// Why the read stopped early (a sector refused its public key), nil when it did not.
        var refusal: String?
    }

    /// Reads the MAD (sector 0, and sector 16 when sector 0's GPB announces MAD2) with the MAD
    /// key A, then the NFC sectors with the NFC Forum key A as `extent` says. A sector that
    /// does not open with its public key ends the read: the memory then shows what was read
    /// and the reason says which sector refused.
    func loadNDEFArea(_ extent: Extent) async throws(NFCReaderError) -> Area {
        var image = [UInt8](repeating: 0, count: type.byteCount)
        var read: Set<Int> = []
        func memory() -> MifareClassicMemory {
            MifareClassicMemory(bytes: image, type: type, readSectors: read)
        }
        guard try await load(sector: 0, key: .directoryKeyA, into: &image) else {
            let why = "sector 0 does not open with the MAD key A (no MAD, AN10787)"
            return Area(memory: memory(), reason: why, refusal: why)
        }
        read.insert(0)
        let gpb = MifareClassicGeneralPurposeByte(rawValue: image[MifareApplicationDirectory.generalPurposeByteAddress])
        if type.hasMAD2Sector, gpb.isMADAvailable, gpb.madVersion == 2 {
            guard try await load(sector: MifareClassicSector.mad2SectorNumber, key: .directoryKeyA, into: &image)
            else {
                let why = "sector 16 does not open with the MAD key A (no MAD2, AN10787)"
                return Area(memory: memory(), reason: why, refusal: why)
            }
            read.insert(MifareClassicSector.mad2SectorNumber)
        }
        var current = memory()
        var dataComplete = false
        // The list may grow as sectors come in: a message that runs past the contiguous NFC
        // sectors goes on in those after a gap (MifareClassicMemory's reading of a card
        // libfreefare laid out); what was read before stays a prefix of it.
        var next = 0
        while next < current.ndefSectors.count {
            let sector = current.ndefSectors[next]
            next += 1
            if dataComplete && extent.stopsWithTheData { break }
            guard try await load(sector: sector.number, key: .ndefKeyA, into: &image, trailerOnly: dataComplete)
            else {
                let why = "\(sector) does not open with the NFC Forum key A (AN1304)"
                return Area(memory: memory(), reason: why, refusal: why)
            }
            read.insert(sector.number)
            current = memory()
            if !dataComplete { dataComplete = Self.holdsEnoughData(current, through: sector, extent) }
        }
        return Area(memory: current, reason: current.ndefStatusReason ?? current.problem?.reason ?? "", refusal: nil)
    }

    /// Whether the data read through `sector` holds the whole NDEF Message TLV (the scan did not
    /// run out of image) and, for a write, the bytes a new TLV of the extent's size covers.
    static func holdsEnoughData(_ memory: MifareClassicMemory, through sector: MifareClassicSector, _ extent: Extent)
        -> Bool
    {
        guard memory.problem?.code != .truncatedImage else { return false }
        let size = extent.newTLVSize
        guard size > 0 else { return true }
        guard let start = memory.ndefTLVAddress ?? memory.dataArea?.lowerBound else { return true }
        let held = memory.skippedBytes.freeRanges(in: start..<sector.dataBytes.upperBound).reduce(0) { $0 + $1.count }
        return held >= size
    }

    /// Authenticates `sector` with `key` as key A and reads its data blocks (block 0 aside) and
    /// trailer, or the trailer only, into `image`. False when the card refuses the key.
    private func load(
        sector number: Int, key: MifareClassicKey, into image: inout [UInt8], trailerOnly: Bool = false
    ) async throws(NFCReaderError) -> Bool {
        guard let sector = MifareClassicSector(number) else { return false }
        do {
            try await authenticateSector(number, keyB: false, key: key)
        } catch {
            if error.code == .authenticationFailed { return false }
            throw error
        }
        let blocks =
            trailerOnly ? [sector.trailerBlock] : Array(sector.firstBlock...sector.trailerBlock).filter { $0 != 0 }
        for block in blocks {
            let data = try await read(block: block)
            let start = block * MifareClassicSector.blockSize
            image.replaceSubrange(start..<(start + MifareClassicSector.blockSize), with: data)
        }
        return true
    }

    /// The message of `memory`, or the error a read reports.
    static func message(in memory: MifareClassicMemory, reason: String) throws(NFCReaderError) -> NFCNDEFMessage {
        if let message = memory.message { return message }
        if memory.ndefMessageBytes == [] {
            throw NFCReaderError(.zeroLengthMessage, "the card holds an empty NDEF message (NDEF TLV length 0)")
        }
        guard let problem = memory.problem else {
            throw NFCReaderError(.tagNotSupported, "the card is not NDEF formatted: \(reason)")
        }
        switch problem.code {
        case .notFormatted: throw NFCReaderError(.tagNotSupported, "the card holds no NDEF message: \(problem.reason)")
        case .truncatedImage:
            throw NFCReaderError(.tagResponseError, "the NDEF message could not be read whole: \(problem.reason)")
        default: throw NFCReaderError(.invalidMessage, problem.reason)
        }
    }

    /// `message` encoded for a write; a message without records is refused, as CoreNFC does.
    static func encodedForWriting(_ message: NFCNDEFMessage) throws(NFCReaderError) -> [UInt8] {
        guard !message.records.isEmpty else {
            throw NFCReaderError(.zeroLengthMessage, "an NDEF message has at least one record; erase empties a card")
        }
        do {
            return try message.encoded()
        } catch {
            throw NFCReaderError(.invalidMessage, "the message cannot be encoded: \(error.reason)")
        }
    }

    /// The plan for `message` over `area`.
    static func plan(_ message: [UInt8], for area: Area, purpose: String) throws(NFCReaderError) -> TagWritePlan {
        if area.refusal != nil || area.memory.directory == nil || area.memory.ndefSectors.isEmpty {
            throw NFCReaderError(.tagNotSupported, "\(purpose): the card is not NDEF formatted: \(area.reason)")
        }
        do {
            return try area.memory.writePlan(messageBytes: message)
        } catch {
            var failure = NFCReaderError(planning: error, purpose)
            if error.code == .insufficientCapacity, let address = area.memory.ndefTLVAddress {
                failure.capacity = area.memory.capacity(forTLVAt: address)
                failure.neededSize = message.count
            }
            throw failure
        }
    }

    /// Reads, plans, writes and reads back `message` (see ``writeNDEF(_:)``).
    func writeMessage(_ message: [UInt8], purpose: String) async throws(NFCReaderError) {
        // The TLV's T byte, a length of up to three bytes, the message and the Terminator TLV.
        let area = try await loadNDEFArea(.writeArea(dataFromTLV: message.count + 5))
        let plan = try Self.plan(message, for: area, purpose: "cannot carry out \(purpose)")
        var expected = area.memory.bytes
        for step in plan.steps {
            let start = step.address * MifareClassicSector.blockSize
            expected.replaceSubrange(start..<(start + step.data.count), with: step.data)
        }
        try await execute(plan.steps, purpose: purpose)
        try await verify(plan.steps, expected: expected, purpose: purpose)
        let written = MifareClassicMemory(bytes: expected, type: type, readSectors: area.memory.readSectors)
        lastWrittenStatus = written.ndefStatus
    }

    /// Sends `steps` as WRITE A0h commands, authenticating each sector with the NFC Forum key A
    /// as the steps reach it. No write is repeated.
    func execute(_ steps: [PlanStep], purpose: String) async throws(NFCReaderError) {
        lastWrittenStatus = nil
        for (index, step) in steps.enumerated() {
            let position = "WRITE \(index + 1) of \(steps.count) (block \(step.address))"
            do {
                try await open(blockSectorOf: step.address)
                try await write(block: step.address, data: step.data, purpose: purpose)
            } catch {
                let code: NFCReaderError.Code = error.code == .tagResponseError ? .tagUpdateFailure : error.code
                throw NFCReaderError(
                    code, "\(position) of \(purpose): \(error.reason)",
                    mayBeHalfWritten: index > 0 || error.code == .tagConnectionLost)
            }
            writeProgressObserver?(NFCWriteProgress(written: index + 1, planned: steps.count, purpose: purpose))
        }
    }

    /// Reads back each block `steps` wrote, once, in block order, and compares it with
    /// `expected`, the image the plan leads to.
    func verify(_ steps: [PlanStep], expected: [UInt8], purpose: String) async throws(NFCReaderError) {
        let size = MifareClassicSector.blockSize
        for block in Set(steps.map(\.address)).sorted() {
            let found: [UInt8]
            do {
                try await open(blockSectorOf: block)
                found = try await read(block: block)
            } catch {
                throw NFCReaderError(
                    error.code, "reading back block \(block) after \(purpose): \(error.reason)", mayBeHalfWritten: true)
            }
            guard found == Array(expected[(block * size)..<(block * size + size)]) else {
                throw NFCReaderError(
                    .tagUpdateFailure, "block \(block) reads back other bytes than \(purpose) wrote",
                    mayBeHalfWritten: true)
            }
        }
    }

    /// Authenticates the sector of `block` with the NFC Forum key A, unless it is authenticated.
    private func open(blockSectorOf block: Int) async throws(NFCReaderError) {
        guard let sector = MifareClassicSector.containing(block: block) else {
            throw NFCReaderError(.invalidParameter, "no sector holds block \(block)")
        }
        if authenticatedSector?.sector == sector.number { return }
        try await authenticateSector(sector.number, keyB: false, key: .ndefKeyA)
    }
}

extension NFCMiFareClassicTag {
    /// The MAD and the NFC sectors as the public keys read them (the message's sectors whole,
    /// every other NFC sector's trailer), without writing; for reports. A card whose MAD or an
    /// NFC sector does not open with its public key gives what was read before it.
    public func readMemory() async throws(NFCReaderError) -> MifareClassicMemory {
        try await beginOperation()
        defer { endOperation() }
        return try await loadNDEFArea(.status).memory
    }
}
