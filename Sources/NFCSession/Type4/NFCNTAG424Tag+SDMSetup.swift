import HexText
import NDEF
import NTAG424

/// What setting up secure dynamic messaging on an NTAG 424 DNA asks for (NT4H2421Gx 9.3;
/// AN12196 4-5): the URL with its placeholders, the keys the tag ends with, the version that
/// marks a key this plan set, which keys read PICCData and MAC the file, and whether the NDEF
/// file's write access goes to key 0.
public struct NTAG424SDMPlan: Sendable, Hashable {
    /// The URL, the NDEF file and the offsets.
    public var template: NTAG424SDMTemplate
    /// Keys 0-4 as the tag ends with them.
    public var keys: [[UInt8]]
    /// The version every changed key gets (1-255): GetKeyVersion then tells which keys this plan
    /// changed, so an interrupted set-up knows what is left.
    public var keyVersion: UInt8
    /// The SDMMetaRead key (PICCData).
    public var metaReadKey: Int
    /// The SDMFileRead key (SDMMAC).
    public var fileReadKey: Int
    /// Whether the NDEF file's Write and ReadWrite rights go to key 0.
    public var locksNDEF: Bool

    /// A plan.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` unless there are five 16-byte keys,
    ///   the version is 1-255, and the meta-read and file-read keys are 1-4.
    public init(
        template: NTAG424SDMTemplate, keys: [[UInt8]], keyVersion: UInt8 = 1, metaReadKey: Int = 1,
        fileReadKey: Int = 2, locksNDEF: Bool = false
    ) throws(NFCReaderError) {
        guard keys.count == 5, keys.allSatisfy({ $0.count == 16 }) else {
            throw NFCReaderError(.invalidParameter, "an NTAG 424 DNA has five keys of 16 bytes")
        }
        guard keyVersion != 0 else {
            throw NFCReaderError(.invalidParameter, "key version 0 is the factory's: choose 1-255")
        }
        guard (1...4).contains(metaReadKey), (1...4).contains(fileReadKey) else {
            throw NFCReaderError(.invalidParameter, "the SDM keys are keys 1-4 (key 0 is the master key)")
        }
        self.template = template
        self.keys = keys
        self.keyVersion = keyVersion
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        self.locksNDEF = locksNDEF
    }

    /// The NDEF file's settings the plan leads to.
    public var settings: NTAG424FileSettings {
        template.settings(metaReadKey: metaReadKey, fileReadKey: fileReadKey, lockNDEF: locksNDEF)
    }
}

/// How far a tag is in an ``NTAG424SDMPlan``: the NDEF file and its settings as read, and each
/// key as proven by authenticating with it.
public struct NTAG424SDMProgress: Sendable, Hashable {
    /// Whether the NDEF file holds the plan's message (the mirrored text back to its `0`s).
    public var messageWritten: Bool
    /// Whether the NDEF file's settings are the plan's.
    public var settingsApplied: Bool
    /// For keys 0-4: whether the key is the plan's, with the plan's version (done).
    public var changedKeys: [Bool]
    /// For keys 0-4: whether the key is the plan's (AuthenticateEV2First with it succeeded),
    /// whatever its version.
    public var planKeys: [Bool] = Array(repeating: false, count: 5)
    /// For keys 0-4: the version GetKeyVersion read (0: as delivered).
    public var keyVersions: [UInt8] = Array(repeating: 0, count: 5)
    /// The keys whose version says they were changed but which the plan's key does not open:
    /// another set-up's keys (another keys file, or another master key), which this plan must
    /// not finish.
    public var foreignKeys: [Int] { (0..<5).filter { keyVersions[$0] != 0 && !planKeys[$0] } }
    /// Whether the NDEF file holds a message (NLEN not 0), whichever it is.
    public var holdsMessage = true
    /// The offsets in the NDEF file that SDM now mirrors into on a read (PICCData, SDMMAC): a
    /// read shows other bytes there than the file holds.
    public var mirroredRanges: [Range<Int>] = []

    /// How the NDEF file's message can be written now: nil when ISOUpdateBinary may (its Write
    /// or ReadWrite right is free); else the file's CommMode, for WriteData in a session with
    /// key 0, which a tag set up with ``NTAG424SDMPlan/locksNDEF`` gives the write right (a file
    /// whose write right is another key's refuses it, and the set-up says so).
    public var messageWriteMode: NTAG424CommunicationMode?

