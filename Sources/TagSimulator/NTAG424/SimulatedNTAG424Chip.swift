import NFCCrypto
import NTAG424
import TagMemory

/// The NTAG 424 DNA part of a simulated Type 4 tag (NT4H2421Gx datasheet Rev. 3.0): five AES keys
/// with their versions, the settings of the three files of the NDEF application (01 = CC
/// `E103`, 02 = NDEF `E104`, 03 = proprietary `E105`), the proprietary file's data, the SDM read
/// counter, the originality signature, and the authentication state. The CC and NDEF files'
/// data stay in ``SimulatedType4Tag``, which answers the native commands (CLA 90h) with this
/// state (`nativeCommand(_:)`).
///
/// As delivered (8.2.3, Tables 8 and 13): all keys 16 zero bytes, version 00h; file 01 Read Eh,
/// Write, RW and Change key 0, Plain; file 02 Read, Write and RW Eh, Change key 0, Plain, SDM
/// off; file 03 Read key 2, Write and RW key 3, Change key 0, Full; SDMReadCtr 0.
public struct SimulatedNTAG424Chip: Sendable {
    /// The keys 0-4 (key 0: the application master key).
    public internal(set) var keys: [[UInt8]]
    /// The key versions.
    public internal(set) var keyVersions: [UInt8]
    /// The settings of files 01, 02 and 03, by file number.
    public internal(set) var fileSettings: [UInt8: NTAG424FileSettings]
    /// The proprietary file `E105` (128 bytes).
    public internal(set) var proprietaryFile: [UInt8]
    /// SDMReadCtr of the NDEF file.
    public internal(set) var sdmReadCounter: Int
    /// The 56-byte originality signature Read_Sig returns (r || s, secp224r1).
    public var signature: [UInt8]
    /// The authenticated session, if any.
    public internal(set) var session: NTAG424SecureChannel?
    /// AES or LRP secure messaging (PDCap2.1 bit 1, set for good by SetConfiguration option 05h).
    public internal(set) var mode: NTAG424CryptoMode = .aes
    /// TagTamper, on an NTAG 424 DNA TT (NT4H2421Tx); nil on an NTAG 424 DNA.
    public internal(set) var tagTamper: SimulatedTagTamper?
    /// An authentication waiting for its second part.
    var pendingAuthentication: PendingAuthentication?
    /// GetVersion frames still to send (2, then 1), with the responses so far.
    var pendingVersion: (framesLeft: Int, sent: [UInt8])?
    /// The kind of the last plain read of the NDEF file since another command: a repeated read
    /// of the same kind neither counts nor draws new PICCData padding (9.3.1, 9.3.4).
    var lastSDMRead: SDMReadKind?
    /// ``lastSDMRead`` as it was before the command being answered (which clears it).
    var previousSDMRead: SDMReadKind?
    /// The random padding of the current PICCData.
    var piccPadding: [UInt8] = []
    /// The TagTamper status the current read mirrors (sampled with the padding).
    var mirroredTagTamper = NTAG424TagTamperStatus.notEnabled

    /// A read that SDM mirrors: ReadData or ISOReadBinary.
    enum SDMReadKind: Hashable {
        case readData
        case isoReadBinary
    }

    /// The first part of an authentication, answered with E(Kx, RndB).
    struct PendingAuthentication: Hashable {
        var keyNumber: Int
        var rndB: [UInt8]
        var isFirst: Bool
        var pcdCap2: [UInt8]
        var isLRP: Bool
    }

    /// PDCap2, the capabilities a First authentication reports: PDCap2.1 = 02h in LRP.
    var pdCap2: [UInt8] { [mode == .lrp ? 0x02 : 0x00, 0, 0, 0, 0, 0] }

    /// The factory state.
    public init() {
        keys = Array(repeating: [UInt8](repeating: 0, count: 16), count: 5)
        keyVersions = Array(repeating: 0, count: 5)
        fileSettings = [
            0x01: NTAG424FileSettings(
                communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0), size: 32),
            0x02: .factoryNDEFFile,
            0x03: NTAG424FileSettings(
                communicationMode: .full, read: .key(2), write: .key(3), readWrite: .key(3), change: .key(0),
                size: 128),
        ]
        proprietaryFile = [UInt8](repeating: 0, count: 128)
        sdmReadCounter = 0
        signature = [UInt8](repeating: 0, count: 56)
    }

    /// The factory CC file `E103` of an NTAG 424 DNA (8.2.3.2): CCLEN 0017h, mapping version
    /// 2.0, MLe 0100h, MLc 00FFh, the NDEF file `E104` (256 bytes, free read and write) and the
    /// proprietary file `E105` (128 bytes, read key 2, write key 3), zero-filled to 32 bytes.
    public static let factoryCapabilityContainer: [UInt8] = [
        0x00, 0x17, 0x20, 0x01, 0x00, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x01, 0x00, 0x00, 0x00, 0x05,
        0x06, 0xE1, 0x05, 0x00, 0x80, 0x82, 0x83, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    /// What a tag file keeps of the chip (keys, versions, file settings, SDM counter,
    /// proprietary file, signature), for telling whether it changed: the session is not kept.
    public var storedState: [[UInt8]] {
        keys + [
            keyVersions, proprietaryFile, signature,
            (0..<3).map { UInt8(truncatingIfNeeded: sdmReadCounter >> (8 * $0)) }, [mode == .lrp ? 1 : 0],
            tagTamper?.stateBytes ?? [],
        ]
            + [UInt8(1), 2, 3].map { fileSettings[$0]?.encoded ?? [] }
    }

    /// The ISO file identifier of the proprietary file.
    public static let proprietaryFileIdentifier: UInt16 = 0xE105

    /// Whether ISOReadBinary or ISOUpdateBinary may touch the file `identifier` (10.9.2,
    /// 10.9.3): plain only, free Read or ReadWrite (or an SDMFileRead key for the NDEF file)
    /// for reading, free Write or ReadWrite for writing; never in an authenticated session.
    func isoAccess(_ identifier: UInt16, writing: Bool) -> Bool {
        guard session == nil else { return false }
        let number: UInt8 =
            switch identifier {
            case 0xE103: 0x01
            case 0xE104: 0x02
            default: 0x03
            }
        guard let settings = fileSettings[number] else { return false }
        if writing { return settings.write == .free || settings.readWrite == .free }
        if settings.read == .free || settings.readWrite == .free { return true }
        return number == 0x02 && settings.sdm.map { $0.fileRead != .never } ?? false
    }

    /// Ends the authentication (a field loss, an error in an authenticated command, 9.1.9).
    mutating func dropAuthentication() {
        session = nil
        pendingAuthentication = nil
    }

    /// Forgets what lasts only while powered: authentication, pending frames, the SDM read kind.
    mutating func powerOff() {
        dropAuthentication()
        pendingVersion = nil
        lastSDMRead = nil
    }

    /// Whether the session is authenticated with a key that `access` grants (key number), or
    /// `access` is free.
    func grants(_ access: NTAG424Access) -> (granted: Bool, byKey: Bool) {
        switch access {
        case .free: (true, false)
        case .never: (false, false)
        case .key(let number): (session?.keyNumber == number, session?.keyNumber == number)
        }
    }
}

