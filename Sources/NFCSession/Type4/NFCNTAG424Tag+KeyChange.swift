import NTAG424

/// The keys of an NTAG 424 DNA moved from one key set to another (NT4H2421Gx 10.6.1): which key
/// each slot holds, proven by authenticating; key 0's session; ChangeKey of keys 1-4, then of
/// key 0. Shared by the SDM set-up (from the factory keys or an earlier plan's) and the factory
/// reset.
///
/// ChangeKey is atomic on the chip: a cut leaves a key old or new, never a third value. What the
/// tool must not lose is which one; so before any change every key whose value is not certain
/// is proven by AuthenticateEV2First, with the candidate its version points to first and the
/// other only when that one is refused: at most one refused authentication per key and run
/// (each counts in the tag's TotFailCtr).
extension NFCNTAG424Tag {
    /// Which keys the tag holds: for each of keys 0-4, whether it is `target`'s and whether it is
    /// `from`'s. From the factory keys, a key at version 00h is taken as delivered without a
    /// command (unless the target's version is 00h too); every other key is proven by
    /// authenticating. Ends with no session (the application selected again when one opened).
    ///
    /// - Throws: the errors of AuthenticateEV2First but a refused key (91 AE), and of selecting
    ///   the application.
    func proveKeys(
        versions: [UInt8], target: [[UInt8]], targetVersion: UInt8, from: NTAG424KeySet
    ) async throws(NFCReaderError) -> (target: [Bool], previous: [Bool]) {
        var isTarget = Array(repeating: false, count: 5)
        var isPrevious = Array(repeating: false, count: 5)
        var authenticated = false
        for number in 0..<5 {
            if from.isFactory && versions[number] == 0 && targetVersion != 0 {
                isPrevious[number] = true
                continue
            }
            // The target first when the version is the target's, or the change starts from the
            // factory (a changed version then means a set-up): else the previous key first.
            let targetFirst = versions[number] == targetVersion || from.isFactory
            let candidates: [(key: [UInt8], isTarget: Bool)] =
                targetFirst
                ? [(target[number], true), (from.keys[number], false)]
                : [(from.keys[number], false), (target[number], true)]
            for (index, candidate) in candidates.enumerated() where index == 0 || candidate.key != candidates[0].key {
                guard try await opens(keyNumber: number, key: candidate.key) else { continue }
                authenticated = true
                isTarget[number] = target[number] == candidate.key
                isPrevious[number] = from.keys[number] == candidate.key
                break
            }
        }
        if authenticated {
            // Selecting the application again ends the authentication, so that the plain reads
            // and writes of the NDEF file that follow are allowed (NT4H2421Gx 9.1.3).
            endSession()
            try await selectApplication()
        }
        return (isTarget, isPrevious)
    }

    /// Whether AuthenticateEV2First with `key` as key `keyNumber` succeeds (refused: false).
    func opens(keyNumber: Int, key: [UInt8]) async throws(NFCReaderError) -> Bool {
        do {
            try await authenticate(keyNumber: keyNumber, key: key)
            return true
        } catch {
            guard error.code == .authenticationFailed else { throw error }
            return false
        }
    }

    /// AuthenticateEV2First with key 0 as `progress` proved it: the target's or the previous
    /// key; a factory key 0 taken as delivered is tried first and the target's once more only
    /// when it is refused.
    ///
    /// - Returns: the key that opened.
    /// - Throws: ``NFCReaderError/Code/authenticationFailed`` when key 0 is neither.
    @discardableResult
    func authenticateKey0(
        target: [UInt8], from: NTAG424KeySet, progress: NTAG424SDMProgress
    ) async throws(NFCReaderError) -> [UInt8] {
        let candidates: [[UInt8]]
        if progress.planKeys[0] {
            candidates = [target]
        } else if progress.previousKeys[0] {
            let assumed = from.isFactory && progress.keyVersions[0] == 0
            candidates = assumed && target != from.keys[0] ? [from.keys[0], target] : [from.keys[0]]
        } else {
            candidates = []
        }
        for key in candidates {
            if try await opens(keyNumber: 0, key: key) { return key }
        }
        throw NFCReaderError(
            .authenticationFailed,
            "key 0 is neither the key the change starts from nor the new one: this tag's keys are not this change's")
    }

