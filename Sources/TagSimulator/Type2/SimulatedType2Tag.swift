import NFCWireFormat
import TagMemory

/// A simulated NFC Forum Type 2 tag (NTAG21x, MIFARE Ultralight family): a pure state machine
/// that answers raw command frames as the chip's datasheet describes.
///
/// Behaviour follows the NTAG213/215/216 datasheet (section 10 for the commands, the state
/// diagram of section 8 for IDLE, READY, ACTIVE, AUTHENTICATED and HALT), MF0ULX1 (MIFARE
/// Ultralight EV1, section 8) and MF0ICU1 (MIFARE Ultralight). Page writes use the rules of
/// ``TagMemory/Type2Memory/applyingWrite(page:data:authenticated:)`` (OTP, lock bytes, CFGLCK, AUTH0).
///
/// Simplifications: anticollision is reduced to ``select()``; frames carry no CRC; the 3DES
/// authentication of the MIFARE Ultralight C and the one-way counter increment (INCR_CNT) are
/// not simulated.
public struct SimulatedType2Tag: Sendable {
    /// The ISO/IEC 14443-3 state of the tag.
    public typealias State = ISO14443State

    /// The chip simulated.
    public let chip: Type2Chip
    /// The memory image from page 0 on, including PWD and PACK as written (READ answers zeros
    /// for them).
    public internal(set) var bytes: [UInt8]
    /// The image parsed when a page a write rule reads last changed: its lock, CC and
    /// configuration pages are current, its user memory may not be
    /// (``TagMemory/Type2Memory/writeLeavesRulesUnchanged(page:)``). It answers every question
    /// the chip's state machine asks (locks, AUTH0, PROT, the NFC counter, PWD and PACK), so a
    /// WRITE to user memory does not parse the image again.
    var rules: Type2Memory
    /// The ISO/IEC 14443-3 state.
    public internal(set) var state: State = .idle
    /// Whether PWD_AUTH succeeded since the tag was selected.
    public internal(set) var isAuthenticated = false
    /// Failed PWD_AUTH attempts counted against AUTHLIM (non-volatile: survives ``fieldOff()``).
    public internal(set) var failedAuthenticationCount = 0
    /// Whether AUTHLIM was reached: PWD_AUTH answers NAK 4h for good.
    public internal(set) var isPasswordDisabled = false
    /// The 24-bit NFC counter (NTAG213/215/216 8.7).
    public internal(set) var nfcCounter: UInt32 = 0
    /// The three 24-bit one-way counters of a MIFARE Ultralight EV1 (MF0ULX1 8.7).
    public internal(set) var oneWayCounters: [UInt32] = [0, 0, 0]
    /// The 32-byte originality signature READ_SIG returns (a fixed value held by the tag): 32
    /// zero bytes unless one is given, as an unsigned clone answers.
    public internal(set) var signature: [UInt8]
    /// How many frames of each kind the tag received, answered or not.
    public internal(set) var commandCounts: [SimulatedType2Command: Int] = [:]
    /// Whether ``recordedCommands`` keeps every frame's kind in order (off by default, so long
    /// benchmark runs do not grow memory).
    public var isRecordingCommands = false
    /// The kinds of the frames received while ``isRecordingCommands`` was on, in order.
    public internal(set) var recordedCommands: [SimulatedType2Command] = []

    /// The page a COMPATIBILITY_WRITE announced, waiting for its 16-byte data frame.
    var pendingCompatibilityWritePage: Int?
    /// Whether the NFC counter already counted in this field (it counts once per power-on).
    var hasCountedThisField = false
    /// Whether the tag was woken from HALT: after a NAK it falls back to HALT, not IDLE.
    var wasHalted = false

    /// Creates a tag holding `image` (cut or padded with 00h to the chip's page count).
    ///
    /// - Parameters:
    ///   - chip: the chip simulated.
    ///   - image: the memory from page 0 on.
    ///   - signature: the READ_SIG answer (cut or padded to 32 bytes); nil: 32 zero bytes, as an
    ///     unsigned chip answers.
    public init(chip: Type2Chip, image: [UInt8], signature: [UInt8]? = nil) {
        let size = max(0, chip.pageCount) * 4
        let fitted = Array(image.prefix(size)) + [UInt8](repeating: 0, count: max(0, size - image.count))
        self.chip = chip
        self.bytes = fitted
        self.rules = Type2Memory(bytes: fitted, chip: chip)
        self.signature = Self.fitted(signature ?? [])
    }