/// A native command's answer: the response data and the status (SW2 of `91 xx`).
struct NTAG424NativeAnswer {
    var data: [UInt8]
    var status: UInt8

    static let ok: UInt8 = 0x00
    static let additionalFrame: UInt8 = 0xAF
    static let illegalCommand: UInt8 = 0x1C
    static let integrityError: UInt8 = 0x1E
    static let noSuchKey: UInt8 = 0x40
    static let lengthError: UInt8 = 0x7E
    static let permissionDenied: UInt8 = 0x9D
    static let parameterError: UInt8 = 0x9E
    static let authenticationError: UInt8 = 0xAE
    static let boundaryError: UInt8 = 0xBE
    static let commandAborted: UInt8 = 0xCA
    static let fileNotFound: UInt8 = 0xF0

    /// The error answer `status`, without data.
    static func error(_ status: UInt8) -> NTAG424NativeAnswer { NTAG424NativeAnswer(data: [], status: status) }

    /// The response APDU: data, `91`, status.
    var bytes: [UInt8] { data + [0x91, status] }
}

/// A native command the tag refuses, with its status.
struct NTAG424Refusal: Error {
    let status: UInt8

    init(_ status: UInt8) { self.status = status }

    /// The refusal for a secure messaging or settings error of the NTAG424 module.
    init(_ error: NTAG424Error) {
        switch error.code {
        case .integrityError: status = NTAG424NativeAnswer.integrityError
        case .invalidSettings: status = NTAG424NativeAnswer.parameterError
        case .authenticationError: status = NTAG424NativeAnswer.authenticationError
        default: status = NTAG424NativeAnswer.lengthError
        }
    }
}

extension SimulatedType4Tag {
    /// An NTAG 424 DNA as delivered (NT4H2421Gx 8.2): the NDEF application with its 32-byte CC
    /// file (``SimulatedNTAG424Chip/factoryCapabilityContainer``), an empty 256-byte NDEF file, the
    /// 128-byte proprietary file, zero keys, SDM off; the native commands answered.
    ///
    /// - Throws: as ``init(configuration:ndefFile:)``, for a UID that is not 7 bytes too.
    public init(ntag424UID uid: [UInt8]) throws(TagMemoryError) {
        guard uid.count == 7 else {
            throw TagMemoryError(.invalidArgument, "an NTAG 424 DNA has a 7-byte UID, not \(uid.count) bytes")
        }
        try self.init(configuration: Configuration(uid: uid))
        capabilityContainerFile = SimulatedNTAG424Chip.factoryCapabilityContainer
        ntag424 = SimulatedNTAG424Chip()
    }

    /// The tag with `signature` as its Read_Sig answer (NT4H2421Gx 10.10.1: 56 bytes, r ‖ s on
    /// secp224r1), cut or padded with zeros to 56 bytes; a plain Type 4 tag as it is.
    public func signed(_ signature: [UInt8]) -> SimulatedType4Tag {
        guard var chip = ntag424 else { return self }
        chip.signature = Array(signature.prefix(56)) + [UInt8](repeating: 0, count: max(0, 56 - signature.count))
        var tag = self
        tag.ntag424 = chip
        return tag
    }

    /// The tag switched to LRP secure messaging for good, as SetConfiguration option 05h with
    /// PDCap2.1 = 02h does (NT4H2421Gx 10.5.1); a tag in LRP already stays so.
    public func inLRPMode() -> SimulatedType4Tag {
        guard var chip = ntag424 else { return self }
        chip.mode = .lrp
        chip.dropAuthentication()
        var tag = self
        tag.ntag424 = chip
        return tag
    }

    /// The tag as an NTAG 424 DNA TT (NT4H2421Tx) with its tamper loop open or closed (nil keeps
    /// the loop of a TT tag as it is); a TT tag stays one.
    public func withTagTamper(loopOpen: Bool?) -> SimulatedType4Tag {
        guard var chip = ntag424 else { return self }
        var tamper = chip.tagTamper ?? SimulatedTagTamper()
        if let loopOpen { tamper.isLoopOpen = loopOpen }
        chip.tagTamper = tamper
        var tag = self
        tag.ntag424 = chip
        return tag
    }
}
