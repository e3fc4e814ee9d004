import NDEF
import TagMemory

/// An ISO-DEP tag (ISO/IEC 14443-4), as CoreNFC's `NFCISO7816Tag`: NFC Forum Type 4 tags and other
/// smart cards, driven by command APDUs (ISO/IEC 7816-4 5.1).
///
/// NDEF operations follow NFC Forum Type 4 Tag 3.0, 5.5 (``readNDEF()``, ``writeNDEF(_:)``,
/// ``ndefStatus()``; ``prepareLock()`` and ``writeLock(_:)`` for 5.5.8, READ-ONLY), with TagMemory's
/// Type 4 plans; ``sendCommand(apdu:)`` exchanges raw APDUs. Operations on one tag run one at a
/// time; each starts from what the tag holds, so one that fails because the tag left can be run
/// again once it is back (the tag is activated again first).
public actor NFCISO7816Tag {
    /// The UID.
    public nonisolated let identifier: [UInt8]
    /// What polling found: UID, ATQA, SAK, ATS.
    public nonisolated let targetInfo: NFCTargetInfo

    /// The reader the tag is in.
    let reader: any NFCReaderDevice
    /// The session's validity.
    let lifetime: SessionLifetime
    /// The APDUs sent through this object.
    public internal(set) var commandsSent = 0
    /// Told after each UPDATE BINARY of a plan that the tag accepted (``observeWriteProgress(_:)``).
    var writeProgressObserver: (@Sendable (NFCWriteProgress) -> Void)?
    /// Whether a lost or garbled answer left the tag to be activated again before the next APDU.
    var needsReselect = false
    /// Runs the operations on this tag one at a time.
    private let gate: OperationGate

    init(reader: any NFCReaderDevice, target: NFCTargetInfo, lifetime: SessionLifetime) {
        self.reader = reader
        self.targetInfo = target
        self.identifier = target.uid
        self.lifetime = lifetime
        self.gate = OperationGate(lifetime: lifetime)
    }

    /// The historical bytes of the ATS (ISO/IEC 14443-4 5.2.7): what follows the format byte T0
    /// and the interface bytes TA, TB, TC it announces; empty without an ATS.
    public nonisolated var historicalBytes: [UInt8] {
        guard let ats = targetInfo.ats, ats.count >= 2 else { return [] }
        let format = ats[1]
        var start = 2
        for bit in [UInt8(0x10), 0x20, 0x40] where format & bit != 0 { start += 1 }
        let end = min(ats.count, Int(ats[0]))
        return start < end ? Array(ats[start..<end]) : []
    }

    /// Sends one command APDU and returns the response data and status word (ISO/IEC 7816-4 5.1).
    ///
    /// - Throws: ``NFCReaderError/Code/cancelled`` after the session was invalidated;
    ///   ``NFCReaderError/Code/tagConnectionLost`` for a missing or short answer; the reader's
    ///   errors.
    public func sendCommand(apdu: [UInt8]) async throws(NFCReaderError) -> (data: [UInt8], sw1: UInt8, sw2: UInt8) {
        try await beginOperation()
        defer { endOperation() }
        let response = try await exchange(apdu)
        return (Array(response.dropLast(2)), response[response.count - 2], response[response.count - 1])
    }

    /// Sends `apdu`; the answer has at least the two status bytes.
    ///
    /// After a lost answer (the tag left the field, and may have come back) or a garbled one,
    /// the next APDU first activates the tag again (``NFCReaderDevice/select(_:)``: ISO/IEC
    /// 14443-3 SELECT and ISO/IEC 14443-4 RATS), after which no application or file is selected.
    func exchange(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        if needsReselect {
            try await reader.select(targetInfo)
            needsReselect = false
        }
        commandsSent += 1
        let response: [UInt8]
        do {
            response = try await reader.sendAPDU(apdu)
        } catch {
            if error.code == .tagConnectionLost || error.code == .tagResponseError { needsReselect = true }
            throw error
        }
        guard response.count >= 2 else {
            needsReselect = true
            throw NFCReaderError(.tagConnectionLost, "the answer is shorter than the status word")
        }
        return response
    }

    /// Waits for the operation running to end, then starts one.
    ///
    /// - Throws: ``NFCReaderError/Code/cancelled`` when the session was invalidated or the task
    ///   is cancelled.
    func beginOperation() async throws(NFCReaderError) {
        try await gate.enter()
    }

    /// Ends the running operation; the next one waiting starts.
    func endOperation() {
        gate.leave()
    }
}

extension NFCISO7816Tag: NFCNDEFTag {
    /// What ``chipName`` says of a Type 4 tag: the NDEF mapping, not the product, which the NFC
    /// Forum commands do not tell.
    public static let type4Name = "NFC Forum Type 4 Tag"

    public nonisolated var isAvailable: Bool { !lifetime.isInvalidated }

    /// The UID and the protocol: `04:A1:B2:C3:D4:E5:F6: ISO-DEP (Type 4)`.
    public nonisolated var description: String { "\(targetInfo.uidDescription): ISO-DEP (Type 4)" }

    /// ``type4Name``: the NFC Forum commands do not name the product.
    public nonisolated var chipName: String? { Self.type4Name }

    /// `UPDATE BINARY command` (ISO/IEC 7816-4 11.3.5; T4T 3.0, 5.4.4).
    public nonisolated var writeCommandName: String { "UPDATE BINARY command" }

    /// Calls `observer` after each UPDATE BINARY of every plan the tag sends from now on (message
    /// writes, erases, locks) that the tag accepted (90 00), with the commands sent and those the
    /// plan has. Nil stops the calls. The observer runs on the tag's executor: it must return at
    /// once.
    public func observeWriteProgress(_ observer: (@Sendable (NFCWriteProgress) -> Void)?) {
        writeProgressObserver = observer
    }

    /// ``readNDEF()``: the NFC Forum Type 4 mapping mirrors nothing into the message.
    public func readNDEFAsWritten() async throws(NFCReaderError) -> NFCNDEFMessage {
        try await readNDEF()
    }

    /// A fresh ``ndefStatus()``: a Type 4 write keeps no status.
    public func ndefStatusAfterChange() async throws(NFCReaderError) -> NDEFTagStatus {
        try await ndefStatus()
    }
}

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
    /// 5.5.6): empty for NLEN 0, never nil (the NDEF file always has a length field).
    ///
    /// - Throws: as ``readNDEF()`` but for an empty message, which is no error here.
    public func readNDEFMessageBytes() async throws(NFCReaderError) -> [UInt8]? {
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
