import TagMemory

extension SimulatedType2Tag {
    /// The most a 24-bit counter holds (NTAG213/215/216 8.7, MF0ULX1 8.7).
    static let counterLimit: UInt32 = 0xFF_FFFF

    /// Creates a tag in the state `dump` records: a tag saved with ``dump`` comes back as it was.
    ///
    /// The chip is the one ``TagMemory/TagDump/chipIdentification`` finds (GET_VERSION, else
    /// the chip name, else the page count). The memory image is taken whole, PWD and PACK
    /// included (a file written by ``dump`` holds them; a dump of a real tag may hold zeros
    /// there); pages a dump tool could not read are taken as the file has them. The counters are READ_CNT's: the NFC counter at index 2 on NTAG21x
    /// (NTAG213/215/216 8.7), the three one-way counters on MIFARE Ultralight EV1 (MF0ULX1 8.7).
    /// The failed PWD_AUTH count is ``TagMemory/TagDump/failedAuthenticationAttempts``. No
    /// format records whether the password is disabled: like the chip, which compares its
    /// counter with AUTHLIM (NTAG213/215/216 8.8.2), the tag is disabled when AUTHLIM (CFG1)
    /// is not 0 and the count has reached it. Session state (authentication, a pending
    /// COMPATIBILITY_WRITE, the once-per-field NFC counter increment) is not kept: the tag
    /// starts in IDLE.
    ///
    /// - Throws: ``TagMemory/TagMemoryError/Code/unsupportedChip`` when the chip cannot be told
    ///   or is not in ``TagMemory/Type2ChipCatalogue``; ``TagMemory/TagMemoryError/Code/malformedDump``
    ///   for a MIFARE Classic image, a memory image of another size than the chip's, a UID
    ///   that differs from pages 0-1, a signature of other than 32 bytes, more than three
    ///   counters or a counter over 24 bits.
    public init(dump: TagDump) throws(TagMemoryError) {
        guard dump.layout == .type2 else {
            throw TagMemoryError(.malformedDump, "the dump holds MIFARE Classic blocks, not Type 2 pages")
        }
        guard let chip = dump.chipIdentification?.chip else {
            throw TagMemoryError(.unsupportedChip, "the dump's chip is not one the simulator knows (\(dump))")
        }
        let size = chip.pageCount * Type2Page.size
        guard dump.memory.count == size else {
            throw TagMemoryError(
                .malformedDump, at: min(dump.memory.count, size),
                "the dump holds \(dump.pageCount) pages but \(chip.name) has \(chip.pageCount)")
        }
        if let uid = dump.uid {
            let stored = Array(dump.memory[0..<3] + dump.memory[4..<8])
            guard uid == stored else {
                throw TagMemoryError(.malformedDump, at: 0, "the dump's UID does not match the UID in pages 0-1")
            }
        }
        if let signature = dump.signature, signature.count != 32 {
            throw TagMemoryError(.malformedDump, "the signature has \(signature.count) bytes, not 32")
        }
        let counters = dump.counters ?? []
        guard counters.count <= 3, counters.allSatisfy({ $0 <= Self.counterLimit }) else {
            throw TagMemoryError(.malformedDump, "a tag has at most three counters of 24 bits")
        }
        self.init(chip: chip, image: dump.memory, signature: dump.signature)
        if chip.features.contains(.nfcCounter), counters.count == 3 {
            nfcCounter = counters[2]
        }
        if chip.features.contains(.oneWayCounters) {
            oneWayCounters = (0..<3).map { $0 < counters.count ? counters[$0] : 0 }
        }
        if chip.features.contains(.passwordAuthentication), let failed = dump.failedAuthenticationAttempts {
            failedAuthenticationCount = Int(clamping: failed)
            let limit = rules.configuration?.authenticationLimit ?? 0
            isPasswordDisabled = limit > 0 && failedAuthenticationCount >= limit
        }
    }

    /// The tag's state as a dump, for a file (``TagMemory/TagDump/encoded(as:)``): the whole
    /// memory with PWD and PACK, the UID, ATQA 00 44 and SAK 00, GET_VERSION, the signature,
    /// the counters as READ_CNT reads them (NTAG21x: the NFC counter at index 2) and the failed
    /// PWD_AUTH count. ``TagMemory/TagDumpFormat/flipper`` keeps all of it;
    /// ``TagMemory/TagDumpFormat/proxmarkJSON`` and ``TagMemory/TagDumpFormat/proxmarkBinary``
    /// lose the failed count, the hex and raw formats keep the memory only.
    public var dump: TagDump {
        var counters: [UInt32]?
        if chip.features.contains(.nfcCounter) {
            counters = [0, 0, nfcCounter]
        } else if chip.features.contains(.oneWayCounters) {
            counters = oneWayCounters
        }
        return TagDump(
            layout: .type2,
            memory: bytes,
            uid: uid,
            atqa: [0x00, 0x44],
            sak: 0x00,
            version: chip.versionResponses.first,
            signature: signature,
            counters: counters,
            chipName: nil,
            failedAuthenticationAttempts: chip.features.contains(.passwordAuthentication)
                ? UInt32(clamping: failedAuthenticationCount) : nil)
    }
}