    /// Whether nothing is left to do.
    public var isComplete: Bool { messageWritten && settingsApplied && changedKeys.allSatisfy { $0 } }
}

extension NFCNTAG424Tag {
    /// The factory value of every key (NT4H2421Gx 8.2.4.2): 16 zero bytes.
    public static let factoryKey = [UInt8](repeating: 0, count: 16)

    /// Reads how far the tag is in `plan`: key versions (GetKeyVersion), the NDEF file's
    /// settings (GetFileSettings) and its message (read as a phone reads it: with SDM on this read
    /// counts); then proves each key a version says was changed by AuthenticateEV2First with the
    /// plan's key (a version alone cannot tell two set-ups with the same version apart, nor a key
    /// of this plan with another version). Keys still at version 0 are taken as delivered: a
    /// ChangeKey from a wrong old key is refused by the tag's CRC check (NT4H2421Gx 10.6.1) and
    /// changes nothing.
    public func sdmProgress(_ plan: NTAG424SDMPlan) async throws(NFCReaderError) -> NTAG424SDMProgress {
        try await selectApplication()
        var versions: [UInt8] = []
        for number in 0..<5 { versions.append(try await keyVersion(number)) }
        let settings = try await fileSettings(2)
        let applied = settings == plan.settings
        let mirrored = try await ndefMessageBytes()
        var ranges: [Range<Int>] = []
        if let sdm = settings.sdm {
            for (offset, length) in [(sdm.piccDataOffset, 32), (sdm.macOffset, 16)] {
                if let offset { ranges.append(offset..<(offset + length)) }
            }
        }
        var written = false
        if var bytes = mirrored, let wanted = try? plan.template.message.encoded(), bytes.count == wanted.count {
            // With SDM on, the read shows PICCData and SDMMAC where the file holds 0s.
            for range in ranges where range.lowerBound >= 2 && range.upperBound - 2 <= bytes.count {
                bytes.replaceSubrange(
                    (range.lowerBound - 2)..<(range.upperBound - 2), with: Array(repeating: 0x30, count: range.count))
            }
            written = bytes == wanted
        }
        var planKeys = Array(repeating: false, count: 5)
        for number in 0..<5 where versions[number] != 0 {
            planKeys[number] = try await opens(keyNumber: number, key: plan.keys[number])
        }
        if versions.contains(where: { $0 != 0 }) {
            // Selecting the application again ends the authentication, so that the plain reads
            // and writes of the NDEF file that follow are allowed (NT4H2421Gx 9.1.3).
            endSession()
            try await selectApplication()
        }
        let changed = (0..<5).map { planKeys[$0] && versions[$0] == plan.keyVersion }
        var progress = NTAG424SDMProgress(messageWritten: written, settingsApplied: applied, changedKeys: changed)
        progress.planKeys = planKeys
        progress.keyVersions = versions
        progress.holdsMessage = mirrored != nil
        progress.mirroredRanges = ranges
        if settings.write != .free && settings.readWrite != .free {
            progress.messageWriteMode = settings.communicationMode
        }
        return progress
    }

    /// Whether AuthenticateEV2First with `key` as key `keyNumber` succeeds (refused: false).
    private func opens(keyNumber: Int, key: [UInt8]) async throws(NFCReaderError) -> Bool {
        do {
            try await authenticate(keyNumber: keyNumber, key: key)
            return true
        } catch {
            guard error.code == .authenticationFailed else { throw error }
            return false
        }
    }

    /// The confirmation of setting up `plan` on this tag: the keys change for good, so
    /// ``setUpSDM(_:confirmation:progress:)`` needs it (made with this tag's UID and the same plan). No
    /// command is sent.
    public nonisolated func prepareSDMSetUp(_ plan: NTAG424SDMPlan) throws(NFCReaderError) -> NFCLockConfirmation {
        try NFCLockConfirmation(sdmSetUpOf: identifier, plan: plan)
    }

