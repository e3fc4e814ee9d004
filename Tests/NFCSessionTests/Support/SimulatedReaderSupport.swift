import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// The reader every Type 2 test in this target uses: a ``SimulatedReader`` over a field holding
/// `tags` (each with its own UID), recording every frame, with `faults` armed.
func makeReader(
    _ tags: [SimulatedType2Tag],
    capabilities: NFCReaderCapabilities = .testDefault,
    faults: SimulatedField.Faults = .none
) -> SimulatedReader {
    var field = SimulatedField(tags: tags.map { .type2($0) })
    field.isRecordingCommands = true
    field.arm(faults)
    return SimulatedReader(field: field, capabilities: capabilities)
}

/// A ``SimulatedReader`` over one Type 4 tag, recording every APDU.
func makeType4Reader(_ tag: SimulatedType4Tag, supportsISODEP: Bool = true) -> SimulatedReader {
    var field = SimulatedField(.type4(tag))
    field.isRecordingCommands = true
    var capabilities = SimulatedReader.defaultCapabilities
    capabilities.supportsISODEP = supportsISODEP
    return SimulatedReader(field: field, capabilities: capabilities)
}

/// A ``SimulatedReader`` opened from a `sim:` URL, recording every command.
func openReader(_ url: String) async throws -> SimulatedReader {
    let reader = try await SimulatedReader(url: url)
    reader.withField { $0.isRecordingCommands = true }
    return reader
}

extension SimulatedReader {
    /// Every command sent since the last ``clearLog()``.
    var log: [SimulatedField.LogEntry] { withField { $0.log } }

    /// Forgets the log and the tags' command counts (``TagSimulator/SimulatedField/resetCommandCounts()``).
    func clearLog() { withField { $0.resetCommandCounts() } }

    /// How many times the session selected a tag.
    var selectCount: Int { withField { $0.selectCount } }

    /// Arms `faults` (the counts start afresh).
    func arm(_ faults: SimulatedField.Faults) { withField { $0.arm(faults) } }

    /// Puts the tags a fault took out back into the field.
    func putBack() { withField { $0.putBack() } }

    /// Puts `tag` into the field.
    func insert(_ tag: SimulatedType2Tag) { _ = withField { $0.insert(.type2(tag)) } }

    /// Takes the tag with `uid` away and returns it.
    @discardableResult
    func remove(uid: [UInt8]) -> SimulatedTag? { withField { $0.remove(uid: uid) } }

    /// The first Type 2 tag, in the field or out of it by a fault, as it is now (a blank NTAG213
    /// when there is none, which no test expects).
    var type2Tag: SimulatedType2Tag {
        withField { field in (field.tags + field.removedTags).lazy.compactMap(\.type2Tag).first }
            ?? SimulatedType2Tag(chip: .ntag213, image: [])
    }

    /// The first Type 4 tag, in the field or out of it by a fault, as it is now.
    var type4Tag: SimulatedType4Tag? {
        withField { field in (field.tags + field.removedTags).lazy.compactMap(\.type4Tag).first }
    }

    /// The APDUs in the log.
    var apdus: [[UInt8]] { log.map(\.bytes) }

    /// The UPDATE BINARY commands the Type 4 tag received.
    var updateCount: Int { count(of: SimulatedType4Command.updateBinary) }
}

extension SimulatedField.LogEntry {
    /// The frame as sent.
    var frame: [UInt8] { bytes }

    /// The Type 2 command kind (``SimulatedType2Command/unknown`` for an APDU).
    var kind: SimulatedType2Command {
        if case .type2(let kind) = command { return kind }
        return .unknown
    }
}

extension NFCReaderCapabilities {
    /// A PN532-like reader: 252-byte frames, raw commands and FAST_READ, several targets seen.
    static let testDefault = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: true, supportsISODEP: false,
        detectsMultipleTargets: true)

    /// A PC/SC reader with only READ and WRITE (PC/SC Part 3 storage commands).
    static let readWriteOnly = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: false, supportsFastRead: false, supportsISODEP: false,
        detectsMultipleTargets: true)
}

/// A Type 4 tag as most tests use it: mapping version `version` (2.0; 3.0 uses an Extended NDEF
/// File Control TLV), MLe 59 (3Bh), MLc `mlc` (52, 34h), NDEF file `E104` of `size` bytes with
/// `writeAccess`, holding `message`, with a CC file UPDATE BINARY may change when `ccWritable`.
func type4Tag(
    size: Int = 255, writeAccess: Type4AccessCondition = .granted, message: NFCNDEFMessage? = nil,
    version: UInt8 = 0x20, mlc: Int = 0x34, ccWritable: Bool = false
) throws -> SimulatedType4Tag {
    let configuration = SimulatedType4Tag.Configuration(
        mappingVersion: version, maximumResponseDataSize: 0x3B, maximumCommandDataSize: mlc,
        maximumNDEFFileSize: size, writeAccess: writeAccess, isCapabilityContainerWritable: ccWritable)
    return try SimulatedType4Tag(configuration: configuration, message: message ?? NFCNDEFMessage(records: []))
}

extension SimulatedType4Tag {
    /// The CC file as the tag holds it now, parsed.
    var currentCapabilityContainer: Type4CapabilityContainer? {
        try? Type4CapabilityContainer(parsing: capabilityContainerFile[...])
    }

    /// The message bytes the NDEF file holds now: nil for NLEN 0 or a length the file cannot hold.
    var storedMessageBytes: [UInt8]? {
        guard let cc = currentCapabilityContainer,
            let bytes = try? Type4NDEFFile.messageBytes(in: ndefFile[...], capabilityContainer: cc), !bytes.isEmpty
        else { return nil }
        return Array(bytes)
    }
}

/// Opens a session on `reader` and returns its first tag, which must be an ISO-DEP tag.
func openType4Tag(_ reader: SimulatedReader) async throws -> (NFCTagReaderSession, NFCISO7816Tag) {
    let session = NFCTagReaderSession(reader: reader)
    guard let tag = try await session.nextTag(timeout: .seconds(1)) as? NFCISO7816Tag else {
        Issue.record("not an ISO-DEP tag")
        throw NFCReaderError(.tagNotSupported, "not ISO-DEP")
    }
    return (session, tag)
}
