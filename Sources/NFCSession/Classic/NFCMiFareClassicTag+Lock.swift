import TagMemory

/// Making a card read-only for good (NXP AN1305): every NFC sector's trailer gets the access
/// bits 07 8F 0F (data read with either key, nothing written by any key: MF1S50yyX Tables 7
/// and 8, conditions 010 and 110) and GPB 43h (write access denied); the MAD sectors get the
/// same access bits with their GPB kept. Key B, which the layout's access bits require for a
/// trailer write, comes from the keyring (``useKeys(_:)``).
extension NFCMiFareClassicTag {
    /// The keys the lock (and other operations that need more than the public keys) try.
    public func useKeys(_ keys: MifareClassicKeyring) {
        keyring = keys
    }

    /// Reads the card and makes the confirmation a lock needs, without writing: the code stands
    /// for the UID, the message, every trailer as read and the planned trailer writes.
    ///
    /// - Throws: ``NFCReaderError/Code/tagNotSupported`` for a card that is not NDEF formatted;
    ///   ``NFCReaderError/Code/tagNotWritable`` when every sector is read-only already;
    ///   ``NFCReaderError/Code/authenticationFailed`` naming the first sector whose key B is
    ///   none of the keyring's keys (``useKeys(_:)``), before any write.
    public func prepareLock() async throws(NFCReaderError) -> NFCLockConfirmation {
        try await beginOperation()
        defer { endOperation() }
        let (plan, fields) = try await lockPlan()
        return try lockConfirmation(plan: plan, fields: fields)
    }

    /// Makes the card read-only as `confirmation` describes, after checking against a fresh
    /// read that it still does (``NFCReaderError/Code/confirmationMismatch`` before any write
    /// otherwise): the NFC sectors' trailers in order, then the MAD's, each read back with the
    /// public key A. A cut leaves some sectors read-only (the card then reads as read-only);
    /// the same lock finishes the others.
    public func writeLock(_ confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        let (plan, fields) = try await lockPlan()
        let capacity = lastAreaCapacity ?? 0
        let fresh = try lockConfirmation(plan: plan, fields: fields)
        guard fresh.uid == confirmation.uid, fresh.contentDigest == confirmation.contentDigest else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the card, its message or its sectors differ from what code \(confirmation.code) was made for: "
                    + "nothing was written")
        }
        lastWrittenStatus = nil
        for (index, step) in plan.enumerated() {
            guard let sector = MifareClassicSector.containing(block: step.address) else { continue }
            let publicKeyA: MifareClassicKey = sector.isDirectorySector ? .directoryKeyA : .ndefKeyA
            do throws(NFCReaderError) {
                try await authenticateSector(sector.number, keyB: true, key: step.key)
                try await write(block: step.address, data: step.data, purpose: "the lock")
                try await authenticateSector(sector.number, keyB: false, key: publicKeyA)
                let trailer = try await read(block: step.address)
                guard trailer[6..<10] == step.data[6..<10] else {
                    throw NFCReaderError(.tagUpdateFailure, "the trailer reads back other access bits than written")
                }
            } catch {
                throw NFCReaderError(
                    error.code, "locking \(sector) (\(index + 1) of \(plan.count)): \(error.reason)",
                    mayBeHalfWritten: true)
            }
        }
        // Every trailer read back: the status needs no command (a cut now is no cut of the lock).
        lastWrittenStatus = NDEFTagStatus(status: .readOnly, capacity: capacity)
    }

    /// One trailer write of a lock, with the key B that opens its sector.
    struct LockStep {
        var address: Int
        var data: [UInt8]
        var key: MifareClassicKey
    }

    /// The trailer writes a lock needs now (sectors already read-only are left out), and the
    /// fields its confirmation digests: the message and every trailer as read.
    private func lockPlan() async throws(NFCReaderError) -> ([LockStep], [[UInt8]]) {
        let area = try await loadNDEFArea(.status)
        let memory = area.memory
        guard memory.directory != nil, !memory.ndefSectors.isEmpty, memory.ndefTLVAddress != nil else {
            throw NFCReaderError(.tagNotSupported, "the card is not NDEF formatted: \(area.reason)")
        }
        lastAreaCapacity = memory.ndefStatus.capacity
        let layout = MifareClassicNDEFLayout(type: type)
        var steps: [LockStep] = []
        var trailers: [UInt8] = []
        let sectors = memory.ndefSectors + layout.directorySectors.reversed()
        for sector in sectors {
            let trailer = memory.bytes[sector.trailerBytes]
            trailers += [UInt8(truncatingIfNeeded: sector.number)] + trailer
            let readOnly = MifareClassicAccessBits.ndefReadOnly.bytes
            if Array(trailer.dropFirst(6).prefix(3)) == readOnly { continue }
            let key = try await keyB(of: sector)
            let keyA = sector.isDirectorySector ? MifareClassicKey.directoryKeyA : .ndefKeyA
            let purpose: UInt8 =
                sector.isDirectorySector
                ? trailer[trailer.startIndex + 9] : MifareClassicGeneralPurposeByte.ndefReadOnly.rawValue
            steps.append(
                LockStep(address: sector.trailerBlock, data: keyA.bytes + readOnly + [purpose] + key.bytes, key: key))
        }
        guard !steps.isEmpty else {
            throw NFCReaderError(.tagNotWritable, "the card is read-only already (AN1305): every sector is locked")
        }
        let message = memory.ndefMessageBytes ?? []
        return (steps, [message, trailers])
    }

    /// The keyring's key that opens `sector` as key B, each tried once.
    private func keyB(of sector: MifareClassicSector) async throws(NFCReaderError) -> MifareClassicKey {
        let candidates = keyring.keys(forSector: sector.number)
        for key in candidates {
            do {
                try await authenticateSector(sector.number, keyB: true, key: key)
                return key
            } catch {
                if error.code != .authenticationFailed { throw error }
            }
        }
        throw NFCReaderError(
            .authenticationFailed,
            "locking rewrites \(sector)'s trailer with key B, and none of the \(candidates.count) keys tried opens it "
                + "as key B (give the keys file with the card's key B): nothing was written")
    }

    /// The confirmation of a lock.
    private func lockConfirmation(plan: [LockStep], fields: [[UInt8]]) throws(NFCReaderError) -> NFCLockConfirmation {
        let writes = Array(plan.map { [UInt8(truncatingIfNeeded: $0.address)] + $0.data }.joined())
        let digest = try NFCLockConfirmation.digest(
            domain: NFCLockConfirmation.classicLockDomain, fields: [identifier] + fields + [writes])
        let shown = TagWritePlan(
            steps: plan.map {
                PlanStep(
                    address: $0.address, data: [UInt8](repeating: 0, count: 16),
                    reason: "trailer: access bits 07 8F 0F, read-only for good (AN1305)", isSecret: true)
            })
        return NFCLockConfirmation(
            uid: identifier, digest: digest, options: .init(setsBlockLockBits: false, locksConfiguration: false),
            plan: shown, messageLength: fields.first?.count ?? 0)
    }
}

extension NFCLockConfirmation {
    /// The domain string of a MIFARE Classic lock's confirmation.
    static let classicLockDomain = "ndeftool lock confirmation: MIFARE Classic (AN1305), version 1"
}