    /// The tag with `signature` as its READ_SIG answer (cut or padded to 32 bytes).
    public func signed(_ signature: [UInt8]) -> SimulatedType2Tag {
        var tag = self
        tag.signature = Self.fitted(signature)
        return tag
    }

    /// `signature` cut or padded with zeros to 32 bytes.
    static func fitted(_ signature: [UInt8]) -> [UInt8] {
        Array(signature.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - signature.count))
    }

    /// Creates a tag as it leaves the factory (see ``factoryImage(chip:uid:)``).
    public init(chip: Type2Chip, uid: [UInt8] = SimulatedType2Tag.defaultUID) {
        self.init(chip: chip, image: Self.factoryImage(chip: chip, uid: uid))
    }

    /// The UID of tags created without one (NXP manufacturer code 04h first).
    public static let defaultUID: [UInt8] = [0x04, 0x51, 0x7C, 0xA2, 0x4B, 0x35, 0x80]

    /// The memory of a chip as shipped: the 7-byte UID (cut or padded with 00h) with BCC0 =
    /// 88h ⊕ UID0 ⊕ UID1 ⊕ UID2 and BCC1 = UID3 ⊕ UID4 ⊕ UID5 ⊕ UID6 (ISO/IEC 14443-3, T2T 1.1
    /// 2.1.1), internal byte 48h, lock bytes 00h, the factory CC and data, and on chips with
    /// configuration pages CFG0 with AUTH0 FFh (MIRROR 04h on NTAG213/215/216), CFG1 00h,
    /// PWD FF FF FF FF and PACK 00 00 (NTAG213/215/216 8.5.7, MF0ULX1 8.5.7). On a MIFARE
    /// Ultralight C, AUTH0 is 30h (MF0ICU2 7.5.8).
    public static func factoryImage(chip: Type2Chip, uid: [UInt8] = defaultUID) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(16, chip.pageCount * 4))
        let id = Array(uid.prefix(7)) + [UInt8](repeating: 0, count: max(0, 7 - uid.count))
        bytes[0] = id[0]
        bytes[1] = id[1]
        bytes[2] = id[2]
        bytes[3] = 0x88 ^ id[0] ^ id[1] ^ id[2]
        for index in 0..<4 { bytes[4 + index] = id[3 + index] }
        bytes[8] = id[3] ^ id[4] ^ id[5] ^ id[6]
        bytes[9] = 0x48
        for (index, byte) in chip.factoryCapabilityContainer.prefix(4).enumerated() { bytes[12 + index] = byte }
        for (index, byte) in chip.factoryData.enumerated() where 16 + index < bytes.count {
            bytes[16 + index] = byte
        }
        if let pages = chip.configurationPages, (pages.passwordAcknowledge + 1) * 4 <= bytes.count {
            bytes[pages.cfg0 * 4] = chip.features.contains(.asciiMirror) ? 0x04 : 0x00
            bytes[pages.cfg0 * 4 + 3] = 0xFF
            for index in 0..<4 { bytes[pages.password * 4 + index] = 0xFF }
        }
        if let pages = chip.tripleDESPages, pages.auth0 * 4 < bytes.count {
            bytes[pages.auth0 * 4] = 0x30
        }
        return Array(bytes.prefix(chip.pageCount * 4))
    }

    /// REQA or WUPA, anticollision and SELECT in one step: the tag becomes ACTIVE.
    public mutating func select() {
        wasHalted = wasHalted || state == .halt
        state = .active
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
    }

    /// HLTA: the tag halts and leaves the authenticated state.
    public mutating func halt() {
        state = .halt
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
    }

    /// The field goes off: the tag powers down to IDLE, losing authentication and the
    /// once-per-field NFC counter increment (the AUTHLIM failure count is non-volatile).
    public mutating func fieldOff() {
        state = .idle
        wasHalted = false
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
        hasCountedThisField = false
    }

    /// The memory, parsed from ``bytes`` (PWD and PACK included as written) at each access.
    public var memory: Type2Memory { Type2Memory(bytes: bytes, chip: chip) }

    /// The 7-byte UID: bytes 0-2 and 4-7 (NTAG213/215/216 8.5.1).
    public var uid: [UInt8] { bytes.count >= 8 ? Array(bytes[0..<3] + bytes[4..<8]) : [] }

    /// The 4 bytes of `page` as stored, or nil past the image.
    public func page(_ page: Int) -> [UInt8]? {
        guard page >= 0, (page + 1) * Type2Page.size <= bytes.count else { return nil }
        return Array(bytes[Type2Page.bytes(of: page)])
    }

    /// How many frames of `command` the tag received.
    public func count(of command: SimulatedType2Command) -> Int { commandCounts[command] ?? 0 }

    /// The total number of frames received.
    public var totalCommandCount: Int { commandCounts.values.reduce(0, +) }

    /// Forgets the command counts and the recorded commands.
    public mutating func resetCommandCounts() {
        commandCounts = [:]
        recordedCommands = []
    }

    /// Answers one command frame (without CRC), as the chip does in its current state.
    ///
    /// Only an ACTIVE tag answers; in any other state the frame is ``SimulatedType2Response/silent``.
    /// A NAK, an unknown command or one the chip does not have (MIFARE Ultralight: GET_VERSION,
    /// FAST_READ, PWD_AUTH, READ_CNT, READ_SIG) answers NAK 0h and sends the tag back to its
    /// waiting state, IDLE, or HALT if it was woken from HALT (NTAG213/215/216 9.3, MF0ICU2 8.3),
    /// where it stays silent until ``select()``. Every frame is counted in ``commandCounts``.
    public mutating func transceive(_ command: [UInt8]) -> SimulatedType2Response {
        let kind = receive(command)
        guard state == .active else { return .silent }
        let response = answer(kind, command)
        if case .nak = response { fallBackAfterNak() }
        return response
    }

    /// Counts (and records) `frame` under the kind the tag takes it for, and returns that kind.
    @discardableResult
    mutating func receive(_ frame: [UInt8]) -> SimulatedType2Command {
        let kind = commandKind(of: frame)
        commandCounts[kind, default: 0] += 1
        if isRecordingCommands { recordedCommands.append(kind) }
        return kind
    }

    /// After a NAK: back to IDLE, or HALT if woken from HALT, unauthenticated.
    mutating func fallBackAfterNak() {
        state = wasHalted ? .halt : .idle
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
    }

    private mutating func answer(_ kind: SimulatedType2Command, _ frame: [UInt8]) -> SimulatedType2Response {
        switch kind {
        case .getVersion: getVersion(frame)
        case .read: read(frame)
        case .fastRead: fastRead(frame)
        case .write: write(frame)
        case .compatibilityWrite: compatibilityWrite(frame)
        case .compatibilityWriteData: compatibilityWriteData(frame)
        case .readCounter: readCounter(frame)
        case .passwordAuthentication: passwordAuthentication(frame)
        case .readSignature: readSignature(frame)
        case .unknown: .invalidArgument
        }
    }
}