    /// Sets up `plan` on the tag, or finishes an interrupted set-up, once `confirmation` (from
    /// ``prepareSDMSetUp(_:)``, or decoded) is this tag's and this plan's: each step is taken only when
    /// ``sdmProgress(_:)`` shows it missing, in an order where every cut leaves a tag whose keys
    /// are known (the factory key or the plan's, as proven by authenticating with it); a tag
    /// holding keys of another set-up is refused before anything is sent:
    /// 1. the message (``writeNDEFFile(_:emptyAlready:mirroredRanges:)``: NLEN 0 first and last, read back;
    ///    on a file whose write right is key 0's, WriteData in a session with key 0, read back by
    ///    the check of step 5);
    /// 2. AuthenticateEV2First with key 0: the plan's key when its version says it changed, else
    ///    the factory key; the other one once more only when that is refused;
    /// 3. ChangeFileSettings of file 02 with SDM;
    /// 4. ChangeKey of keys 1-4 not yet changed (from the factory key), then of key 0 (which ends
    ///    the session);
    /// 5. the check: each change was checked as it was made (the message read back, the MACed
    ///    answers of ChangeFileSettings and of ChangeKey of keys 1-4, the version of key 0 read),
    ///    and the URL a phone reads then verifies with the plan's keys.
    ///
    /// - Returns: the steps taken, in words (empty when the tag was set up already).
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` before any command when the
    ///   confirmation is another tag's or another plan's;
    ///   ``NFCReaderError/Code/authenticationFailed`` when key 0 is neither the factory
    ///   key nor the plan's, or a key changed by another set-up (its version set, the plan's key
    ///   refused) is on the tag: the tag's keys are not this plan's to change;
    ///   ``NFCReaderError/Code/tagUpdateFailure`` when the check fails; the errors of the steps.
    /// - Parameters:
    ///   - plan: what the tag gets.
    ///   - confirmation: ``prepareSDMSetUp(_:)``'s confirmation of this tag and `plan`.
    ///   - known: the progress ``sdmProgress(_:)`` read in this session just before (to show the
    ///     plan), so it is not read twice; nil to read it.
    @discardableResult
    public func setUpSDM(
        _ plan: NTAG424SDMPlan, confirmation: NFCLockConfirmation, progress known: NTAG424SDMProgress? = nil
    ) async throws(NFCReaderError) -> [String] {
        try confirmation.checkTag(identifier)
        let expected = try prepareSDMSetUp(plan)
        guard confirmation.contentDigest == expected.contentDigest, confirmation.code == expected.code else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the confirmation is for another SDM plan (URL, settings or keys): nothing was sent")
        }
        let progress: NTAG424SDMProgress
        if let known { progress = known } else { progress = try await sdmProgress(plan) }
        // Keys of another set-up: changing the rest to this plan's would leave a tag with keys
        // from two files. Nothing is sent.
        let foreign = progress.foreignKeys
        if !foreign.isEmpty {
            throw NFCReaderError(
                .authenticationFailed,
                "key\(foreign.count == 1 ? "" : "s") \(foreign.map(String.init).joined(separator: ", ")) "
                    + (foreign.count == 1 ? "holds" : "hold")
                    + " another set-up's key (its version says changed, the plan's key does not open it): this plan "
                    + "cannot finish that set-up. Finish it with the keys it was started with; nothing was written")
        }
        var steps: [String] = []
        var authenticated = false
        if !progress.messageWritten {
            if let mode = progress.messageWriteMode {
                // The file's write right is key 0's (set up with --lock-ndef before): the message
                // goes in with WriteData in a session with key 0, read back by the URL check.
                try await authenticateKey0(plan, changed: progress.planKeys[0])
                authenticated = true
                try await writeNDEFFileWithKey0(plan.template.file, mode: mode, emptyAlready: !progress.holdsMessage)
            } else {
                try await writeNDEFFile(
                    plan.template.file, emptyAlready: !progress.holdsMessage, mirroredRanges: progress.mirroredRanges)
            }
            steps.append("wrote the message")
        }
        if !progress.settingsApplied || !progress.changedKeys.allSatisfy({ $0 }) {
            if !authenticated { try await authenticateKey0(plan, changed: progress.planKeys[0]) }
            if !progress.settingsApplied {
                try await changeFileSettings(2, to: plan.settings)
                steps.append("set SDM on the NDEF file")
            }
            for number in 1...4 where !progress.changedKeys[number] {
                // The plan's key with another version (a rerun with another --key-version) is
                // changed from itself; a key still at version 0 from the factory key.
                let old = progress.planKeys[number] ? plan.keys[number] : Self.factoryKey
                try await changeKey(number, to: plan.keys[number], version: plan.keyVersion, oldKey: old)
                steps.append("changed key \(number)")
            }
            if !progress.changedKeys[0] {
                try await changeKey(0, to: plan.keys[0], version: plan.keyVersion, oldKey: nil)
                steps.append("changed key 0")
                endSession()
            } else {
                // The chip is still authenticated with key 0, and ISOReadBinary is refused in a
                // session (10.9.2): selecting the application again ends it.
                try await selectApplication()
            }
        } else if authenticated {
            try await selectApplication()
        }
        // Each change was checked as it was made: the message read back, ChangeFileSettings and
        // ChangeKey of keys 1-4 by their MACed answers. ChangeKey of key 0 answers without a MAC
        // (NT4H2421Gx 10.6.1), so its new version is read. The application is still selected,
        // and no session is left.
        if !progress.changedKeys[0] {
            let version = try await keyVersion(0)
            guard version == plan.keyVersion else {
                throw NFCReaderError(
                    .tagUpdateFailure, "key 0 was changed, but its version reads \(version), not \(plan.keyVersion)")
            }
        }
        // Then the URL a phone reads, verified with the plan's keys.
        let mirrored = try await ndefMessageBytes()
        do {
            try checkURL(mirrored ?? [], plan: plan)
        } catch  where steps.isEmpty {
            // Nothing was sent, yet the URL does not verify: the key versions are the plan's but
            // the keys are not (another set-up with the same version).
            throw NFCReaderError(
                .authenticationFailed,
                "the tag was set up with this URL and key version but other keys: \(error.reason)")
        }
        return steps
    }

    /// AuthenticateEV2First with key 0 as the version says, then the other candidate once.
    private func authenticateKey0(_ plan: NTAG424SDMPlan, changed: Bool) async throws(NFCReaderError) {
        let candidates = changed ? [plan.keys[0], Self.factoryKey] : [Self.factoryKey, plan.keys[0]]
        do {
            try await authenticate(keyNumber: 0, key: candidates[0])
        } catch {
            guard error.code == .authenticationFailed, candidates[1] != candidates[0] else { throw error }
            do {
                try await authenticate(keyNumber: 0, key: candidates[1])
            } catch {
                guard error.code == .authenticationFailed else { throw error }
                throw NFCReaderError(
                    .authenticationFailed,
                    "key 0 is neither the factory key nor the plan's: this tag's keys are not the plan's to change")
            }
        }
    }

    /// Checks the PICCData and SDMMAC of the message `bytes` read as a phone reads it, at the
    /// plan's offsets, with the plan's keys.
    private func checkURL(_ bytes: [UInt8], plan: NTAG424SDMPlan) throws(NFCReaderError) {
        guard bytes.count == plan.template.file.count - 2 else {
            throw NFCReaderError(.tagUpdateFailure, "the tag holds another message after the set-up")
        }
        let picc = plan.template.piccDataOffset - 2
        let mac = plan.template.macOffset - 2
        // Every byte but the mirrored ones is the plan's message (a message written with key 0
        // is read back here).
        var shown = bytes
        let file = Array(plan.template.file.dropFirst(2))
        for range in [picc..<(picc + 32), mac..<(mac + 16)] where range.upperBound <= shown.count {
            shown.replaceSubrange(range, with: file[range])
        }
        guard shown == file else {
            throw NFCReaderError(
                .tagUpdateFailure, "the tag's message is not the plan's after the set-up", mayBeHalfWritten: true)
        }
        guard let piccData = try? Hex.decode(String(decoding: bytes[picc..<(picc + 32)], as: UTF8.self)),
            let sdmMAC = try? Hex.decode(String(decoding: bytes[mac..<(mac + 16)], as: UTF8.self))
        else {
            throw NFCReaderError(.tagUpdateFailure, "the tag does not mirror PICCData and SDMMAC after the set-up")
        }
        let result: NTAG424SUNResult
        do {
            let verifier = try NTAG424SUNVerifier(
                metaReadKey: plan.keys[plan.metaReadKey], fileReadKey: plan.keys[plan.fileReadKey])
            result = verifier.verify(piccData: piccData, mac: sdmMAC, inputs: [("empty", [])])
        } catch {
            throw NFCReaderError(.tagUpdateFailure, "the set-up cannot be checked: \(error.reason)")
        }
        guard result.isValid, result.uid == identifier else {
            throw NFCReaderError(
                .tagUpdateFailure,
                "the URL the tag gives after the set-up does not verify: \(result.problem ?? "another UID")")
        }
    }
}
