import NDEF

extension Type4CapabilityContainer {
    /// Plans writing `message` to the NDEF file (T4T 3.0, 5.5.7, NDEF Update Procedure), as
    /// CoreNFC's `writeNDEF` does; an empty message (no records) erases the file (NLEN 0).
    ///
    /// See ``writePlan(messageBytes:currentFile:maximumCommandData:singleUpdateWhenPossible:)``.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedMessage`` when the message cannot be encoded,
    ///   and the errors of the byte-level planner.
    public func writePlan(
        for message: NFCNDEFMessage,
        currentFile: [UInt8]? = nil,
        maximumCommandData: Int? = nil,
        singleUpdateWhenPossible: Bool = true
    ) throws(TagMemoryError) -> TagWritePlan {
        try writePlan(
            messageBytes: TagWritePlan.messageBytes(of: message), currentFile: currentFile,
            maximumCommandData: maximumCommandData,
            singleUpdateWhenPossible: singleUpdateWhenPossible)
    }

    /// Plans writing an encoded NDEF message to the NDEF file (T4T 3.0, 5.5.7).
    ///
    /// Each step is an UPDATE BINARY on the NDEF file (`file` set, `address` the offset):
    /// 1. NLEN (or ENLEN) = 0, so a write torn at any later point leaves an empty file that
    ///    readers accept, never a partial message under a valid length;
    /// 2. the message, in pieces of at most MLc bytes (and at most `maximumCommandData`, the
    ///    reader's limit); pieces past offset `7FFF` use UPDATE BINARY with an offset data
    ///    object (version 3.0), whose 54 and 53 wrappers take 7 to 9 bytes of the budget;
    /// 3. NLEN = the message length, last: the message becomes visible once complete.
    ///
    /// When the length field and the whole message fit one UPDATE BINARY and
    /// `singleUpdateWhenPossible` is true, one step writes them together; 5.5.7 allows the
    /// reader to update the file in a single command. That is tearing-safe only as far as the
    /// tag commits one command whole: ISO/IEC 7816-4 does not promise an atomic UPDATE BINARY,
    /// and a tag that programs its memory page by page from offset 0 can be torn after the new
    /// NLEN and before the end of the message. Tags keep a short command in one buffered EEPROM
    /// write in practice (the three-step sequence relies on the same for its 2- or 4-byte length
    /// updates); pass false to always use the three steps.
    ///
    /// When `currentFile` (the file as read, from offset 0) is given, bytes it proves equal are
    /// not rewritten: an identical file gives an empty plan, a message already in place needs
    /// only the length step, and the NLEN = 0 step is left out when NLEN is already 0. Bytes
    /// beyond the image are treated as unknown.
    ///
    /// - Throws: ``TagMemoryError/Code/notFormatted`` when the CC gives no NDEF access,
    ///   ``TagMemoryError/Code/notWritable`` when the write access is not `00`,
    ///   ``TagMemoryError/Code/insufficientCapacity`` (naming the capacity and the size needed),
    ///   ``TagMemoryError/Code/invalidArgument`` for a reader limit under 1, and
    ///   ``TagMemoryError/Code/unsupportedChip`` when one UPDATE BINARY cannot carry the length
    ///   field, or the message reaches past `7FFF` on a tag without offset data objects.
    public func writePlan(
        messageBytes: [UInt8],
        currentFile: [UInt8]? = nil,
        maximumCommandData: Int? = nil,
        singleUpdateWhenPossible: Bool = true
    ) throws(TagMemoryError) -> TagWritePlan {
        try checkWritable(messageLength: messageBytes.count)
        if let maximumCommandData, maximumCommandData < 1 {
            throw TagMemoryError(
                .invalidArgument, "a reader limit of \(maximumCommandData) bytes per command is too small")
        }
        var writer = Type4MessageWriter(
            capabilityContainer: self,
            target: Type4NDEFFile.lengthField(messageBytes.count, size: messageLengthFieldSize)
                + messageBytes,
            current: currentFile,
            budget: Type4Addressing.budget(tag: maximumCommandDataSize, reader: maximumCommandData))
        return try writer.plan(singleUpdateWhenPossible: singleUpdateWhenPossible)
    }

    /// The checks before any write: NDEF access, write access, capacity.
    private func checkWritable(messageLength: Int) throws(TagMemoryError) {
        let status = ndefStatus
        guard status.status != .notSupported else {
            throw TagMemoryError(
                .notFormatted, at: writeAccessOffset - 1,
                "the CC grants no NDEF access (read \(ndefFile.readAccess), write \(ndefFile.writeAccess))")
        }
        guard ndefFile.writeAccess.isGranted else {
            throw TagMemoryError(
                .notWritable, at: writeAccessOffset,
                "the NDEF file's write access is \(ndefFile.writeAccess) (T4T 3.0, 5.1.2)")
        }
        guard messageLength <= status.capacity else {
            throw TagMemoryError(
                .insufficientCapacity,
                "the message needs \(messageLength) bytes but the NDEF file holds \(status.capacity)")
        }
    }
}
