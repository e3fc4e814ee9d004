import NFCCrypto
import NTAG424

/// The file commands of NTAG 424 DNA (NT4H2421Gx datasheet 10.7-10.8) and secure dynamic
/// messaging on reads of the NDEF file (9.3).
extension SimulatedType4Tag {
    /// The data of file `number` (01 CC, 02 NDEF, 03 proprietary).
    func fileData(_ number: UInt8, chip: SimulatedNTAG424Chip) -> [UInt8] {
        switch number {
        case 0x01: capabilityContainerFile
        case 0x02: ndefFile
        default: chip.proprietaryFile
        }
    }

    /// Replaces bytes of file `number` from `offset`.
    mutating func writeFile(_ number: UInt8, offset: Int, _ bytes: [UInt8], chip: inout SimulatedNTAG424Chip) {
        let range = offset..<(offset + bytes.count)
        switch number {
        case 0x01: capabilityContainerFile.replaceSubrange(range, with: bytes)
        case 0x02: ndefFile.replaceSubrange(range, with: bytes)
        default: chip.proprietaryFile.replaceSubrange(range, with: bytes)
        }
    }

    /// How an access to a file is granted: the CommMode its data travels in, or a refusal
    /// (91 AE when a key would grant it, 91 9D when nothing does).
    func access(
        _ rights: [NTAG424Access], settings: NTAG424FileSettings, chip: SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> NTAG424CommunicationMode {
        let grants = rights.map { chip.grants($0) }
        if grants.contains(where: { $0.byKey }) { return settings.communicationMode }
        if grants.contains(where: { $0.granted }) { return .plain }
        throw NTAG424Refusal(
            rights.allSatisfy { $0 == .never }
                ? NTAG424NativeAnswer.permissionDenied : NTAG424NativeAnswer.authenticationError)
    }

    /// GetFileSettings (F5h, 10.7.2): MAC mode in a session, plain otherwise.
    mutating func getFileSettings(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let opened = try opened(0xF5, data, headerCount: 1, mode: .mac, chip: &chip)
        guard opened.body.isEmpty else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        let number = try fileNumber(opened.header.first, chip: chip)
        guard let settings = chip.fileSettings[number] else { throw NTAG424Refusal(NTAG424NativeAnswer.fileNotFound) }
        return try answered(settings.encoded, mode: .mac, chip: &chip)
    }

    /// ChangeFileSettings (5Fh, 10.7.1): the Change right; CommMode Full under a key, plain when
    /// free. SDM only on file 02; enabling it resets SDMReadCtr.
    mutating func changeFileSettings(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let number = try fileNumber(data.first, chip: chip)
        guard let current = chip.fileSettings[number] else { throw NTAG424Refusal(NTAG424NativeAnswer.fileNotFound) }
        let granted = chip.grants(current.change)
        guard current.change != .never else { throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied) }
        guard granted.granted else { throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError) }
        let mode: NTAG424CommunicationMode = granted.byKey ? .full : .plain
        let opened = try opened(0x5F, data, headerCount: 1, mode: mode, chip: &chip)
        var settings: NTAG424FileSettings
        do {
            settings = try NTAG424FileSettings(changeCommandData: opened.body, size: current.size)
            if let sdm = settings.sdm {
                guard number == 0x02 else { throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied) }
                // Only an NTAG 424 DNA TT mirrors a TagTamper status (NT4H2421Tx).
                if sdm.mirrorsTagTamper && chip.tagTamper == nil {
                    throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
                }
                try settings.validate(mode: chip.mode)
                let counter = current.sdm == nil ? 0 : chip.sdmReadCounter
                if sdm.hasReadCounterLimit, let limit = sdm.readCounterLimit, limit <= counter {
                    throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
                }
            }
        } catch let refusal as NTAG424Refusal {
            throw refusal
        } catch let error as NTAG424Error {
            throw NTAG424Refusal(error)
        } catch {
            throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
        }
        settings.size = current.size
        if current.sdm == nil, settings.sdm != nil { chip.sdmReadCounter = 0 }
        chip.fileSettings[number] = settings
        return try answered([], mode: granted.byKey ? .mac : .plain, chip: &chip)
    }

    /// ReadData (ADh, 10.8.1): FileNo, offset and length (3 bytes each, 0: to the end); the
    /// Read, ReadWrite or SDMFileRead right. An unauthenticated read of the NDEF file with SDM
    /// on counts and mirrors (``sdmContents(kind:chip:)``).
    mutating func readData(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let number = try fileNumber(data.first, chip: chip)
        guard let settings = chip.fileSettings[number] else { throw NTAG424Refusal(NTAG424NativeAnswer.fileNotFound) }
        var rights = [settings.read, settings.readWrite]
        if chip.session == nil, let sdm = settings.sdm, sdm.fileRead != .never { rights.append(.free) }
        let mode = try access(rights, settings: settings, chip: chip)
        let opened = try opened(0xAD, data, headerCount: 7, mode: mode, chip: &chip)
        guard opened.body.isEmpty else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        let offset = Self.integer(opened.header[1..<4])
        let asked = Self.integer(opened.header[4..<7])
        guard offset < settings.size else { throw NTAG424Refusal(NTAG424NativeAnswer.boundaryError) }
        let length = asked == 0 ? settings.size - offset : asked
        guard offset + length <= settings.size else { throw NTAG424Refusal(NTAG424NativeAnswer.boundaryError) }
        var content = fileData(number, chip: chip)
        if chip.session == nil, number == 0x02, settings.sdm != nil {
            content = try sdmContents(kind: .readData, chip: &chip)
        }
        return try answered(Array(content[offset..<(offset + length)]), mode: mode, chip: &chip)
    }

    /// WriteData (8Dh, 10.8.2): FileNo, offset, length, data; the Write or ReadWrite right.
    mutating func writeData(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let number = try fileNumber(data.first, chip: chip)
        guard let settings = chip.fileSettings[number] else { throw NTAG424Refusal(NTAG424NativeAnswer.fileNotFound) }
        let mode = try access([settings.write, settings.readWrite], settings: settings, chip: chip)
        let opened = try opened(0x8D, data, headerCount: 7, mode: mode, chip: &chip)
        let offset = Self.integer(opened.header[1..<4])
        let length = Self.integer(opened.header[4..<7])
        guard length == opened.body.count, length > 0 else { throw NTAG424Refusal(NTAG424NativeAnswer.lengthError) }
        guard offset + length <= settings.size else { throw NTAG424Refusal(NTAG424NativeAnswer.boundaryError) }
        writeFile(number, offset: offset, opened.body, chip: &chip)
        return try answered([], mode: mode, chip: &chip)
    }

    /// GetFileCounters (F6h, 10.7.3): SDMReadCtr and two reserved bytes; SDMCtrRet decides.
    mutating func getFileCounters(_ data: [UInt8], chip: inout SimulatedNTAG424Chip) throws(NTAG424Refusal)
        -> NTAG424NativeAnswer
    {
        let number = try fileNumber(data.first, chip: chip)
        guard let settings = chip.fileSettings[number], let sdm = settings.sdm else {
            throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
        }
        let granted = chip.grants(sdm.counterRetrieval)
        guard sdm.counterRetrieval != .never else { throw NTAG424Refusal(NTAG424NativeAnswer.permissionDenied) }
        guard granted.granted else { throw NTAG424Refusal(NTAG424NativeAnswer.authenticationError) }
        let mode: NTAG424CommunicationMode = granted.byKey ? .full : .plain
        _ = try opened(0xF6, data, headerCount: 1, mode: mode, chip: &chip)
        let counter = (0..<3).map { UInt8(truncatingIfNeeded: chip.sdmReadCounter >> (8 * $0)) } + [0, 0]
        return try answered(counter, mode: mode, chip: &chip)
    }

    /// The NDEF file as an unauthenticated read returns it with SDM on: the first read of its
    /// kind since another command counts (refused at SDMReadCtrLimit or FFFFFFh) and draws new
    /// PICCData padding; later ones show the same (9.3.1, 9.3.4).
    mutating func sdmContents(
        kind: SimulatedNTAG424Chip.SDMReadKind, chip: inout SimulatedNTAG424Chip
    ) throws(NTAG424Refusal) -> [UInt8] {
        guard let sdm = chip.fileSettings[0x02]?.sdm else { return ndefFile }
        if chip.previousSDMRead != kind {
            let limit = sdm.hasReadCounterLimit ? (sdm.readCounterLimit ?? 0xFF_FFFF) : 0xFF_FFFF
            if sdm.mirrorsReadCounter {
                guard chip.sdmReadCounter < limit else {
                    throw NTAG424Refusal(
                        sdm.hasReadCounterLimit
                            ? NTAG424NativeAnswer.permissionDenied : NTAG424NativeAnswer.integrityError)
                }
                chip.sdmReadCounter += 1
            }
            chip.piccPadding = (try? SecureRandom.bytes(count: 24)) ?? [UInt8](repeating: 0, count: 24)
            if sdm.mirrorsTagTamper { chip.mirroredTagTamper = chip.tagTamper?.sample() ?? .notEnabled }
        }
        chip.lastSDMRead = kind
        do {
            return try NTAG424SDMMirror(settings: sdm, keys: chip.keys, mode: chip.mode).read(
                file: ndefFile, uid: uid, counter: chip.sdmReadCounter, padding: chip.piccPadding,
                tagTamper: chip.mirroredTagTamper)
        } catch {
            throw NTAG424Refusal(NTAG424NativeAnswer.parameterError)
        }
    }

    /// The little-endian number in `bytes`.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int {
        bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
