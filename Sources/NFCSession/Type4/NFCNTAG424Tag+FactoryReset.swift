import NTAG424

/// An NTAG 424 DNA returned to its factory keys and NDEF file settings (NT4H2421Gx 8.2.3,
/// 8.2.4.2): keys 0-4 16 zero bytes at version 00h, the NDEF file Plain, free to read and write,
/// SDM off, and zero-filled, so that anyone can set it up again. The read counter (SDMReadCtr),
/// the CC and the proprietary file are not changed: the chip has no command that resets the
/// counter, and a set-up does not touch the other files.
extension NFCNTAG424Tag {
    /// How far the tag is in a factory reset from the keys `from`: key versions, the NDEF file's
    /// settings and its bytes; then each key proven by AuthenticateEV2First, the factory key or
    /// `from`'s (the one its version points to first). ``NTAG424SDMProgress/messageWritten``
    /// says the file is zero-filled (with SDM still on, a read cannot show the bytes under the
    /// mirrors, so it is written again); ``NTAG424SDMProgress/changedKeys``, which keys are the
    /// factory's at version 00h.
    public func factoryResetProgress(from: NTAG424KeySet) async throws(NFCReaderError) -> NTAG424SDMProgress {
        try await selectApplication()
        var versions: [UInt8] = []
        for number in 0..<5 { versions.append(try await keyVersion(number)) }
        let settings = try await fileSettings(2)
        let file = try await ndefFileBytes(count: min(settings.size, 256))
        let factory = NTAG424KeySet.factory
        let proven = try await proveKeys(versions: versions, target: factory.keys, targetVersion: 0, from: from)
        // The authentications told the mode, which sets PICCData's length.
        let ranges = settings.sdm?.mirroredRanges(mode: mode ?? .aes) ?? []
        var progress = NTAG424SDMProgress(
            messageWritten: settings.sdm == nil && file.allSatisfy { $0 == 0 },
            settingsApplied: settings == .factoryNDEFFile,
            changedKeys: (0..<5).map { proven.target[$0] && versions[$0] == 0 })
        progress.planKeys = proven.target
        progress.previousKeys = proven.previous
        progress.keyVersions = versions
        progress.holdsMessage = file.prefix(2) != [0, 0]
        progress.mirroredRanges = ranges
        progress.tagMode = mode
        if settings.write != .free && settings.readWrite != .free {
            progress.messageWriteMode = settings.communicationMode
        }
        return progress
    }

    /// The confirmation of a factory reset of this tag from the keys `from`; no command is sent.
    public nonisolated func prepareFactoryReset(from: NTAG424KeySet) throws(NFCReaderError) -> NFCLockConfirmation {
        try NFCLockConfirmation(factoryResetOf: identifier, from: from)
    }

    /// Returns the tag from the keys `from` to its factory keys and NDEF file settings with a
    /// zero-filled NDEF file, or finishes an interrupted reset, once `confirmation` (from
    /// ``prepareFactoryReset(from:)``) is this tag's and these keys': the steps of
    /// ``setUpSDM(_:from:confirmation:progress:)`` towards the factory state, each only when
    /// ``factoryResetProgress(from:)`` shows it missing, so every cut leaves each key `from`'s
    /// or the factory's:
    /// 1. the NDEF file zero-filled (NLEN 0 first; WriteData in a session with key 0 when its
    ///    write right is key 0's);
    /// 2. AuthenticateEV2First with key 0 as proven;
    /// 3. ChangeFileSettings of file 02 to the factory settings (SDM off);
    /// 4. ChangeKey of keys 1-4 to 16 zero bytes at version 00h (from the value proven), then of
    ///    key 0;
    /// 5. the check: key 0's version, and the NDEF file read whole: zero-filled.
    ///
    /// - Returns: the steps taken, in words (empty when the tag was as delivered already).
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` before any command when the
    ///   confirmation is another tag's or other keys'; ``NFCReaderError/Code/authenticationFailed``
    ///   when a key is neither `from`'s nor the factory's (nothing is sent);
    ///   ``NFCReaderError/Code/tagUpdateFailure`` when the check fails; the errors of the steps.
    @discardableResult
    public func resetToFactory(
        from: NTAG424KeySet, confirmation: NFCLockConfirmation, progress known: NTAG424SDMProgress? = nil
    ) async throws(NFCReaderError) -> [String] {
        try confirmation.checkTag(identifier)
        let expected = try prepareFactoryReset(from: from)
        guard confirmation.contentDigest == expected.contentDigest, confirmation.code == expected.code else {
            throw NFCReaderError(
                .confirmationMismatch, "the confirmation is for another tag or other keys: nothing was sent")
        }
        let progress: NTAG424SDMProgress
        if let known { progress = known } else { progress = try await factoryResetProgress(from: from) }
        let foreign = progress.foreignKeys
        if !foreign.isEmpty {
            throw NFCReaderError(
                .authenticationFailed,
                "key\(foreign.count == 1 ? "" : "s") \(foreign.map(String.init).joined(separator: ", ")) "
                    + (foreign.count == 1 ? "is" : "are")
                    + " neither the factory key nor the key of the keys given (AuthenticateEV2First refused both): "
                    + "nothing was written")
        }
        let steps = try await applyChange(
            file: [UInt8](repeating: 0, count: 256), settings: .factoryNDEFFile, keys: NTAG424KeySet.factory.keys,
            version: 0, from: from, progress: progress, wroteFile: "emptied the NDEF file",
            setSettings: "set the NDEF file's factory settings (SDM off)", lrp: nil)
        if !steps.isEmpty {
            // The file read whole, now that SDM is off: a message written with key 0 is read back
            // here, and no byte of the old URL is left.
            let file = try await ndefFileBytes()
            guard file.allSatisfy({ $0 == 0 }) else {
                throw NFCReaderError(
                    .tagUpdateFailure, "the NDEF file is not zero-filled after the reset", mayBeHalfWritten: true)
            }
        }
        return steps
    }
}
