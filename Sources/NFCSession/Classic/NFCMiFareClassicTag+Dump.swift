import TagMemory

extension NFCMiFareClassicTag {
    /// Every block of a MIFARE Classic card that the keys open, as a dump holds it.
    public struct CardImage: Sendable, Hashable {
        /// The card type.
        public var type: MifareClassicType
        /// Every block from block 0, 16 bytes each (``TagMemory/MifareClassicType/byteCount``
        /// bytes). A sector trailer holds the keys that opened it where the card reads them as
        /// zeros (MF1S50yyX 8.7.2: key A is never readable; key B only where the access bits
        /// allow), as libnfc's `nfc-mfclassic` dumps do; a block no key could read is zeros.
        public var bytes: [UInt8]
        /// The sectors and the key of each kind that opened them (nil: none of those tried).
        public var sectors: [Sector]

        /// One sector of the image.
        public struct Sector: Sendable, Hashable {
            /// The sector number.
            public var number: Int
            /// The key that opened the sector as key A, if any did.
            public var keyA: MifareClassicKey?
            /// The key that opened it as key B, if one was needed and did.
            public var keyB: MifareClassicKey?
            /// The blocks of the sector that no key tried could read.
            public var unreadBlocks: [Int]
        }

        /// The sectors with a block no key could read.
        public var incompleteSectors: [Int] { sectors.filter { !$0.unreadBlocks.isEmpty }.map(\.number) }
    }

    /// Reads every block of the card: each sector is opened with the first key for it that the
    /// card accepts as key A (``TagMemory/MifareClassicKeyring/keys(forSector:)``, each tried
    /// once, the public and transport keys among them); blocks that key may not read (access
    /// conditions that give read to key B only, MF1S50yyX Table 8) are read with the first key
    /// accepted as key B. Where key B reads back as zeros and no block needed it, the keys of
    /// `keys` that are not public are tried as key B, each once, so that the image records it.
    /// A block no key reads is left zero and named in the result. Nothing is written.
    ///
    /// Commands: one authentication per key tried and one READ per block: 16 authentications
    /// and 64 READs for a 1K whose first candidate key opens every sector and whose key B is
    /// readable or not in `keys`.
    public func readCardImage(keys: MifareClassicKeyring? = nil) async throws(NFCReaderError) -> CardImage {
        try await beginOperation()
        defer { endOperation() }
        let keys = keys ?? keyring
        var image = CardImage(type: type, bytes: Array(repeating: 0, count: type.byteCount), sectors: [])
        for sector in type.sectors {
            image.sectors.append(try await readSector(sector, keys: keys, into: &image.bytes))
        }
        return image
    }

    /// Reads `sector` into `bytes` as ``readCardImage(keys:)`` does.
    private func readSector(_ sector: MifareClassicSector, keys: MifareClassicKeyring, into bytes: inout [UInt8])
        async throws(NFCReaderError) -> CardImage.Sector
    {
        var result = CardImage.Sector(number: sector.number, unreadBlocks: [])
        let candidates = keys.keys(forSector: sector.number)
        var missing = Array(sector.firstBlock...sector.trailerBlock)
        if let key = try await openSector(sector.number, keyB: false, candidates: candidates) {
            result.keyA = key
            missing = try await readBlocks(missing, of: sector, keyB: false, key: key, into: &bytes)
        }
        let trailer = sector.trailerBytes
        let keyBBytes = (trailer.upperBound - 6)..<trailer.upperBound
        let trailerRead = !missing.contains(sector.trailerBlock)
        let access = MifareClassicAccessBits(
            byte6: bytes[trailer.lowerBound + 6], byte7: bytes[trailer.lowerBound + 7],
            byte8: bytes[trailer.lowerBound + 8])
        let keyBHidden = trailerRead && access.trailerAccess.map { !$0.keyBRead.contains(.keyA) } == true
        if !missing.isEmpty {
            if let key = try await openSector(sector.number, keyB: true, candidates: candidates) {
                result.keyB = key
                missing = try await readBlocks(missing, of: sector, keyB: true, key: key, into: &bytes)
            }
        } else if keyBHidden {
            let own = candidates.filter { !MifareClassicKeyring.publicKeys.contains($0) }
            result.keyB = try await openSector(sector.number, keyB: true, candidates: own)
        }
        result.unreadBlocks = missing
        if !missing.contains(sector.trailerBlock) {
            if let keyA = result.keyA {
                bytes.replaceSubrange(trailer.lowerBound..<(trailer.lowerBound + 6), with: keyA.bytes)
            }
            if let keyB = result.keyB, bytes[keyBBytes].allSatisfy({ $0 == 0 }) {
                bytes.replaceSubrange(keyBBytes, with: keyB.bytes)
            }
        }
        return result
    }

    /// The first of `candidates` the card accepts for `sector` as key A (or B), each sent once.
    private func openSector(_ sector: Int, keyB: Bool, candidates: [MifareClassicKey]) async throws(NFCReaderError)
        -> MifareClassicKey?
    {
        for key in candidates {
            do {
                try await authenticateSector(sector, keyB: keyB, key: key)
                return key
            } catch {
                if error.code == .authenticationFailed { continue }
                throw error
            }
        }
        return nil
    }

    /// Reads `blocks` of `sector` opened with `key` into `bytes`; the blocks the card refused.
    /// A refused READ ends the card's authentication (MF1S50yyX 8.7: a NAK takes it back to
    /// IDLE), so the sector is opened again with the same key before the next block.
    private func readBlocks(
        _ blocks: [Int], of sector: MifareClassicSector, keyB: Bool, key: MifareClassicKey, into bytes: inout [UInt8]
    ) async throws(NFCReaderError) -> [Int] {
        var refused: [Int] = []
        var isOpen = true
        for block in blocks {
            if !isOpen {
                try await authenticateSector(sector.number, keyB: keyB, key: key)
                isOpen = true
            }
            do {
                let data = try await read(block: block)
                let start = block * MifareClassicSector.blockSize
                bytes.replaceSubrange(start..<(start + MifareClassicSector.blockSize), with: data)
            } catch {
                guard error.code == .tagResponseError else { throw error }
                refused.append(block)
                isOpen = false
            }
        }
        return refused
    }
}

extension NFCMiFareClassicTag {
    /// Whether the card answers the "Gen1a" backdoor of magic clones
    /// (``NFCReaderDevice/probeGen1aBackdoor()``): true for a card whose block 0 (UID and
    /// manufacturer data) can be written without a key, false for one that does not answer
    /// (genuine cards, and other magic generations), nil when the reader cannot send 7-bit
    /// frames. Nothing is written; the card is selected again before its next command.
    public func answersGen1aBackdoor() async throws(NFCReaderError) -> Bool? {
        try await beginOperation()
        defer { endOperation() }
        do {
            if needsReselect { try await reader.select(targetInfo) }
            authenticatedSector = nil
            needsReselect = true
            return try await reader.probeGen1aBackdoor()
        } catch {
            if error.code == .unsupportedFeature { return nil }
            throw error
        }
    }
}