/// The command kinds a simulated Type 2 tag tells apart, by their first byte (NTAG213/215/216
/// datasheet section 10, MF0ULX1 section 8, MF0ICU1 section 9).
public enum SimulatedType2Command: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// GET_VERSION, 60h.
    case getVersion = "GET_VERSION"
    /// READ, 30h.
    case read = "READ"
    /// FAST_READ, 3Ah.
    case fastRead = "FAST_READ"
    /// WRITE, A2h.
    case write = "WRITE"
    /// COMPATIBILITY_WRITE, A0h (the first part, with the page address).
    case compatibilityWrite = "COMPATIBILITY_WRITE"
    /// The 16-byte data frame that completes a COMPATIBILITY_WRITE.
    case compatibilityWriteData = "COMPATIBILITY_WRITE_DATA"
    /// READ_CNT, 39h.
    case readCounter = "READ_CNT"
    /// PWD_AUTH, 1Bh.
    case passwordAuthentication = "PWD_AUTH"
    /// READ_SIG, 3Ch.
    case readSignature = "READ_SIG"
    /// Any other frame, including an empty one.
    case unknown = "UNKNOWN"

    /// The kind of `frame` from its first byte (``NFCWireFormat/Type2Command``).
    public init(frame: [UInt8]) {
        self = frame.first.flatMap { Self.kinds[$0] } ?? .unknown
    }

    /// The kinds by opcode, from the commands of the one table.
    private static let kinds: [UInt8: SimulatedType2Command] = [
        Type2Command.getVersion.opcode: .getVersion, Type2Command.read.opcode: .read,
        Type2Command.fastRead.opcode: .fastRead, Type2Command.write.opcode: .write,
        Type2Command.compatibilityWrite.opcode: .compatibilityWrite, Type2Command.readCounter.opcode: .readCounter,
        Type2Command.passwordAuthentication.opcode: .passwordAuthentication,
        Type2Command.readSignature.opcode: .readSignature,
    ]

    /// The datasheet name.
    public var description: String { rawValue }
}

