import HexText
import NDEF
import NTAG424

/// Setting up secure dynamic messaging on an NTAG 424 DNA (NT4H2421Gx 9.3, 10.6.1, 10.7.1;
/// AN12196 4-5), from the factory keys or, to move a set-up tag to new keys and a new URL, from
/// the keys of an earlier plan.
extension NFCNTAG424Tag {
    /// The factory value of every key (NT4H2421Gx 8.2.4.2): 16 zero bytes.
    public static let factoryKey = [UInt8](repeating: 0, count: 16)

    /// Reads how far the tag is in `plan`, starting from the keys `from`: key versions
    /// (GetKeyVersion), the NDEF file's settings (GetFileSettings) and its message (read as a
    /// phone reads it: with SDM on this read counts); then proves which key each slot holds by
    /// AuthenticateEV2First: the plan's or `from`'s, the one its version points to first (a
    /// version alone cannot tell two set-ups with the same version apart). From the factory
    /// keys, a key still at version 0 is taken as delivered: a ChangeKey from a wrong old key is
    /// refused by the tag's CRC check (NT4H2421Gx 10.6.1) and changes nothing.
    ///
    /// - Parameters:
    ///   - plan: where the tag is to end.
    ///   - from: the keys the tag held before this plan: ``NTAG424KeySet/factory`` for a new
    ///     tag, an earlier plan's keys to move a set-up tag to `plan`.
    public func sdmProgress(
        _ plan: NTAG424SDMPlan, from: NTAG424KeySet = .factory
    ) async throws(NFCReaderError) -> NTAG424SDMProgress {
        try await selectApplication()
        var versions: [UInt8] = []
        for number in 0..<5 { versions.append(try await keyVersion(number)) }
        let settings = try await fileSettings(2)
        let applied = settings == plan.settings
        var tagTamper: (has: Bool, enabled: Bool?) = (true, nil)
        if plan.template.tagTamperOffset != nil {
            do {
                tagTamper.enabled = try await tagTamperStatus() != .notEnabled
            } catch  where error.code == .tagNotSupported {
                tagTamper.has = false
            } catch  where error.code == .authenticationRequired {
                // TTStatusKey is a key: the status cannot be read in plain; enabling again is harmless.
            }
        }
        let mirrored = try await ndefMessageBytes()
        let ranges = settings.sdm?.mirroredRanges(mode: plan.template.mode) ?? []
        var written = false
        if var bytes = mirrored, let wanted = try? plan.template.message.encoded(), bytes.count == wanted.count {
            // With SDM on, the read shows the mirrors where the file holds the plan's 0s (and
            // its file data, which the check after the settings decrypts and compares).
            for range in ranges where range.lowerBound >= 2 && range.upperBound - 2 <= bytes.count {
                let shown = (range.lowerBound - 2)..<(range.upperBound - 2)
                bytes.replaceSubrange(shown, with: wanted[shown])
            }
            written = bytes == wanted
        }
        let proven = try await proveKeys(
            versions: versions, target: plan.keys, targetVersion: plan.keyVersion, from: from)
        if written, let sdm = settings.sdm, sdm.encryptsFileData, let bytes = mirrored {
            // The file data under a mirrored window shows only encrypted: decrypted with the key
            // each SDM slot is proven to hold, it must be the plan's.
            func key(_ access: NTAG424Access) -> [UInt8]? {
                guard case .key(let number) = access, (0..<5).contains(number) else { return nil }
                return proven.target[number] ? plan.keys[number] : proven.previous[number] ? from.keys[number] : nil
            }
            written =
                Self.hiddenFileData(
                    bytes, sdm: sdm, mode: plan.template.mode, metaReadKey: key(sdm.metaRead),
                    fileReadKey: key(sdm.fileRead)
                ).map(plan.template.isFileData) ?? false
        }
        let changed = (0..<5).map { proven.target[$0] && versions[$0] == plan.keyVersion }
        var progress = NTAG424SDMProgress(messageWritten: written, settingsApplied: applied, changedKeys: changed)
        progress.planKeys = proven.target
        progress.previousKeys = proven.previous
        progress.keyVersions = versions
        progress.holdsMessage = mirrored != nil
        progress.mirroredRanges = ranges
        progress.tagMode = mode
        progress.hasTagTamper = tagTamper.has
        progress.tagTamperEnabled = tagTamper.enabled
        if settings.write != .free && settings.readWrite != .free {
            progress.messageWriteMode = settings.communicationMode
        }
        return progress
    }

    /// The confirmation of setting up `plan` on this tag from the keys `from`: the keys change
    /// for good, so ``setUpSDM(_:from:confirmation:progress:)`` needs it (made with this tag's
    /// UID, the same plan and the same starting keys). No command is sent.
    public nonisolated func prepareSDMSetUp(
        _ plan: NTAG424SDMPlan, from: NTAG424KeySet = .factory
    ) throws(NFCReaderError) -> NFCLockConfirmation {
        try NFCLockConfirmation(sdmSetUpOf: identifier, plan: plan, from: from)
    }

