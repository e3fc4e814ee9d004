import TagMemory

/// Formatting a card for NDEF (NXP AN1304, AN10787): every sector gets the NFC Forum layout of
/// ``TagMemory/MifareClassicNDEFLayout``, with the keyring's key B.
extension NFCMiFareClassicTag {
    /// What the survey of one sector found: the key that may write its trailer, and whether
    /// the sector already has the layout's trailer with the keyring's keys.
    struct SectorSurvey: Sendable {
        var sector: MifareClassicSector
        /// The trailer as the opening key read it (keys as zeros where hidden).
        var trailer: [UInt8]
        /// The key that may write the trailer, and whether it is key B; nil when the sector
        /// already has the target trailer with the keyring's key B.
        var writeKey: (key: MifareClassicKey, keyB: Bool)?
        /// The key that may write the data blocks.
        var dataKey: (key: MifareClassicKey, keyB: Bool)
        /// The data blocks the opening key may read, as read (block 0 aside): the format writes
        /// only those that differ from the layout, and the blocks it could not read.
        var data: [Int: [UInt8]] = [:]
    }

    /// A survey and its plan, kept from ``prepareFormat(keys:)`` for the ``format(keys:confirmation:)``
    /// that follows with no command to the card in between (`commandsSent` unchanged): the card
    /// cannot have changed, so the survey is not sent twice.
    struct KeptSurvey: Sendable {
        var keys: MifareClassicKeyring
        var survey: [SectorSurvey]
        var plan: [PlanStep]
        var commandsSent: Int
    }

    /// Reads the card and makes the confirmation a format needs, without writing: the code
    /// stands for the card's UID and the layout the format gives it with the key B to install
    /// (it does not depend on the state the card starts from; nothing shown holds a key).
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for a card that is NDEF formatted
    ///   already (``format()`` erases it) or a keyring without a key B to install;
    ///   ``NFCReaderError/Code/authenticationFailed`` naming the first sector none of the
    ///   keyring's keys (nor a public key) opens; ``NFCReaderError/Code/tagNotWritable`` for a
    ///   sector whose trailer no key may write (a read-only card).
    public func prepareFormat(keys: MifareClassicKeyring) async throws(NFCReaderError) -> NFCLockConfirmation {
        try await beginOperation()
        defer { endOperation() }
        let (survey, plan) = try await surveyAndPlan(keys)
        keptSurvey = KeptSurvey(keys: keys, survey: survey, plan: plan, commandsSent: commandsSent)
        return try formatConfirmation(survey, plan, keys: keys)
    }

