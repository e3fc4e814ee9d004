import NDEF
import NFCWireFormat
import TagMemory

/// NDEF on Type 4 tags: NFC Forum Type 4 Tag 3.0, 5.5 (command sequences): SELECT the NDEF Tag
/// Application (5.5.2), SELECT and READ BINARY the CC file (5.5.3, 5.5.4), SELECT the NDEF file
/// (5.5.5), READ BINARY its length and message (5.5.6), UPDATE BINARY (5.5.7).
extension NFCISO7816Tag {
    /// The NDEF application as opened: its CC and the mapping version its AID answered to.
    struct OpenedNDEF {
        var capabilityContainer: Type4CapabilityContainer
        var majorVersion: Int
        /// The CC file as read, through CCLEN.
        var capabilityContainerImage: [UInt8]
    }

    /// The NDEF status and capacity, as CoreNFC's `queryNDEFStatus` gives them.
    public func queryNDEFStatus() async throws(NFCReaderError) -> (NFCNDEFStatus, Int) {
        let status = try await ndefStatus()
        return (status.status, status.capacity)
    }

    /// The NDEF status and capacity from the CC file's NDEF File Control TLV (T4T 3.0, 5.1.2:
    /// read access 00h, write access 00h read/write, FFh or proprietary read-only; capacity the
    /// maximum NDEF file size less NLEN). Commands: SELECT application, SELECT CC, READ BINARY.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` when the tag has no NDEF Tag Application
    ///   or CC file, or the CC is not one this version reads; the reader's errors.
    public func ndefStatus() async throws(NFCReaderError) -> NDEFTagStatus {
        try await beginOperation()
        defer { endOperation() }
        return try await openNDEF().capabilityContainer.ndefStatus
    }