    /// Sets up `plan` on the tag, or finishes an interrupted set-up, once `confirmation` (from
    /// ``prepareSDMSetUp(_:from:)``, or decoded) is this tag's, this plan's and these starting
    /// keys': each step is taken only when ``sdmProgress(_:from:)`` shows it missing, in an
    /// order where every cut leaves each key `from`'s or the plan's (ChangeKey is atomic), and a
    /// rerun proves which by authenticating; a tag holding a key that is neither is refused
    /// before anything is sent:
    /// 1. the message (``writeNDEFFile(_:emptyAlready:mirroredRanges:)``: NLEN 0 first and last, read back;
    ///    on a file whose write right is key 0's, WriteData in a session with key 0, read back by
    ///    the check of step 5);
    /// 2. AuthenticateEV2First with key 0 as proven (a factory key 0 taken as delivered: the
    ///    factory key, and the plan's once more only when that is refused);
    /// 3. ChangeFileSettings of file 02 with SDM;
    /// 4. ChangeKey of keys 1-4 not yet changed (from the value proven), then of key 0 (which
    ///    ends the session);
    /// 5. the check: each change was checked as it was made (the message read back, the MACed
    ///    answers of ChangeFileSettings and of ChangeKey of keys 1-4, the version of key 0 read),
    ///    and the URL a phone reads then verifies with the plan's keys.
    ///
    /// Moving a set-up tag to new keys (key rotation) is the same call with the old plan's keys
    /// as `from`: the message and settings go first, so a cut tag gives the new URL made with
    /// old keys until the keys follow.
    ///
    /// - Returns: the steps taken, in words (empty when the tag was set up already).
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` before any command when the
    ///   confirmation is another tag's, another plan's or other starting keys';
    ///   ``NFCReaderError/Code/authenticationFailed`` when a key is neither `from`'s nor the
    ///   plan's (nothing is sent); ``NFCReaderError/Code/tagUpdateFailure`` when the check
    ///   fails; the errors of the steps.
    /// - Parameters:
    ///   - plan: what the tag gets.
    ///   - from: the keys the tag held before: ``NTAG424KeySet/factory``, or an earlier plan's.
    ///   - confirmation: ``prepareSDMSetUp(_:from:)``'s confirmation of this tag, `plan` and `from`.
    ///   - known: the progress ``sdmProgress(_:from:)`` read in this session just before (to
    ///     show the plan), so it is not read twice; nil to read it.
    @discardableResult
    public func setUpSDM(
        _ plan: NTAG424SDMPlan, from: NTAG424KeySet = .factory, confirmation: NFCLockConfirmation,
        progress known: NTAG424SDMProgress? = nil
    ) async throws(NFCReaderError) -> [String] {
        try confirmation.checkTag(identifier)
        let expected = try prepareSDMSetUp(plan, from: from)
        guard confirmation.contentDigest == expected.contentDigest, confirmation.code == expected.code else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the confirmation is for another SDM plan (URL, settings, keys or the keys it starts from): "
                    + "nothing was sent")
        }
        let progress: NTAG424SDMProgress
        if let known { progress = known } else { progress = try await sdmProgress(plan, from: from) }
        // A tag in LRP mirrors LRP's PICCData, longer than an AES plan has room for. Nothing is sent.
        if progress.tagMode == .lrp && plan.template.mode == .aes { throw Self.lrpOnlyError }
        if plan.template.tagTamperOffset != nil && !progress.hasTagTamper {
            throw NFCReaderError(
                .tagNotSupported, "the tag has no TagTamper (an NTAG 424 DNA, not a TT): nothing was sent")
        }
        // A key of another set-up: changing the rest to this plan's would leave a tag with keys
        // from two files. Nothing is sent.
        let foreign = progress.foreignKeys
        if !foreign.isEmpty {
            throw NFCReaderError(
                .authenticationFailed,
                "key\(foreign.count == 1 ? "" : "s") \(foreign.map(String.init).joined(separator: ", ")) "
                    + (foreign.count == 1 ? "is" : "are")
                    + " neither the plan's nor the key the set-up starts from (AuthenticateEV2First refused both): "
                    + "this plan cannot change them; nothing was written")
        }
        // A file whose write right is key 0's (set up with --lock-ndef before) gets the message
        // with WriteData in a session with key 0, read back by the URL check.
        let steps = try await applyChange(
            file: plan.template.file, settings: plan.settings, keys: plan.keys, version: plan.keyVersion, from: from,
            progress: progress, wroteFile: "wrote the message", setSettings: "set SDM on the NDEF file",
            lrp: plan.template.mode == .lrp,
            enablesTagTamper: plan.template.tagTamperOffset != nil && progress.tagTamperEnabled != true)
        // Then the URL a phone reads, verified with the plan's keys.
        // NLEN and the message in one read of the length the plan's file has: an NLEN that is not
        // the plan's fails the check as surely as a second read would.
        let file = try await ndefFileBytes(count: plan.template.file.count)
        let length = Int(file[0]) << 8 | Int(file[1])
        do throws(NFCReaderError) {
            guard length == plan.template.file.count - 2 else {
                throw NFCReaderError(
                    .tagUpdateFailure, "the tag holds another message after the set-up (NLEN \(length))")
            }
            try checkURL(Array(file.dropFirst(2)), plan: plan)
        } catch  where steps.isEmpty {
            // Nothing was sent, yet the URL does not verify: the key versions are the plan's but
            // the keys are not (another set-up with the same version).
            throw NFCReaderError(
                .authenticationFailed,
                "the tag was set up with this URL and key version but other keys: \(error.reason)")
        }
        return steps
    }

    /// The file data a read of an NDEF message (`bytes`, without NLEN) shows encrypted under
    /// `sdm`'s window, decrypted with the SDM keys; nil when it does not verify.
    static func hiddenFileData(
        _ bytes: [UInt8], sdm: NTAG424FileSettings.SDM, mode: NTAG424CryptoMode, metaReadKey: [UInt8]?,
        fileReadKey: [UInt8]?
    ) -> [UInt8]? {
        guard let fileReadKey, let metaReadKey, let piccOffset = sdm.piccDataOffset,
            let inputOffset = sdm.macInputOffset, let macOffset = sdm.macOffset,
            let windowOffset = sdm.encryptedDataOffset, let windowLength = sdm.encryptedDataLength
        else { return nil }
        func hex(_ offset: Int, _ count: Int) -> [UInt8]? {
            guard offset >= 2, offset - 2 + count <= bytes.count else { return nil }
            return try? Hex.decode(String(decoding: bytes[(offset - 2)..<(offset - 2 + count)], as: UTF8.self))
        }
        guard let piccData = hex(piccOffset, mode.piccDataLength * 2), let mac = hex(macOffset, 16),
            let window = hex(windowOffset, windowLength), inputOffset >= 2, inputOffset <= macOffset,
            let verifier = try? NTAG424SUNVerifier(metaReadKey: metaReadKey, fileReadKey: fileReadKey, mode: mode)
        else { return nil }
        let result = verifier.verify(
            piccData: piccData, mac: mac, inputs: [("settings", Array(bytes[(inputOffset - 2)..<(macOffset - 2)]))])
        guard result.isValid else { return nil }
        return try? verifier.decryptFileData(window, uid: result.uid, counter: result.counter, mode: mode)
    }

    /// Checks the PICCData and SDMMAC of the message `bytes` read as a phone reads it, at the
    /// plan's offsets, with the plan's keys, and the file data they cover.
    private func checkURL(_ bytes: [UInt8], plan: NTAG424SDMPlan) throws(NFCReaderError) {
        let template = plan.template
        guard bytes.count == template.file.count - 2 else {
            throw NFCReaderError(.tagUpdateFailure, "the tag holds another message after the set-up")
        }
        // Every byte but the mirrored ones is the plan's message (a message written with key 0
        // is read back here).
        var shown = bytes
        let file = Array(template.file.dropFirst(2))
        let ranges = template.mirroredRanges.map { ($0.lowerBound - 2)..<($0.upperBound - 2) }
        for range in ranges where range.upperBound <= shown.count {
            shown.replaceSubrange(range, with: file[range])
        }
        guard shown == file else {
            throw NFCReaderError(
                .tagUpdateFailure, "the tag's message is not the plan's after the set-up", mayBeHalfWritten: true)
        }
        func hex(_ range: Range<Int>) -> [UInt8]? {
            guard range.upperBound <= bytes.count else { return nil }
            return try? Hex.decode(String(decoding: bytes[range], as: UTF8.self))
        }
        guard let picc = ranges.first, let mac = ranges.last, let piccData = hex(picc), let sdmMAC = hex(mac) else {
            throw NFCReaderError(.tagUpdateFailure, "the tag does not mirror PICCData and SDMMAC after the set-up")
        }
        let result: NTAG424SUNResult
        var fileData: [UInt8]?
        do {
            let verifier = try NTAG424SUNVerifier(
                metaReadKey: plan.keys[plan.metaReadKey], fileReadKey: plan.keys[plan.fileReadKey],
                mode: template.mode)
            let input = Array(bytes[(template.macInputOffset - 2)..<mac.lowerBound])
            result = verifier.verify(piccData: piccData, mac: sdmMAC, inputs: [("plan", input)])
            // The file data under the window, which no plain read shows, decrypted.
            if result.isValid, ranges.count == 3, let encrypted = hex(ranges[1]) {
                fileData = try verifier.decryptFileData(
                    encrypted, uid: result.uid, counter: result.counter, mode: template.mode)
            }
        } catch {
            throw NFCReaderError(.tagUpdateFailure, "the set-up cannot be checked: \(error.reason)")
        }
        guard result.isValid, result.uid == identifier else {
            throw NFCReaderError(
                .tagUpdateFailure,
                "the URL the tag gives after the set-up does not verify: \(result.problem ?? "another UID")")
        }
        guard template.isFileData(fileData) else {
            throw NFCReaderError(
                .tagUpdateFailure, "the tag's file data is not the plan's after the set-up", mayBeHalfWritten: true)
        }
    }
}
