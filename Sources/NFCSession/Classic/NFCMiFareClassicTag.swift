import NFCWireFormat
import TagMemory

/// A MIFARE Classic card (Mini, 1K, 4K) and its sector-by-sector commands: authenticate a
/// sector with key A or key B, read and write its 16-byte blocks (NXP MF1S50yyX section 9,
/// MF1S70yyX for 4K).
///
/// The reader runs Crypto-1 (``NFCReaderDevice/transceiveClassic(_:)``); this object keeps
/// track of the sector authenticated and selects the card again when a command left it
/// waiting (a refused key, a refused command, a card that left and came back). No
/// authentication is ever repeated on its own: a refused key is reported, and the next try is
/// the caller's, with another key. Keys (``TagMemory/MifareClassicKey``) are never shown in a
/// reason or description.
///
/// The NDEF operations (``NFCNDEFTag``) follow NXP AN1304 with the public keys: the MAD key A
/// for the directory, the NFC Forum key A for the NFC sectors. Operations on one card run one
/// at a time.
public actor NFCMiFareClassicTag {
    /// The UID, 4 or 7 bytes.
    public nonisolated let identifier: [UInt8]
    /// What polling found: UID, ATQA, SAK.
    public nonisolated let targetInfo: NFCTargetInfo
    /// The product, from the SAK (NXP AN10833, Table 6): 09h Mini, 08h 1K, 18h 4K (19h, a
    /// MIFARE Plus 2K in its Classic level, is taken for a 2K).
    public nonisolated let type: MifareClassicType

    /// The reader the card is in.
    let reader: any NFCReaderDevice
    /// The session's validity.
    let lifetime: SessionLifetime
    /// The commands sent through this object.
    public internal(set) var commandsSent = 0
    /// The authentications sent through this object (a part of ``commandsSent``).
    public internal(set) var authenticationsSent = 0
    /// The sector authenticated now, and with which key; nil when none is.
    public internal(set) var authenticatedSector: (sector: Int, keyB: Bool)?
    /// Told after each accepted WRITE of a plan (``observeWriteProgress(_:)``).
    var writeProgressObserver: (@Sendable (NFCWriteProgress) -> Void)?
    /// Whether the card waits in IDLE or HALT (after a refusal, a refused key or a lost answer)
    /// and must be selected again before the next command.
    var needsReselect = false
    /// The NDEF status the last completed write or erase left.
    var lastWrittenStatus: NDEFTagStatus?
    /// The survey of the last ``prepareFormat(keys:)``, for the format that follows it.
    var keptSurvey: KeptSurvey?
    /// The NDEF capacity the last lock plan read, for the status a lock leaves.
    var lastAreaCapacity: Int?
    /// The keys tried where the public keys are not enough (``useKeys(_:)``).
    var keyring = MifareClassicKeyring()
    /// Runs the operations on this card one at a time.
    private let gate: OperationGate

    init(reader: any NFCReaderDevice, target: NFCTargetInfo, lifetime: SessionLifetime) {
        self.reader = reader
        self.targetInfo = target
        self.identifier = target.uid
        self.type = Self.type(sak: target.sak)
        self.lifetime = lifetime
        self.gate = OperationGate(lifetime: lifetime)
    }

    /// The product a SAK names (AN10833 Table 6); 1K for a SAK it does not list.
    public static func type(sak: UInt8) -> MifareClassicType {
        switch sak {
        case 0x09: .mini
        case 0x18: .classic4K
        case 0x19: .classic2K
        default: .classic1K
        }
    }

    /// Authenticates `sector` with `key` as key A, or as key B when `keyB`.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationFailed`` when the card refuses the key (it
    ///   is selected again before the next command: nothing is retried);
    ///   ``NFCReaderError/Code/invalidParameter`` for a sector the card does not have;
    ///   ``NFCReaderError/Code/tagConnectionLost`` when it does not answer.
    public func authenticate(sector: Int, keyB: Bool = false, key: MifareClassicKey) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try await authenticateSector(sector, keyB: keyB, key: key)
    }

    /// Reads block `block` (16 bytes) of the sector authenticated.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationRequired`` when the block's sector is not
    ///   the one authenticated; ``NFCReaderError/Code/tagResponseError`` when the card refuses
    ///   the read (the key may not read the block).
    public func readBlock(_ block: Int) async throws(NFCReaderError) -> [UInt8] {
        try await beginOperation()
        defer { endOperation() }
        return try await read(block: block)
    }

    /// Writes `data` (16 bytes) to block `block` of the sector authenticated. The block is not
    /// read back: callers that need it do so.
    ///
    /// - Throws: ``NFCReaderError/Code/authenticationRequired`` when the block's sector is not
    ///   the one authenticated; ``NFCReaderError/Code/tagUpdateFailure`` when the card refuses
    ///   the write; ``NFCReaderError/Code/invalidParameter`` for block 0 (the manufacturer block
    ///   is write-protected, MF1S50yyX 8.6.1) or data of another length.
    public func writeBlock(_ block: Int, data: [UInt8]) async throws(NFCReaderError) {
        try await beginOperation()
        defer { endOperation() }
        try await write(block: block, data: data, purpose: "the block write")
    }

    /// Sends one MIFARE Classic command frame as it is (CoreNFC's `sendMiFareCommand`), through
    /// the reader's MIFARE Classic path, and returns the answer.
    public func sendMiFareCommand(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try await beginOperation()
        defer { endOperation() }
        let response = try await exchange(frame)
        if let command = frame.first.flatMap(MifareClassicCommand.init(opcode:)), command.isAuthentication,
            frame.count > 1, let sector = MifareClassicSector.containing(block: Int(frame[1]))
        {
            authenticatedSector = (sector.number, command == .authenticateB)
        }
        return response
    }

    // MARK: - Commands inside an operation

    /// AUTH_A or AUTH_B of `sector`'s trailer block with `key`.
    func authenticateSector(_ sector: Int, keyB: Bool, key: MifareClassicKey) async throws(NFCReaderError) {
        guard sector >= 0, sector < type.sectorCount, let found = MifareClassicSector(sector) else {
            throw NFCReaderError(.invalidParameter, "a \(type) has sectors 0-\(type.sectorCount - 1), not \(sector)")
        }
        authenticatedSector = nil
        authenticationsSent += 1
        let frame = MifareClassicCommand.authenticationFrame(
            keyB: keyB, block: UInt8(truncatingIfNeeded: found.trailerBlock), key: key.bytes, uid: identifier)
        do throws(NFCReaderError) {
            let response = try await exchange(frame)
            guard response == .ack else {
                needsReselect = true
                throw NFCReaderError(
                    .authenticationFailed, "the card refused key \(keyB ? "B" : "A") for sector \(sector) (\(response))"
                )
            }
        } catch {
            if error.code == .authenticationFailed {
                throw NFCReaderError(
                    .authenticationFailed, "sector \(sector) refused \(key) as key \(keyB ? "B" : "A")")
            }
            throw error
        }
        authenticatedSector = (sector, keyB)
    }

    /// READ of `block`, which must lie in the sector authenticated.
    func read(block: Int) async throws(NFCReaderError) -> [UInt8] {
        try checkAuthenticated(block: block)
        let response = try await exchange(MifareClassicCommand.readFrame(block: UInt8(truncatingIfNeeded: block)))
        guard case .data(let bytes) = response, bytes.count == MifareClassicSector.blockSize else {
            authenticatedSector = nil
            needsReselect = true
            throw NFCReaderError(.tagResponseError, "the card refused to read block \(block) (\(response))")
        }
        return bytes
    }

    /// WRITE of `data` to `block`, which must lie in the sector authenticated.
    func write(block: Int, data: [UInt8], purpose: String) async throws(NFCReaderError) {
        guard block != 0, data.count == MifareClassicSector.blockSize else {
            throw NFCReaderError(
                .invalidParameter,
                block == 0
                    ? "block 0, the manufacturer block, is write-protected (MF1S50yyX 8.6.1)"
                    : "a block has 16 bytes, not \(data.count)")
        }
        try checkAuthenticated(block: block)
        let frame = MifareClassicCommand.writeFrame(block: UInt8(truncatingIfNeeded: block), data: data)
        let response = try await exchange(frame)
        guard response == .ack else {
            authenticatedSector = nil
            needsReselect = true
            throw NFCReaderError(.tagUpdateFailure, "the card refused \(purpose) of block \(block) (\(response))")
        }
    }

    /// Throws ``NFCReaderError/Code/authenticationRequired`` unless `block`'s sector is the one
    /// authenticated.
    private func checkAuthenticated(block: Int) throws(NFCReaderError) {
        guard let sector = MifareClassicSector.containing(block: block), block < type.blockCount else {
            throw NFCReaderError(.invalidParameter, "a \(type) has blocks 0-\(type.blockCount - 1), not \(block)")
        }
        guard authenticatedSector?.sector == sector.number else {
            throw NFCReaderError(.authenticationRequired, "block \(block) needs an authentication of \(sector) first")
        }
    }

    /// Sends `frame`, selecting the card again first when it waits to be.
    func exchange(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        if needsReselect {
            try await reader.select(targetInfo)
            needsReselect = false
            authenticatedSector = nil
        }
        commandsSent += 1
        do {
            return try await reader.transceiveClassic(frame)
        } catch {
            authenticatedSector = nil
            needsReselect = true
            throw error
        }
    }

    /// Waits for the operation running to end, then starts one.
    func beginOperation() async throws(NFCReaderError) {
        try await gate.enter()
    }

    /// Ends the running operation.
    func endOperation() {
        gate.leave()
    }
}