    /// The changes of a set-up, a move or a reset that `progress` shows missing, in an order
    /// where every cut leaves each key `from`'s or `keys`' value: `file` written to the NDEF file
    /// (ISOUpdateBinary, read back; WriteData in a session with key 0 when its write right is key
    /// 0's, read back by the caller), AuthenticateEV2First with key 0 as proven, ChangeFileSettings
    /// of file 02 to `settings`, ChangeKey of keys 1-4 then key 0 to `keys` at `version`, and
    /// key 0's version read (its ChangeKey answers without a MAC). Ends with the application
    /// selected and no session.
    ///
    /// - Returns: the steps taken, in words (`wroteFile`, `setSettings`, "changed key n").
    ///
    /// With `enablesTagTamper`, TagTamper is enabled in key 0's session before the settings
    /// (which mirror its status).
    ///
    /// With `lrp` (a plan in LRP), a tag that key 0's authentication shows in AES is switched to
    /// LRP (``switchToLRP()``) and key 0 authenticated again, in LRP, with the key that opened;
    /// without it, a tag in LRP is refused (its SDM would mirror LRP's longer PICCData).
    func applyChange(
        file: [UInt8], settings: NTAG424FileSettings, keys: [[UInt8]], version: UInt8, from: NTAG424KeySet,
        progress: NTAG424SDMProgress, wroteFile: String, setSettings: String, lrp: Bool? = false,
        enablesTagTamper: Bool = false
    ) async throws(NFCReaderError) -> [String] {
        var steps: [String] = []
        var authenticated = false
        if !progress.messageWritten {
            if let mode = progress.messageWriteMode {
                steps += try await openKey0(target: keys[0], from: from, progress: progress, lrp: lrp)
                authenticated = true
                try await writeNDEFFileWithKey0(file, mode: mode, emptyAlready: !progress.holdsMessage)
            } else {
                try await writeNDEFFile(
                    file, emptyAlready: !progress.holdsMessage, mirroredRanges: progress.mirroredRanges)
            }
            steps.append(wroteFile)
        }
        if !progress.settingsApplied || !progress.changedKeys.allSatisfy({ $0 }) {
            if !authenticated { steps += try await openKey0(target: keys[0], from: from, progress: progress, lrp: lrp) }
            if enablesTagTamper {
                try await enableTagTamper()
                steps.append("enabled TagTamper (for good)")
            }
            if !progress.settingsApplied {
                try await changeFileSettings(2, to: settings)
                steps.append(setSettings)
            }
            steps += try await changeKeys(to: keys, version: version, from: from, progress: progress)
        } else if authenticated {
            try await selectApplication()
        }
        if !progress.changedKeys[0] { try await checkKey0Version(version) }
        return steps
    }

    /// Key 0's session for a change (``authenticateKey0(target:from:progress:)``), in the mode
    /// `lrp` asks for: true switches a tag in AES to LRP and opens key 0 again in LRP with the
    /// key that opened; false refuses a tag in LRP; nil takes the tag as it is.
    ///
    /// - Returns: the switch, in words, when it was taken.
    private func openKey0(
        target: [UInt8], from: NTAG424KeySet, progress: NTAG424SDMProgress, lrp: Bool?
    ) async throws(NFCReaderError) -> [String] {
        let key = try await authenticateKey0(target: target, from: from, progress: progress)
        if lrp == true && mode == .aes {
            try await switchToLRP()
            guard try await opens(keyNumber: 0, key: key), mode == .lrp else {
                throw NFCReaderError(
                    .tagUpdateFailure, "the tag took SetConfiguration but does not authenticate in LRP")
            }
            return ["switched the tag to LRP (for good)"]
        }
        if lrp == false && mode == .lrp {
            endSession()
            try await selectApplication()
            throw Self.lrpOnlyError
        }
        return []
    }

    /// The refusal of a plan in AES on a tag in LRP.
    static let lrpOnlyError = NFCReaderError(
        .tagNotSupported, "the tag speaks LRP (for good): set it up in LRP (its PICCData is 48 characters, not 32)")

    /// ChangeKey of keys 1-4 not yet at `target` with `version`, each from the value `progress`
    /// proved, then of key 0 (which ends the session), in the session with key 0 this tag holds;
    /// the application is selected again when key 0 was not changed, so that no session is left.
    /// Each change of keys 1-4 is checked by its MACed answer; ChangeKey of key 0 answers
    /// without a MAC, so the caller reads its version.
    ///
    /// - Returns: the steps taken, in words.
    func changeKeys(
        to target: [[UInt8]], version: UInt8, from: NTAG424KeySet, progress: NTAG424SDMProgress
    ) async throws(NFCReaderError) -> [String] {
        var steps: [String] = []
        for number in 1...4 where !progress.changedKeys[number] {
            // A key already the target's with another version is changed from itself.
            let old = progress.planKeys[number] ? target[number] : from.keys[number]
            try await changeKey(number, to: target[number], version: version, oldKey: old)
            steps.append("changed key \(number)")
        }
        if !progress.changedKeys[0] {
            try await changeKey(0, to: target[0], version: version, oldKey: nil)
            steps.append("changed key 0")
            endSession()
        } else {
            // The chip is still authenticated with key 0, and ISOReadBinary is refused in a
            // session (10.9.2): selecting the application again ends it.
            try await selectApplication()
        }
        return steps
    }

    /// Checks key 0 after ChangeKey of key 0 (answered without a MAC): its version must read
    /// `version`.
    func checkKey0Version(_ version: UInt8) async throws(NFCReaderError) {
        let read = try await keyVersion(0)
        guard read == version else {
            throw NFCReaderError(.tagUpdateFailure, "key 0 was changed, but its version reads \(read), not \(version)")
        }
    }
}
