import HexText
import NDEF
import NFCSession
import NTAG424
import TagMemory

/// What `ndeftool sdm status` reports about an NTAG 424 DNA.
struct SDMStatusReport: Encodable {
    private enum CodingKeys: String, CodingKey {
        case uid, version, signature, mode, tagTamper, files, keyVersions, counter, url, check
    }

    /// Every key, null where it does not apply (Fixtures/schemas/sdm-status.schema.json).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uid, forKey: .uid)
        try container.encode(version, forKey: .version)
        try container.encode(signature, forKey: .signature)
        try container.encode(mode?.rawValue, forKey: .mode)
        let tamper = tagTamper.map { ["permanent": $0.permanent.name, "current": $0.current.name] }
        try container.encode(tamper, forKey: .tagTamper)
        try container.encode(files, forKey: .files)
        try container.encode(keyVersions, forKey: .keyVersions)
        try container.encode(counter, forKey: .counter)
        try container.encode(url, forKey: .url)
        try container.encode(check, forKey: .check)
    }

    var uid: String
    var version: String
    /// Read_Sig checked against NXP's NTAG 424 DNA key; nil when the tag refused Read_Sig.
    var signature: OriginalitySignatureCheck?
    /// The secure messaging the tag speaks, when an authentication or the URL's PICCData told it.
    var mode: NTAG424CryptoMode?
    /// Whether the chip has TagTamper (an NTAG 424 DNA TT: GetVersion's HWSubType x8h).
    var hasTagTamper = false
    /// Its TagTamper status (GetTTStatus), when it has TagTamper and the status is free to read.
    var tagTamper: NTAG424TagTamperStatus?
    var files: [FileFacts]
    var keyVersions: [Int]
    var counter: Int?
    var url: String?
    var check: SDMVerification?

    /// One file's settings.
    struct FileFacts: Encodable {
        private enum CodingKeys: String, CodingKey {
            case file, size, communicationMode, read, write, readWrite, change, sdm
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(file, forKey: .file)
            try container.encode(size, forKey: .size)
            try container.encode(communicationMode, forKey: .communicationMode)
            try container.encode(read, forKey: .read)
            try container.encode(write, forKey: .write)
            try container.encode(readWrite, forKey: .readWrite)
            try container.encode(change, forKey: .change)
            try container.encode(sdm, forKey: .sdm)
        }

        var file: Int
        var size: Int
        var communicationMode: String
        var read: String
        var write: String
        var readWrite: String
        var change: String
        var sdm: SDMFacts?
    }

    /// The SDM settings of the NDEF file.
    struct SDMFacts: Encodable {
        private enum CodingKeys: String, CodingKey {
            case mirrorsUID, mirrorsCounter, encryptsFileData, metaRead, fileRead, counterRetrieval, piccDataOffset
            case uidOffset, counterOffset, tagTamperOffset, fileDataOffset, fileDataLength, macInputOffset, macOffset
            case counterLimit
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mirrorsUID, forKey: .mirrorsUID)
            try container.encode(mirrorsCounter, forKey: .mirrorsCounter)
            try container.encode(encryptsFileData, forKey: .encryptsFileData)
            try container.encode(metaRead, forKey: .metaRead)
            try container.encode(fileRead, forKey: .fileRead)
            try container.encode(counterRetrieval, forKey: .counterRetrieval)
            try container.encode(piccDataOffset, forKey: .piccDataOffset)
            try container.encode(uidOffset, forKey: .uidOffset)
            try container.encode(counterOffset, forKey: .counterOffset)
            try container.encode(tagTamperOffset, forKey: .tagTamperOffset)
            try container.encode(encryptedDataOffset, forKey: .fileDataOffset)
            try container.encode(encryptedDataLength, forKey: .fileDataLength)
            try container.encode(macInputOffset, forKey: .macInputOffset)
            try container.encode(macOffset, forKey: .macOffset)
            try container.encode(counterLimit, forKey: .counterLimit)
        }

        var mirrorsUID: Bool
        var mirrorsCounter: Bool
        var encryptsFileData: Bool
        var metaRead: String
        var fileRead: String
        var counterRetrieval: String
        var piccDataOffset: Int?
        var uidOffset: Int?
        var counterOffset: Int?
        /// TTStatusOffset, on an NTAG 424 DNA TT that mirrors its TagTamper status.
        var tagTamperOffset: Int?
        /// SDMENCOffset and SDMENCLength (characters), with SDMENCFileData.
        var encryptedDataOffset: Int?
        var encryptedDataLength: Int?
        var macInputOffset: Int?
        var macOffset: Int?
        var counterLimit: Int?
    }

    /// The keys given: a keys file's, or a master key (16 bytes) the tag's keys derive from.
    enum Keys {
        case file([[UInt8]])
        case master([UInt8])

        /// The tag's five keys: a master key's derived for `uid` with the shared SDMMetaRead key
        /// at the number `settings` name (key 1 without SDM, as `sdm setup` sets up by default).
        func keys(uid: [UInt8], settings: NTAG424FileSettings?) throws(CommandLineError) -> [[UInt8]] {
            switch self {
            case .file(let keys): return keys
            case .master(let key):
                var metaRead = 1
                if case .key(let number)? = settings?.sdm?.metaRead, (1...4).contains(number) { metaRead = number }
                do {
                    let master = try NTAG424MasterKey(
                        key, metaReadKey: metaRead, fileReadKey: metaRead == 4 ? 1 : metaRead + 1)
                    return try master.keys(uid: uid)
                } catch {
                    throw CommandLineError(.tagError, "the tag's keys cannot be derived: \(error.reason)")
                }
            }
        }
    }

    /// Reads the facts from `tag`; with `given` keys, the counter where a key guards it and a
    /// check of the URL.
    static func read(_ tag: NFCNTAG424Tag, keys given: Keys?) async throws -> SDMStatusReport {
        try await tag.selectApplication()
        let version = try await tag.version()
        // An NTAG 424 DNA TT (HWSubType x8h): its TagTamper status, in plain (TTStatusKey free).
        let hasTagTamper = version.count > 2 && version[2] & 0x0F == 0x08
        let tagTamper = hasTagTamper ? try? await tag.tagTamperStatus() : nil
        // Read_Sig in plain, without a session (NT4H2421Gx 10.10.1); a tag that refuses it is shown so.
        let signature = try? await tag.checkOriginality()
        try await tag.selectApplication()
        var files: [FileFacts] = []
        var ndefSettings: NTAG424FileSettings?
        for number in [UInt8(1), 2, 3] {
            let settings = try await tag.fileSettings(number)
            if number == 2 { ndefSettings = settings }
            files.append(facts(number, settings))
        }
        var keyVersions: [Int] = []
        for number in 0..<5 { keyVersions.append(Int(try await tag.keyVersion(number))) }
        let keys = try given?.keys(uid: tag.identifier, settings: ndefSettings)
        var counter: Int?
        if let sdm = ndefSettings?.sdm {
            switch sdm.counterRetrieval {
            case .free: counter = try await tag.fileCounter(2)
            case .key(let number):
                if let keys {
                    try await tag.authenticate(keyNumber: number, key: keys[number])
                    counter = try await tag.fileCounter(2)
                }
            case .never: break
            }
        }
        try await tag.selectApplication()
        let message = try? await tag.tag.readNDEF()
        let url = message?.records.first.flatMap { try? URIRecord(parsing: $0).uri }
        var check: SDMVerification?
        if let url, let keys, let sdm = ndefSettings?.sdm, case .key(let fileRead) = sdm.fileRead,
            let verifier = try? NTAG424SUNVerifier(
                metaReadKey: { if case .key(let meta) = sdm.metaRead { return keys[meta] } else { return nil } }(),
                fileReadKey: keys[fileRead])
        {
            check = SDMVerification(url: url, parameters: .init(), verifier: verifier, lastCounter: nil)
        }
        var report = SDMStatusReport(
            uid: Hex.encode(tag.identifier, uppercase: true),
            version: Hex.encode(version, uppercase: true, separator: " "), signature: signature, files: files,
            keyVersions: keyVersions, counter: counter, url: url, check: check)
        report.mode = await tag.mode ?? check?.mode
        report.hasTagTamper = hasTagTamper
        report.tagTamper = tagTamper
        return report
    }

    static func facts(_ number: UInt8, _ settings: NTAG424FileSettings) -> FileFacts {
        FileFacts(
            file: Int(number), size: settings.size, communicationMode: settings.communicationMode.description,
            read: settings.read.description, write: settings.write.description,
            readWrite: settings.readWrite.description, change: settings.change.description,
            sdm: settings.sdm.map { sdm in
                SDMFacts(
                    mirrorsUID: sdm.mirrorsUID, mirrorsCounter: sdm.mirrorsReadCounter,
                    encryptsFileData: sdm.encryptsFileData, metaRead: sdm.metaRead.description,
                    fileRead: sdm.fileRead.description, counterRetrieval: sdm.counterRetrieval.description,
                    piccDataOffset: sdm.piccDataOffset, uidOffset: sdm.uidOffset, counterOffset: sdm.readCounterOffset,
                    tagTamperOffset: sdm.tagTamperOffset, encryptedDataOffset: sdm.encryptedDataOffset,
                    encryptedDataLength: sdm.encryptedDataLength,
                    macInputOffset: sdm.macInputOffset, macOffset: sdm.macOffset, counterLimit: sdm.readCounterLimit)
            })
    }

    /// The report as text lines.
    var lines: [String] {
        var lines = [
            "NTAG 424 DNA, UID \(uid)", "GetVersion: \(version)",
            "originality signature: " + (signature?.summary ?? "not readable (Read_Sig refused)"),
        ]
        for file in files {
            let name = ["", "CC (E103)", "NDEF (E104)", "proprietary (E105)"][min(file.file, 3)]
            lines.append(
                "file \(file.file) \(name): \(file.size) bytes, CommMode \(file.communicationMode); read \(file.read), "
                    + "write \(file.write), read-write \(file.readWrite), change \(file.change)")
            if let sdm = file.sdm {
                var parts = ["SDM on"]
                if let offset = sdm.piccDataOffset { parts.append("PICCData at \(offset) (\(sdm.metaRead))") }
                if let offset = sdm.uidOffset { parts.append("UID at \(offset)") }
                if let offset = sdm.counterOffset { parts.append("counter at \(offset)") }
                if let offset = sdm.tagTamperOffset { parts.append("TagTamper status at \(offset)") }
                if let offset = sdm.encryptedDataOffset, let length = sdm.encryptedDataLength {
                    parts.append("file data at \(offset) (\(length) characters, \(sdm.fileRead))")
                }
                if let offset = sdm.macOffset {
                    parts.append("SDMMAC at \(offset) (\(sdm.fileRead), input from \(sdm.macInputOffset ?? offset))")
                }
                if let limit = sdm.counterLimit { parts.append("counter limit \(limit)") }
                lines.append("  " + parts.joined(separator: ", "))
            } else if file.file == 2 {
                lines.append("  SDM off")
            }
        }
        if hasTagTamper {
            lines.append(
                "TagTamper: " + (tagTamper.map { "\($0) (\($0.meaning))" } ?? "status not readable without its key"))
        }
        if let mode {
            lines.append("secure messaging: " + (mode == .lrp ? "LRP (for good)" : "AES"))
        }
        lines.append(
            "key versions: " + keyVersions.enumerated().map { "k\($0.offset) \($0.element)" }.joined(separator: ", ")
                + (keyVersions.allSatisfy { $0 == 0 }
                    ? " (all 0: factory keys, or keys changed without a version)" : ""))
        if let counter { lines.append("SDM read counter: \(counter)") }
        lines.append("a phone reads: " + (url ?? "no URI record"))
        if let check { lines.append("check: " + check.text) }
        return lines
    }
}