/// What a simulated Type 2 tag answers to one command frame (ISO/IEC 14443-3; NTAG213/215/216
/// datasheet section 10 and 9.3 for ACK and NAK).
///
/// Frames carry no CRC: the reader hardware adds and checks it, so ``nak(_:)`` with 1h is never
/// produced by the simulator itself but is listed for readers that model a broken link.
public enum SimulatedType2Response: Sendable, Hashable {
    /// A data answer (READ, FAST_READ, GET_VERSION, READ_CNT, READ_SIG, the PACK of PWD_AUTH).
    case data([UInt8])
    /// The 4-bit ACK, Ah.
    case ack
    /// A 4-bit NAK: 0h invalid argument, 1h CRC or parity error, 4h authentication counter
    /// overflow, 5h EEPROM write error.
    case nak(UInt8)
    /// No answer at all (the tag is not in the ACTIVE state, or ignores the frame).
    case silent

    /// NAK 0h: invalid argument (page address, length, locked or protected page).
    public static let invalidArgument = SimulatedType2Response.nak(0x0)
    /// NAK 1h: CRC or parity error.
    public static let parityOrCRCError = SimulatedType2Response.nak(0x1)
    /// NAK 4h: the PWD_AUTH attempt counter reached AUTHLIM.
    public static let authenticationCounterOverflow = SimulatedType2Response.nak(0x4)
    /// NAK 5h: EEPROM write error.
    public static let writeError = SimulatedType2Response.nak(0x5)

    /// The data bytes of a ``data(_:)`` answer, else nil.
    public var bytes: [UInt8]? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }
}

extension SimulatedType2Tag {
    /// A frame the tag does not expect in READY or ACTIVE (a REQA or WUPA, a SELECT for another
    /// UID): the tag goes back to its waiting state, IDLE, or HALT if it was woken from HALT
    /// (ISO/IEC 14443-3 6.3, NTAG213/215/216 8.2 state diagram). Nothing is answered or counted.
    mutating func returnToWaitingState() {
        guard state == .active || state == .ready else { return }
        state = wasHalted ? .halt : .idle
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
    }

    /// The kind ``transceive(_:)`` counts `frame` as in the current state.
    func commandKind(of frame: [UInt8]) -> SimulatedType2Command {
        pendingCompatibilityWritePage != nil && state == .active
            ? .compatibilityWriteData : SimulatedType2Command(frame: frame)
    }

    /// The page `frame` writes, when it is a WRITE (A2h addr d0-d3) or the data frame of a
    /// COMPATIBILITY_WRITE in the current state; nil for every other frame.
    func writtenPage(by frame: [UInt8]) -> Int? {
        switch commandKind(of: frame) {
        case .write: frame.count == 6 ? Int(frame[1]) : nil
        case .compatibilityWriteData: frame.count == 16 ? pendingCompatibilityWritePage : nil
        default: nil
        }
    }

    /// Whether an interrupted write to `page` keeps the page's old content: page 2 (static lock
    /// bytes), page 3 (CC) and the dynamic lock page are tearing-protected (NTAG213/215/216 10.4
    /// and 10.5); the datasheet lists no other page.
    func isTearingProtected(page: Int) -> Bool {
        page == 2 || page == 3 || page == chip.dynamicLock?.page
    }

    /// Receives `frame` and refuses it with the 4-bit NAK `code` without carrying it out, as a
    /// tag whose EEPROM fails (fault injection): the frame is counted, and the tag goes back to
    /// its waiting state as after any NAK (NTAG213/215/216 9.3).
    mutating func refuse(_ frame: [UInt8], nak code: UInt8) -> SimulatedType2Response {
        receive(frame)
        fallBackAfterNak()
        return .nak(code & 0x0F)
    }

    /// Receives `frame` and acknowledges it without storing anything, as an EEPROM that fails
    /// silently (fault injection): the frame is counted, a pending COMPATIBILITY_WRITE ends.
    mutating func acknowledgeWithoutStoring(_ frame: [UInt8]) -> SimulatedType2Response {
        receive(frame)
        pendingCompatibilityWritePage = nil
        return .ack
    }

    /// Puts `content` (4 bytes) into `page` as they are, bypassing the write rules: how a torn
    /// write leaves the EEPROM. Out-of-range pages and other lengths change nothing.
    mutating func overwrite(page: Int, with content: [UInt8]) {
        guard content.count == Type2Page.size, page >= 0, page < chip.pageCount else { return }
        let start = page * Type2Page.size
        guard start + Type2Page.size <= bytes.count else { return }
        bytes.replaceSubrange(start..<(start + Type2Page.size), with: content)
        if !rules.writeLeavesRulesUnchanged(page: page) { rules = Type2Memory(bytes: bytes, chip: chip) }
    }
}
