import NDEF
import TagMemory

/// What a Type 4 NDEF operation would do, without doing it, and the raw NDEF file as stored
/// (NFC Forum Type 4 Tag 3.0, 5.1 and 5.5), for callers that show plans and dumps.
extension NFCISO7816Tag {
    /// The capability container of the NDEF Tag Application (T4T 3.0, 5.1), read with SELECT of
    /// the application and of the CC file and READ BINARY; nothing is written.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` without NDEF Tag Application or with a
    ///   CC this version does not read; the reader's errors.
    public func readCapabilityContainer() async throws(NFCReaderError) -> Type4CapabilityContainer {
        try await beginOperation()
        defer { endOperation() }
        return try await openNDEF().capabilityContainer
    }

    /// The NDEF message bytes exactly as the NDEF file holds them (after NLEN or ENLEN, T4T 3.0,
    /// 5.5.6): empty for NLEN 0.
    ///
    /// - Throws: as ``readNDEF()`` but for an empty message, which is no error here.
    public func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8] {
        try await beginOperation()
        defer { endOperation() }
        let (opened, file) = try await readReadableNDEFFile()
        return Array(file.dropFirst(opened.capabilityContainer.messageLengthFieldSize))
    }

    /// The UPDATE BINARY commands ``writeNDEF(_:)`` would send for `message` to the tag as it is
    /// now (T4T 3.0, 5.5.7: NLEN 0 unless already 0, the message in pieces of MLc and the
    /// reader's frame, NLEN last); nothing is written.
    ///
    /// - Throws: as ``writeNDEF(_:)`` before its first UPDATE BINARY.
    public func plannedWrite(of message: NFCNDEFMessage) async throws(NFCReaderError) -> TagWritePlan {
        let bytes = try encodedForWriting(message)
        try await beginOperation()
        defer { endOperation() }
        return try await plan(bytes, purpose: "the NDEF write")
    }

    /// The UPDATE BINARY commands ``erase()`` would send (NLEN 0, none when NLEN is 0 already);
    /// nothing is written.
    ///
    /// - Throws: as ``erase()`` before its first UPDATE BINARY.
    public func plannedErase() async throws(NFCReaderError) -> TagWritePlan {
        try await beginOperation()
        defer { endOperation() }
        return try await plan([], purpose: "the erase")
    }

    /// Opens the NDEF application, reads NLEN and plans writing `message`.
    private func plan(_ message: [UInt8], purpose: String) async throws(NFCReaderError) -> TagWritePlan {
        let opened = try await openNDEF()
        let cc = opened.capabilityContainer
        do {
            // The checks of the plan (access, capacity) before any command to the NDEF file.
            _ = try cc.writePlan(messageBytes: message, maximumCommandData: commandDataBudget)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan \(purpose)")
        }
        try await selectFile(cc.ndefFile.fileIdentifier, majorVersion: opened.majorVersion)
        let lengthField = try await readBinary(offset: 0, length: cc.messageLengthFieldSize, what: "NLEN")
        do {
            return try cc.writePlan(
                messageBytes: message, currentFile: lengthField, maximumCommandData: commandDataBudget)
        } catch {
            throw NFCReaderError(planning: error, "cannot plan \(purpose)")
        }
    }
}