extension NFCMiFareClassicTag {
    /// What one sector showed: the key that opened it as key A (nil when none of those tried
    /// did) and its trailer as that key reads it (key A as zeros, key B where not readable).
    public struct SectorReading: Sendable, Hashable {
        /// The sector number.
        public var sector: Int
        /// The key that opened the sector as key A; nil when none of those tried did.
        public var key: MifareClassicKey?
        /// The trailer read with it; nil when the sector did not open or its trailer could not
        /// be read.
        public var trailer: [UInt8]?
    }

    /// Reads every sector's trailer with the first key for it (``TagMemory/MifareClassicKeyring/keys(forSector:)``
    /// of `keys`, or of the keyring ``useKeys(_:)`` set: the public keys always among them) that
    /// opens it as key A, each tried once. Nothing is written.
    public func sectorReadings(keys: MifareClassicKeyring? = nil) async throws(NFCReaderError) -> [SectorReading] {
        try await beginOperation()
        defer { endOperation() }
        let keys = keys ?? keyring
        var readings: [SectorReading] = []
        for sector in type.sectors {
            var reading = SectorReading(sector: sector.number)
            for key in keys.keys(forSector: sector.number) {
                do {
                    try await authenticateSector(sector.number, keyB: false, key: key)
                } catch {
                    if error.code == .authenticationFailed { continue }
                    throw error
                }
                reading.key = key
                do {
                    reading.trailer = try await read(block: sector.trailerBlock)
                } catch {
                    if error.code != .tagResponseError { throw error }
                }
                break
            }
            readings.append(reading)
        }
        return readings
    }
}