    /// Formats the card for NDEF as `confirmation` describes, after checking against a fresh
    /// survey that it still does (``NFCReaderError/Code/confirmationMismatch`` before any write
    /// otherwise). Right after ``prepareFormat(keys:)`` with the same keys, with no command to the
    /// card in between, its survey is the fresh one (the card cannot have changed).
    ///
    /// Order, so that a cut leaves every sector with its old keys or the new ones and the card
    /// reading as not formatted until the last write: the NFC sectors in order, each with its
    /// data blocks first (the first with an empty NDEF TLV, the others zeros), read back, then
    /// its trailer, proved by authenticating with the new key A and the new key B; then the MAD
    /// (sector 16's blocks and trailer on a 4K, then sector 0's), whose GPB in sector 0 is the
    /// one write that makes the card NDEF formatted. Running the same format again after a cut
    /// finishes it: sectors already done are only checked.
    ///
    /// - Throws: the errors of ``prepareFormat(keys:)``; ``NFCReaderError/Code/confirmationMismatch``;
    ///   ``NFCReaderError/Code/tagConnectionLost`` (half-written) when the card leaves;
    ///   ``NFCReaderError/Code/tagUpdateFailure`` for a refused write or a read-back that differs.
    public func format(keys: MifareClassicKeyring, confirmation: NFCLockConfirmation) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        let kept = keptSurvey
        keptSurvey = nil
        let (survey, plan) =
            if let kept, kept.keys == keys, kept.commandsSent == commandsSent {
                (kept.survey, kept.plan)
            } else {
                try await surveyAndPlan(keys)
            }
        let fresh = try formatConfirmation(survey, plan, keys: keys)
        guard fresh.uid == confirmation.uid, fresh.contentDigest == confirmation.contentDigest else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the card or the key B differ from what code \(confirmation.code) was made for: "
                    + "nothing was written")
        }
        guard let keyB = keys.keyBToInstall else { return }
        lastWrittenStatus = nil
        let layout = MifareClassicNDEFLayout(type: type)
        var written = 0
        for entry in survey {
            let steps = plan.filter { MifareClassicSector.containing(block: $0.address) == entry.sector }
            let newKeyA = entry.sector.isDirectorySector ? MifareClassicKey.directoryKeyA : .ndefKeyA
            do {
                try await formatSector(entry, steps: steps, newKeyA: newKeyA, keyB: keyB, layout: layout)
            } catch {
                throw NFCReaderError(
                    error.code, "formatting \(entry.sector): \(error.reason)",
                    mayBeHalfWritten: written > 0 || !steps.isEmpty)
            }
            written += steps.count
        }
        // Every step read back: the status of the empty layout needs no command (a cut now is no
        // cut of the format).
        let image = layout.formattedImage(manufacturerBlock: [UInt8](repeating: 0, count: 16), keyB: keyB)
        lastWrittenStatus = MifareClassicMemory(bytes: image, type: type).ndefStatus
    }

    /// Writes `steps` to one sector, data blocks before the trailer, and proves the new keys.
    private func formatSector(
        _ entry: SectorSurvey, steps: [PlanStep], newKeyA: MifareClassicKey, keyB: MifareClassicKey,
        layout: MifareClassicNDEFLayout
    ) async throws(NFCReaderError) {
        let dataSteps = steps.filter { !entry.sector.isTrailer($0.address) }
        let trailerSteps = steps.filter { entry.sector.isTrailer($0.address) }
        if !dataSteps.isEmpty {
            let key = entry.dataKey
            try await authenticateSector(entry.sector.number, keyB: key.keyB, key: key.key)
            for step in dataSteps { try await write(block: step.address, data: step.data, purpose: "the format") }
            for step in dataSteps where try await read(block: step.address) != step.data {
                throw NFCReaderError(.tagUpdateFailure, "block \(step.address) reads back other bytes than written")
            }
        }
        if let trailer = trailerSteps.first, let key = entry.writeKey {
            // The data blocks' key is still authenticated (their read-backs keep it) when it is
            // the trailer's too.
            let isOpen =
                !dataSteps.isEmpty && entry.dataKey.key == key.key && entry.dataKey.keyB == key.keyB
                && authenticatedSector?.sector == entry.sector.number
            if !isOpen { try await authenticateSector(entry.sector.number, keyB: key.keyB, key: key.key) }
            try await write(block: trailer.address, data: trailer.data, purpose: "the format")
        }
        guard !steps.isEmpty else { return }
        // The new keys open the sector: key A reads the access bits and GPB written, key B
        // authenticates (it is not readable, so only this proves it).
        try await authenticateSector(entry.sector.number, keyB: false, key: newKeyA)
        let trailer = try await read(block: entry.sector.trailerBlock)
        let expected =
            entry.sector.isDirectorySector ? layout.directoryTrailer(keyB: keyB) : layout.ndefTrailer(keyB: keyB)
        guard trailer[6..<10] == expected[6..<10] else {
            throw NFCReaderError(.tagUpdateFailure, "the trailer reads back other access bits than written")
        }
        try await authenticateSector(entry.sector.number, keyB: true, key: keyB)
    }

    /// Surveys every sector (the NFC sectors, then the MAD sectors, as the format writes them)
    /// and plans the writes.
    func surveyAndPlan(_ keys: MifareClassicKeyring) async throws(NFCReaderError) -> ([SectorSurvey], [PlanStep]) {
        guard let keyB = keys.keyBToInstall else {
            throw NFCReaderError(
                .invalidParameter,
                "formatting writes a key B into every sector: the keys file must name it (a lost key B makes a "
                    + "sector's trailer unchangeable)")
        }
        let area = try await loadNDEFArea(.status)
        if area.refusal == nil, area.memory.ndefStatus.status != .notSupported {
            throw NFCReaderError(.invalidParameter, "the card is NDEF formatted already: erase it instead")
        }
        let layout = MifareClassicNDEFLayout(type: type)
        let order = layout.ndefSectors + layout.directorySectors.reversed()
        var survey: [SectorSurvey] = []
        var plan: [PlanStep] = []
        let directoryData = Dictionary(uniqueKeysWithValues: layout.directoryBlocks.map { ($0.block, $0.data) })
        for sector in order {
            let entry = try await surveySector(sector, keys: keys, layout: layout, keyB: keyB)
            survey.append(entry)
            for block in sector.dataBlocks where block != 0 {
                let data: [UInt8]
                if sector.isDirectorySector {
                    data = directoryData[block] ?? [UInt8](repeating: 0, count: 16)
                } else if sector == layout.ndefSectors.first, block == sector.firstBlock {
                    data = MifareClassicNDEFLayout.emptyMessageBlock
                } else {
                    data = [UInt8](repeating: 0, count: 16)
                }
                // A sector already in the layout keeps its data: a rerun after a cut must not
                // empty a message that a later write put there. Its blocks are only planned
                // when the trailer is still to be written.
                if entry.writeKey != nil, entry.data[block] != data {
                    plan.append(PlanStep(address: block, data: data, reason: "\(sector): data of the NFC Forum layout"))
                }
            }
            if entry.writeKey != nil {
                let trailer =
                    sector.isDirectorySector ? layout.directoryTrailer(keyB: keyB) : layout.ndefTrailer(keyB: keyB)
                let keyA = sector.isDirectorySector ? "A0A1A2A3A4A5" : "D3F7D3F7D3F7"
                let bits = MifareClassicAccessBits(byte6: trailer[6], byte7: trailer[7], byte8: trailer[8])
                plan.append(
                    PlanStep(
                        address: sector.trailerBlock, data: trailer,
                        reason: "\(sector)'s trailer: key A \(keyA), access bits \(bits.hexText), GPB "
                            + "\(MifareClassicGeneralPurposeByte(rawValue: trailer[9])), the keys file's key B",
                        isSecret: true))
            }
        }
        return (survey, plan)
    }

    /// Finds the key that opens `sector` with the right to write its trailer, or proves the
    /// sector is already in the layout with `keyB`.
    private func surveySector(
        _ sector: MifareClassicSector, keys: MifareClassicKeyring, layout: MifareClassicNDEFLayout,
        keyB: MifareClassicKey
    ) async throws(NFCReaderError) -> SectorSurvey {
        let candidates = keys.keys(forSector: sector.number)
        // Key A first: the key most sectors open with, and the one that reads the access bits.
        var opened: (MifareClassicKey, [UInt8])?
        for key in candidates {
            do {
                try await authenticateSector(sector.number, keyB: false, key: key)
                opened = (key, try await read(block: sector.trailerBlock))
                break
            } catch {
                if error.code != .authenticationFailed && error.code != .tagResponseError { throw error }
            }
        }
        guard let (keyA, trailer) = opened else {
            throw NFCReaderError(
                .authenticationFailed,
                "\(sector) opens with none of the \(candidates.count) keys tried as key A (the keys file's and the "
                    + "public ones): nothing was written")
        }
        let bits = MifareClassicAccessBits(byte6: trailer[6], byte7: trailer[7], byte8: trailer[8])
        guard let access = bits.trailerAccess else {
            throw NFCReaderError(.tagNotWritable, "\(sector)'s access bits are inconsistent: the card blocks it")
        }
        let data = try await readableData(of: sector, bits: bits, keyBReadable: access.isKeyBReadable)
        let target = sector.isDirectorySector ? layout.directoryTrailer(keyB: keyB) : layout.ndefTrailer(keyB: keyB)
        let targetKeyA = Array(target[0..<6])
        var dataKey = (key: keyA, keyB: false)
        if Array(trailer[6..<10]) == Array(target[6..<10]), keyA.bytes == targetKeyA {
            // The layout's trailer already: key B must be the one to install, proved by authenticating.
            do {
                try await authenticateSector(sector.number, keyB: true, key: keyB)
                return SectorSurvey(sector: sector, trailer: trailer, writeKey: nil, dataKey: dataKey, data: data)
            } catch {
                if error.code != .authenticationFailed { throw error }
            }
        }
        if access.keyAWrite.contains(.keyA) && access.accessBitsWrite.contains(.keyA)
            && access.keyBWrite.contains(.keyA)
        {
            return SectorSurvey(sector: sector, trailer: trailer, writeKey: (keyA, false), dataKey: dataKey, data: data)
        }
        guard access.keyAWrite.contains(.keyB), access.accessBitsWrite.contains(.keyB), access.keyBWrite.contains(.keyB)
        else {
            throw NFCReaderError(
                .tagNotWritable, "\(sector)'s access bits \(bits.hexText) let no key rewrite its whole trailer")
        }
        // Key B writes the trailer; it writes the data blocks too where key A may not (a MAD
        // sector's 78 77 88).
        let keyAWritesData = bits.dataBlockAccess.allSatisfy {
            $0.effective(keyBReadable: access.isKeyBReadable).write.contains(.keyA)
        }
        for key in candidates {
            do {
                try await authenticateSector(sector.number, keyB: true, key: key)
                if !keyAWritesData { dataKey = (key, true) }
                return SectorSurvey(
                    sector: sector, trailer: trailer, writeKey: (key, true), dataKey: dataKey, data: data)
            } catch {
                if error.code != .authenticationFailed { throw error }
            }
        }
        throw NFCReaderError(
            .authenticationFailed,
            "\(sector)'s trailer is written with key B, and none of the \(candidates.count) keys tried opens it as "
                + "key B: nothing was written")
    }

    /// The data blocks of `sector` (block 0 aside) that key A, authenticated, may read under
    /// `bits` (MF1S50yyX Table 8), read; the others are left out (the format writes them). A
    /// READ the card refuses all the same ends the reads (its authentication is gone): the
    /// blocks not read are written.
    private func readableData(
        of sector: MifareClassicSector, bits: MifareClassicAccessBits, keyBReadable: Bool
    ) async throws(NFCReaderError) -> [Int: [UInt8]] {
        var data: [Int: [UInt8]] = [:]
        for block in sector.dataBlocks where block != 0 {
            guard let group = sector.accessGroup(ofBlock: block),
                let access = bits.dataBlockAccess(group: group),
                access.effective(keyBReadable: keyBReadable).read.contains(.keyA)
            else { continue }
            do {
                data[block] = try await read(block: block)
            } catch {
                if error.code == .tagResponseError { break }
                throw error
            }
        }
        return data
    }

    /// The confirmation of a format: it stands for the card (its UID and product) and the layout
    /// the format gives it, every sector's trailer with the keyring's key B and the MAD (the
    /// digest covers the key; nothing shown holds one). The state the card starts from is not
    /// in it: a format cut part way, run again with the same keys, has the same code, so the
    /// command the tool printed finishes it.
    func formatConfirmation(_ survey: [SectorSurvey], _ plan: [PlanStep], keys: MifareClassicKeyring)
        throws(NFCReaderError) -> NFCLockConfirmation
    {
        let layout = MifareClassicNDEFLayout(type: type)
        guard let keyB = keys.keyBToInstall else {
            throw NFCReaderError(.invalidParameter, "formatting needs the key B to install")
        }
        var target: [UInt8] = [UInt8(truncatingIfNeeded: type.sectorCount)]
        for entry in survey {
            let trailer =
                entry.sector.isDirectorySector ? layout.directoryTrailer(keyB: keyB) : layout.ndefTrailer(keyB: keyB)
            target += [UInt8(truncatingIfNeeded: entry.sector.number)] + trailer
        }
        for block in layout.directoryBlocks { target += [UInt8(truncatingIfNeeded: block.block)] + block.data }
        let digest = try NFCLockConfirmation.digest(
            domain: NFCLockConfirmation.classicFormatDomain, fields: [identifier, target])
        let shown = TagWritePlan(
            steps: plan.map { step in
                var shown = step
                if step.isSecret { shown.data = [UInt8](repeating: 0, count: step.data.count) }
                return shown
            })
        return NFCLockConfirmation(
            uid: identifier, digest: digest, options: .init(setsBlockLockBits: false, locksConfiguration: false),
            plan: shown, messageLength: 0)
    }
}

extension NFCLockConfirmation {
    /// The domain string of a MIFARE Classic format's confirmation.
    static let classicFormatDomain = "ndeftool format confirmation: MIFARE Classic (AN1304), version 2"
}