    /// Reads the NDEF message (T4T 3.0, 5.5.6): NLEN first, then the message in READ BINARY
    /// commands of at most MLe bytes (and the reader's frame), never past NLEN.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` for NLEN 0;
    ///   ``NFCReaderError/Code/tagNotSupported`` without NDEF application, CC or read access;
    ///   ``NFCReaderError/Code/invalidMessage`` for an NLEN past the file or a malformed message;
    ///   ``NFCReaderError/Code/authenticationRequired`` for status word 6982h.
    public func readNDEF() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await beginOperation()
        defer { endOperation() }
        let (opened, file) = try await readReadableNDEFFile()
        let parsed: Type4NDEFFile
        do {
            parsed = try Type4NDEFFile(parsing: file, capabilityContainer: opened.capabilityContainer)
        } catch {
            throw NFCReaderError(planning: error, "the NDEF file cannot be read")
        }
        guard let message = parsed.message else {
            throw NFCReaderError(.zeroLengthMessage, "the tag holds an empty NDEF message (NLEN 0)")
        }
        return message
    }

    /// Selects the NDEF application and files and reads the NDEF file (NLEN and the message),
    /// refusing a CC that grants no read access.
    func readReadableNDEFFile() async throws(NFCReaderError) -> (OpenedNDEF, [UInt8]) {
        let opened = try await openNDEF()
        guard opened.capabilityContainer.ndefStatus.status != .notSupported else {
            throw NFCReaderError(.tagNotSupported, "the CC grants no read access to the NDEF file")
        }
        return (opened, try await readNDEFFile(opened))
    }

    /// Writes `message` (T4T 3.0, 5.5.7) with TagMemory's
    /// ``TagMemory/Type4CapabilityContainer/writePlan(messageBytes:currentFile:maximumCommandData:singleUpdateWhenPossible:)``:
    /// NLEN 0 first (left out when already 0), the message in UPDATE BINARY pieces of at most MLc
    /// bytes, NLEN last; or one UPDATE BINARY when NLEN and the message fit one command. Then the
    /// file is read back.
    ///
    /// - Throws: ``NFCReaderError/Code/zeroLengthMessage`` before any command for a message
    ///   without records; ``NFCReaderError/Code/tagNotWritable`` (write access not 00h) and
    ///   ``NFCReaderError/Code/tagSizeTooSmall`` before any UPDATE BINARY;
    ///   ``NFCReaderError/Code/tagConnectionLost`` (half-written) when the tag leaves during the
    ///   updates or the read-back, ``NFCReaderError/Code/readerUnavailable`` (half-written) when
    ///   the reader goes away then; ``NFCReaderError/Code/tagUpdateFailure`` for a refused update
    ///   or a read-back that differs.
    public func writeNDEF(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        try await write(bytes, purpose: "the NDEF write")
    }

    /// Completes an interrupted write (an error with ``NFCReaderError/mayBeHalfWritten``): reads
    /// NLEN and the file where `message` goes first, then plans from what the file holds, so only
    /// the bytes still missing are updated, after NLEN 0 when NLEN is not 0 already, and NLEN
    /// last. A tag that already holds `message` gets no UPDATE BINARY at all. Costs the READ
    /// BINARYs of the message area more than ``writeNDEF(_:)``.
    ///
    /// - Throws: as ``writeNDEF(_:)``.
    public func resumeWrite(_ message: NFCNDEFMessage) async throws(NFCReaderError) {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        try await write(bytes, purpose: "the resumed NDEF write", readsMessageArea: true)
    }

    /// Empties the NDEF file: NLEN 0 (T4T 3.0, 5.5.7).
    public func erase() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try await write([], purpose: "the erase")
    }

    /// Brings the tag to the INITIALIZED state (T4T 3.0, 5.2: a valid CC, NLEN 0), as far as the
    /// NFC Forum commands allow: the same as ``erase()``.
    ///
    /// A Type 4 tag's NDEF Tag Application, CC file and NDEF file cannot be created with SELECT,
    /// READ BINARY and UPDATE BINARY: the manufacturer ships them (an NTAG 424 DNA has them from
    /// the factory) or proprietary commands create them (MIFARE DESFire's CreateApplication and
    /// CreateStdDataFile), and the CC file is not writable on most tags. So a tag with the
    /// application is emptied, and one without is ``NFCReaderError/Code/tagNotSupported``.
    ///
    /// - Throws: as ``erase()``: ``NFCReaderError/Code/tagNotSupported`` without NDEF Tag
    ///   Application or CC; ``NFCReaderError/Code/tagNotWritable`` for a read-only NDEF file.
    public func format() async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try await write([], purpose: "the format")
    }

    /// Checks, plans, updates and reads back; with `readsMessageArea`, the plan leaves out the
    /// bytes the file already holds where the message goes.
    private func write(_ message: [UInt8], purpose: String, readsMessageArea: Bool = false) async throws(NFCReaderError)
    {
        let opened = try await openNDEF()
        let cc = opened.capabilityContainer
        let status = cc.ndefStatus
        switch status.status {
        case .notSupported:
            throw NFCReaderError(.tagNotSupported, "the CC grants no NDEF access")
        case .readOnly:
            throw NFCReaderError(
                .tagNotWritable, "the NDEF file's write access is \(cc.ndefFile.writeAccess) (T4T 3.0, 5.1.2)")
        case .readWrite:
            break
        }
        guard message.count <= status.capacity else {
            throw NFCReaderError(
                .tagSizeTooSmall,
                "the message needs \(message.count) bytes but the NDEF file holds at most \(status.capacity)",
                capacity: status.capacity, neededSize: message.count)
        }
        try await selectFile(cc.ndefFile.fileIdentifier, majorVersion: opened.majorVersion)
        var currentFile = try await readBinary(offset: 0, length: cc.messageLengthFieldSize, what: "NLEN")
        if readsMessageArea, !message.isEmpty {
            currentFile += try await readArea(cc, length: message.count)
        }
        let plan: TagWritePlan
        do {
            plan = try cc.writePlan(
                messageBytes: message, currentFile: currentFile, maximumCommandData: commandDataBudget)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan \(purpose)")
        }
        for (index, step) in plan.steps.enumerated() {
            try await update(step, index: index, of: plan.steps.count, purpose: purpose)
        }
        guard !plan.steps.isEmpty else { return }
        let fieldSize = cc.messageLengthFieldSize
        let expected =
            (0..<fieldSize).map { UInt8(truncatingIfNeeded: message.count >> (8 * (fieldSize - 1 - $0))) } + message
        let file: [UInt8]
        do {
            file = try await readBack(expected.count, capabilityContainer: cc)
        } catch {
            throw NFCReaderError(
                [.tagConnectionLost, .readerUnavailable].contains(error.code) ? error.code : .tagUpdateFailure,
                "the updates of \(purpose) were accepted but could not be read back: \(error.reason)",
                mayBeHalfWritten: true)
        }
        guard file == expected else {
            throw NFCReaderError(
                .tagUpdateFailure, "the NDEF file reads back differently after \(purpose)", mayBeHalfWritten: true)
        }
    }

    /// The first `length` bytes of the selected NDEF file (NLEN and the message written), in as few
    /// READ BINARY commands as MLe and the reader's frame allow: one for most messages.
    private func readBack(_ length: Int, capabilityContainer cc: Type4CapabilityContainer)
        async throws(NFCReaderError) -> [UInt8]
    {
        let piece = max(1, min(cc.maximumResponseDataSize, responseDataBudget))
        var file: [UInt8] = []
        while file.count < length {
            let wanted = min(piece, length - file.count)
            let data = try await readBinary(offset: file.count, length: wanted, what: "the NDEF file")
            guard data.count == wanted else {
                throw NFCReaderError(
                    .tagResponseError, "READ BINARY at \(file.count) answered \(data.count) of \(wanted) bytes")
            }
            file += data
        }
        return file
    }

    /// The `length` bytes after the length field of the selected NDEF file, whatever NLEN says,
    /// read as ``Type4ReadPlan`` splits them.
    private func readArea(_ cc: Type4CapabilityContainer, length: Int) async throws(NFCReaderError) -> [UInt8] {
        let plan: Type4ReadPlan
        do {
            plan = try cc.readPlan(messageLength: length, maximumResponseData: responseDataBudget)
        } catch {
            throw NFCReaderError(planning: error, "cannot read the NDEF file")
        }
        var area: [UInt8] = []
        for read in plan.dropFirst() {
            let data = try await readBinary(offset: read.offset, length: read.length, what: "the NDEF file")
            guard data.count == read.length else {
                throw NFCReaderError(
                    .tagResponseError, "READ BINARY at \(read.offset) answered \(data.count) of \(read.length) bytes")
            }
            area += data
        }
        return area
    }

    /// One UPDATE BINARY of a plan on the selected NDEF file.
    private func update(_ step: PlanStep, index: Int, of count: Int, purpose: String) async throws(NFCReaderError) {
        let position = "UPDATE BINARY \(index + 1) of \(count) (offset \(step.address))"
        let command: Type4Command
        do {
            command = try Type4Command.updateBinary(step)
        } catch {
            throw NFCReaderError(planning: error, "\(position) of \(purpose)")
        }
        let response: Type4Response
        do {
            response = try await transmit(command)
        } catch {
            throw NFCReaderError(
                error.code, "\(position) of \(purpose): \(error.reason)",
                mayBeHalfWritten: error.code == .tagConnectionLost || index > 0)
        }
        guard response.isSuccess else {
            let code: NFCReaderError.Code =
                response.status == .securityStatusNotSatisfied ? .authenticationRequired : .tagUpdateFailure
            throw NFCReaderError(
                code, "the tag refused \(position) of \(purpose): \(response.status)",
                mayBeHalfWritten: index > 0 || response.status == .memoryFailure)
        }
        writeProgressObserver?(NFCWriteProgress(written: index + 1, planned: count, purpose: purpose))
    }

    /// SELECTs the NDEF Tag Application (version 2 identifier, then version 1) and reads the CC.
    func openNDEF() async throws(NFCReaderError) -> OpenedNDEF {
        var version = 2
        var selected = try await transmit(Type4Command.selectNDEFApplication(majorVersion: 2))
        if !selected.isSuccess {
            version = 1
            selected = try await transmit(Type4Command.selectNDEFApplication(majorVersion: 1))
        }
        guard selected.isSuccess else {
            throw NFCReaderError(.tagNotSupported, "the tag has no NDEF Tag Application (\(selected.status))")
        }
        try await selectFile(Type4CapabilityContainer.fileIdentifier, majorVersion: version)
        var image = try await readBinary(offset: 0, length: Type4CapabilityContainer.minimumLength, what: "the CC file")
        let declared = image.count >= 2 ? Int(image[0]) << 8 | Int(image[1]) : 0
        var offset = image.count
        // CCLEN beyond 15 (more TLVs) is read in further pieces; 0xFFFF is refused by the parser.
        while offset < declared, declared != 0xFFFF {
            let length = min(declared - offset, responseDataBudget)
            let piece = try await readBinary(offset: offset, length: length, what: "the CC file")
            guard !piece.isEmpty else { break }
            image += piece
            offset += piece.count
        }
        do {
            return OpenedNDEF(
                capabilityContainer: try Type4CapabilityContainer(parsing: image), majorVersion: version,
                capabilityContainerImage: image)
        } catch {
            throw NFCReaderError(planning: error, "the CC file cannot be read")
        }
    }
}

/// The encoded bytes of a message to write, or why it cannot be written (NDEF 1.0, 3.2: a message
/// has at least one record; an empty tag is made with an erase).
func encodedForWriting(_ message: NFCNDEFMessage) throws(NFCReaderError) -> [UInt8] {
    guard !message.records.isEmpty else {
        throw NFCReaderError(.zeroLengthMessage, "an NDEF message has at least one record; use erase to empty the tag")
    }
    do {
        return try message.encoded()
    } catch {
        throw NFCReaderError(.invalidMessage, "the message cannot be encoded: \(error.reason)")
    }
}
